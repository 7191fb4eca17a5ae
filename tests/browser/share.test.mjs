// "Share or embed this view": the builder starts from what the page shows (the chapter, its panels and
// exercises, the view's keys), writes the permalink and every snippet from it and the author's choices
// (panels, exercises, lock, hide, nav, label, theme, read-only), shows them live in a preview, and what
// it writes works when pasted: the element snippet on a course page of another origin, the iframe's
// page and the link reproduce the chapter, exercises, locks and hides (issue 38).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, openUrl, serveSite, resultReady, screenshot, SAVE_SCREENSHOTS, POLL_MS } from './harness.mjs';
import { idsOfChapter } from '../../web/src/lesson/exercises/index.js';
import { CHAPTERS } from '../../web/src/lesson/chapters.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const VIEW = '#d_model=48&n_heads=3&source=random&n_q=5&mask=causal&text=it%27s%20%22quoted%22%20%3Cand%3E%20%26';

/** The builder's snippets of VIEW before any choice (element, permalink) and the page's state, read with its builder open. */
const untouchedOf = async (page) => ({
  element: await page.inputValue('[data-snippet="element"]'),
  permalink: await page.inputValue('[data-snippet="permalink"]'),
  state: await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1)))),
});
// Read by the first test on its page before its choices, for the second (which opens VIEW itself when run alone).
let untouched = null;

test('the builder writes every snippet from the view and the choices, and previews it', async () => {
  const page = await openPage(h, VIEW);
  await page.click('#share-builder summary');
  await page.waitForSelector('[data-snippet="element"]');
  untouched = await untouchedOf(page);
  // The first box by a click; the others in one task, as a click each would leave them (each click, a
  // task of its own, redrew the preview, still with some 20 panels: 9 of this test's 17 CPU-s).
  const others = await page.$$eval('[name="share-panel"]', (all) => all.map((b) => b.value).filter((v) => !['heatmaps', 'shapes'].includes(v)));
  await page.uncheck(`[name="share-panel"][value="${others[0]}"]`);
  await page.evaluate((values) => {
    for (const value of values) {
      const box = document.querySelector(`#share-builder [name="share-panel"][value="${value}"]`);
      box.checked = false;
      box.dispatchEvent(new Event('input', { bubbles: true }));
      box.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, others.slice(1));
  await page.selectOption('[name="share-theme"]', 'dark');
  await page.check('[name="share-readonly"]');
  const snippet = (key) => page.inputValue(`[data-snippet="${key}"]`);

  const element = await snippet('element');
  assert.ok(element.startsWith(`<script type="module" src="${h.url}attention-playground.js"></script>\n<attention-playground `), element);
  for (const attr of ['d_model="48"', 'n_heads="3"', 'mask="causal"', 'source="random"', 'n_q="5"', 'panels="heatmaps,shapes"', 'theme="dark"', 'controls="0"',
    'text="it&#39;s &quot;quoted&quot; &lt;and&gt; &amp;"']) assert.ok(element.includes(attr), `${attr} in ${element}`);
  // The browser's own parser reads the value back exactly (tests/js/snippets.test.mjs: hostile texts).
  assert.equal(await page.evaluate((html) => {
    const t = document.createElement('template');
    t.innerHTML = html;
    return t.content.querySelector('attention-playground').getAttribute('text');
  }, element), 'it\'s "quoted" <and> &');
  assert.ok(!/embed=|\bembed="/.test(element), 'the page flag embed is not an attribute');

  const iframe = await snippet('iframe');
  // (The view is the test page's, opened at chapter=reference: harness.mjs openPage.)
  assert.match(iframe, new RegExp(`^<iframe src="${h.url}index.html#d_model=48&amp;n_heads=3.*panels=heatmaps,shapes&amp;theme=dark&amp;controls=0&amp;chapter=reference&amp;embed=1" `));
  assert.ok(iframe.endsWith(`<script src="${h.url}embed.js"></script>`));
  assert.match(iframe, /height="900"/);
  await page.fill('[name="share-height"]', '650');
  assert.match(await snippet('iframe'), /height="650"/);

  const permalink = await snippet('permalink');
  assert.ok(permalink.startsWith(`${h.url}index.html#d_model=48&n_heads=3`), permalink);
  assert.ok(!/panels=|theme=|controls=|embed=/.test(permalink), `the permalink is the full page: ${permalink}`);

  const myst = await snippet('myst');
  const [first, json, last] = myst.split('\n');
  assert.equal(first, `:::{anywidget} ${h.url}attention-playground.js`);
  assert.equal(last, ':::');
  assert.deepEqual(JSON.parse(json), { d_model: '48', n_heads: '3', n_q: '5', mask: 'causal', source: 'random', text: 'it\'s "quoted" <and> &', panels: 'heatmaps,shapes', theme: 'dark', controls: '0', chapter: 'reference' });
  assert.match(await snippet('quarto'), /^```\{=html\}\n<script type="module"[^\n]*\n<attention-playground [^\n]*\n```$/);
  const python = await snippet('python');
  assert.ok(python.includes(`_esm = "${h.url}attention-playground.js"`) && python.includes('d_model = traitlets.Int(48).tag(sync=True)')
    && python.includes('text = traitlets.Unicode("it\'s \\"quoted\\" \\x3cand> &").tag(sync=True)'), python);

  // The preview is a playground of its own with those choices (sharing the page's worker).
  const preview = page.locator('#share-builder .share-preview-box');
  await preview.locator('.status', { hasText: 'Ran in' }).waitFor({ timeout: 30000 });
  const shown = await preview.evaluate((box) => [...box.shadowRoot.querySelectorAll('[data-panel]')].filter((s) => !s.hidden).map((s) => s.dataset.panel));
  assert.deepEqual(shown, ['heatmaps', 'shapes']);
  assert.equal(await preview.evaluate((box) => box.shadowRoot.querySelector('.ap').dataset.scheme), 'dark');
  assert.equal(await preview.locator('.heat-small').count(), 3);
  assert.equal(page.workers().length, 1, 'the preview uses the page’s worker');
  // The page's view changes: so do the snippets and the preview.
  await page.fill('#playground [name="n_heads"]', '6');
  await page.waitForFunction(() => document.querySelector('[data-snippet="element"]').value.includes('n_heads="6"'));
  await page.waitForFunction(() => document.querySelector('#share-builder .share-preview-box').shadowRoot.querySelectorAll('.heat-small').length === 6);
  await screenshot(page, 'share-builder', { of: page.locator('#share-builder') });
  // Closing the builder frees the preview's playground.
  await page.click('#share-builder summary');
  await page.waitForFunction(() => !document.querySelector('#share-builder .share-preview-box').shadowRoot.querySelector('.ap'));
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('what the builder writes works when pasted: the element on another origin shows the same view', async () => {
  if (!untouched) {
    const page = await openPage(h, VIEW);
    await page.click('#share-builder summary');
    await page.waitForSelector('[data-snippet="element"]');
    untouched = await untouchedOf(page);
    await page.closeAll();
  }
  const { element, permalink, state } = untouched;

  const site = await serveSite({ 'pasted.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>pasted</title></head><body>\n${element}\n</body></html>` });
  try {
    const course = await openUrl(h, `${site.url}pasted.html`, { waitForResult: false });
    const detail = await course.evaluate(() => new Promise((resolve) => {
      const el = document.querySelector('attention-playground');
      if (el.result) resolve(el.result);
      else el.addEventListener('result', (e) => resolve(e.detail), { once: true });
    }));
    for (const [key, value] of Object.entries(state)) assert.equal(detail.state[key], value, key);
    assert.equal(await course.locator('attention-playground .heat-small').count(), 3);
    assert.deepEqual(course.problems, []);
    await course.closeAll();
  } finally {
    await site.close();
  }

  // The permalink opens the same view on the full page: its form, read as soon as it is there (the run of
  // every panel is not waited for unless a screenshot of it is saved).
  const again = await openUrl(h, permalink, { waitForResult: SAVE_SCREENSHOTS });
  assert.equal(await again.inputValue('[name="d_model"]'), '48');
  assert.equal(await again.inputValue('select[name="mask"]'), 'causal');
  await screenshot(again, 'permalink');
  await again.closeAll();
});

/** What a playground shows: its state, panels, chapter list and title, exercises' ids, the form's fields (value, disabled). */
const PLAYGROUND_VIEW = (el) => {
  const root = el.shadowRoot;
  const visible = (x) => !!x && x.getClientRects().length > 0;
  const fields = {};
  for (const box of root.querySelectorAll('#controls [data-field]')) {
    if (!visible(box)) continue;
    const input = box.querySelector('input, select, textarea');
    if (input) fields[box.dataset.field] = { value: input.value, disabled: input.disabled };
  }
  return {
    panels: [...root.querySelectorAll('section[data-panel]')].filter((x) => !x.hidden).map((x) => x.dataset.panel),
    folds: [...root.querySelectorAll('.panel-fold')].filter((f) => !f.hidden).map((f) => f.dataset.fold),
    list: visible(root.querySelector('nav.chapters')),
    title: visible(root.getElementById('chapter-title')) ? root.getElementById('chapter-title').textContent : null,
    exercises: [...root.querySelectorAll('[data-exercise]')].map((c) => c.dataset.exercise).filter((id, i, all) => all.indexOf(id) === i),
    fields,
  };
};

test('in a chapter: the builder starts from what is shown, and its snippets reproduce the chapter, exercises, locks and hides', async () => {
  const page = await openPage(h, '#chapter=cost&d_model=128&mask=causal', { asIs: true, waitForResult: false });
  await page.waitForFunction(() => playgroundRoot()?.querySelector('.ap')?.dataset.settled === '1' && playgroundRoot().querySelector('[data-exercise]'), null, { timeout: 60000, polling: POLL_MS });
  await page.click('#share-builder summary');
  await page.waitForSelector('[data-snippet="element"]');
  const pageView = await page.evaluate((body) => new Function('el', body)(document.getElementById('playground')), `return (${PLAYGROUND_VIEW})(el);`);
  const pageState = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  // What is shown: the chapter named, its panels ticked (the exercises are listed one by one), its exercises with ids.
  assert.match(await page.textContent('[data-share-where]'), /Chapter: What attention costs chapter=cost/);
  const boxes = await page.$$eval('[name="share-panel"]', (all) => all.map((b) => [b.value, b.checked]));
  assert.deepEqual(boxes, [...pageView.panels, ...pageView.folds].filter((n) => n !== 'exercises').sort((a, b) => boxes.findIndex(([v]) => v === a) - boxes.findIndex(([v]) => v === b)).map((n) => [n, true]));
  assert.deepEqual(await page.$$eval('.share-exercises .exercise-id', (all) => all.map((c) => c.textContent)), idsOfChapter('cost'), 'every exercise of the chapter, by id');
  // Its prompt, as the learner's card says it (the builder shows the id the card does not).
  const first = idsOfChapter('cost')[0];
  await page.waitForFunction((id) => !document.querySelector(`[data-prompt="${id}"]`).textContent.startsWith('('), first);
  const prompt = await page.textContent(`[data-prompt="${first}"]`);
  assert.ok(prompt.length > 20, prompt);
  assert.ok(await page.evaluate(([id, p]) => playgroundRoot().querySelector(`[data-exercise="${id}"]`).textContent.includes(p), [first, prompt]), `the card of ${first} says ${prompt}`);
  // Untouched, the snippets are this chapter's view, not the reference page.
  const untouched = await page.inputValue('[data-snippet="element"]');
  assert.match(untouched, /<attention-playground d_model="128" mask="causal" heads="previous,same_word,first_token" chapter="cost"><\/attention-playground>$/);
  assert.doesNotMatch(await page.inputValue('[data-snippet="iframe"]'), /reference|panels=/);
  // Link to this view: the page exactly (the same state, opened again).
  const permalink = await page.inputValue('[data-snippet="permalink"]');
  assert.match(permalink, /#d_model=128&mask=causal&heads=previous,same_word,first_token&chapter=cost$/);

  // The author's choices: two exercises, one panel less, lock d_model and n_heads, hide bias, no chapter list, a label, dark.
  await page.uncheck('[name="share-panel"][value="performance"]');
  // (Only the shown step's exercises start ticked: cost.dominant sits at a later step, so the author ticks it.)
  for (const id of idsOfChapter('cost')) {
    if (['cost.params-bias', 'cost.dominant'].includes(id)) await page.check(`[name="share-exercise"][value="${id}"]`);
    else await page.uncheck(`[name="share-exercise"][value="${id}"]`);
  }
  await page.check('[name="share-lock"][value="d_model"]');
  await page.check('[name="share-lock"][value="n_heads"]');
  await page.check('[name="share-hide"][value="bias"]');
  await page.check('[name="share-nav"]');
  await page.fill('[name="share-label"]', 'Cost lab');
  await page.selectOption('[name="share-theme"]', 'dark');
  const element = await page.inputValue('[data-snippet="element"]');
  assert.match(element, /chapter="cost" nav="none" lock="d_model,n_heads" hide="bias" label="Cost lab" exercises="cost.params-bias,cost.dominant"/);
  // The panels the first step shows or folds (boxes, above), less the performance panel.
  const kept = boxes.map(([n]) => n).filter((n) => n !== 'performance');
  const panelsWritten = /panels="([^"]+)"/.exec(element)?.[1].split(',') ?? [];
  assert.deepEqual([...panelsWritten].sort(), [...kept, 'exercises'].sort(), `panels= of ${element}`);
  const scorm = await page.inputValue('[data-snippet="scorm"]');
  assert.equal(scorm, "npm run scorm -- --chapter cost --exercises cost.params-bias,cost.dominant --lock d_model,n_heads --hide bias --label 'Cost lab' --theme dark");
  assert.match(await page.textContent('[data-scorm-note]'), /does not carry d_model, mask, panels, nav/);
  const iframe = await page.inputValue('[data-snippet="iframe"]');
  const frameSrc = /src="([^"]+)"/.exec(iframe)[1].replaceAll('&amp;', '&');
  // The preview shows exactly that.
  const preview = page.locator('#share-builder .share-preview-box');
  await page.waitForFunction(() => document.querySelector('#share-builder .share-preview-box').shadowRoot?.querySelector('.ap')?.dataset.settled === '1'
    && !document.querySelector('#share-builder .share-preview-box').shadowRoot.querySelector('section[data-panel="performance"]:not([hidden])'));
  const previewView = await preview.evaluate((box, body) => new Function('el', body)(box), `return (${PLAYGROUND_VIEW})(el);`);
  await screenshot(page, 'share-builder-chapter', { fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.evaluate(() => document.querySelector('[data-share-where]').scrollIntoView({ block: 'start' }));
  await screenshot(page, 'share-builder-375');
  assert.deepEqual(page.problems, []);
  await page.closeAll();

  const expected = { panels: [...kept, 'exercises'].sort(), list: false, title: CHAPTERS.find((c) => c.name === 'cost').title,
    exercises: ['cost.params-bias', 'cost.dominant'] };
  const check = (view, where) => {
    assert.deepEqual([...view.panels].sort(), [...expected.panels].sort(), `${where}: panels`);
    assert.deepEqual(view.folds, [], `${where}: every chosen panel expanded`);
    assert.deepEqual([view.list, view.title], [expected.list, expected.title], `${where}: no chapter list, the chapter's title`);
    assert.deepEqual(view.fields.d_model, { value: '128', disabled: true }, `${where}: d_model locked`);
    assert.deepEqual(view.fields.n_heads, { value: '4', disabled: true }, `${where}: n_heads locked`);
    assert.equal(view.fields.bias, undefined, `${where}: bias hidden`);
    assert.deepEqual(view.fields.d_k?.disabled, false, `${where}: the step's other fields as they were`);
  };
  check(previewView, 'preview');

  // Pasted on another origin: the element shows the same view, state for state.
  const site = await serveSite({ 'pasted.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>pasted</title></head><body><main>\n${element}\n</main></body></html>` });
  try {
    const course = await openUrl(h, `${site.url}pasted.html`, { waitForResult: false });
    await course.waitForFunction(() => document.querySelector('attention-playground')?.shadowRoot?.querySelector('.ap')?.dataset.settled === '1'
      && document.querySelector('attention-playground').shadowRoot.querySelector('[data-exercise]'), null, { timeout: 60000, polling: POLL_MS });
    const el = await course.evaluate((body) => {
      const lab = document.querySelector('attention-playground');
      return { state: lab.state, view: new Function('el', body)(lab), exercises: lab.exercises.map((e) => e.id) };
    }, `return (${PLAYGROUND_VIEW})(el);`);
    check(el.view, 'element');
    assert.deepEqual(el.exercises, expected.exercises);
    for (const [key, value] of Object.entries({ ...pageState, heads: 'previous,same_word,first_token', chapter: 'cost', lock: 'd_model,n_heads', hide: 'bias', nav: 'none', label: 'Cost lab', theme: 'dark' })) {
      assert.equal(el.state[key], value, `element: ${key}`);
    }
    assert.deepEqual(course.problems, []);
    await course.closeAll();
  } finally {
    await site.close();
  }
  // The iframe's page: the same view.
  const frame = await openUrl(h, frameSrc, { waitForResult: false });
  await frame.waitForFunction(() => playgroundRoot()?.querySelector('.ap')?.dataset.settled === '1' && playgroundRoot().querySelector('[data-exercise]'), null, { timeout: 60000, polling: POLL_MS });
  check(await frame.evaluate((body) => new Function('el', body)(document.getElementById('playground')), `return (${PLAYGROUND_VIEW})(el);`), 'iframe');
  await frame.closeAll();
  // The link: the page as it was, state for state.
  const again = await openUrl(h, permalink, { waitForResult: false });
  await again.waitForFunction(() => playgroundRoot()?.querySelector('.ap')?.dataset.settled === '1' && playgroundRoot().querySelector('[data-exercise]'), null, { timeout: 60000, polling: POLL_MS });
  const reopened = await again.evaluate((body) => new Function('el', body)(document.getElementById('playground')), `return (${PLAYGROUND_VIEW})(el);`);
  assert.deepEqual({ ...reopened, exercises: undefined }, { ...pageView, exercises: undefined });
  await again.closeAll();
});

test('in a step: the snippets keep the chapter’s step, its panels and its exercises', async () => {
  const page = await openPage(h, '#chapter=attention&step=5', { asIs: true, waitForResult: false });
  await page.waitForFunction(() => playgroundRoot()?.querySelector('.ap')?.dataset.settled === '1' && playgroundRoot().querySelector('[data-exercise]'), null, { timeout: 60000, polling: POLL_MS });
  await page.click('#share-builder summary');
  await page.waitForSelector('[data-snippet="element"]');
  const stepOn = (el) => ({ step: el.shadowRoot.querySelector('.step-count')?.textContent, current: el.shadowRoot.querySelector('.step-dot[aria-current="step"]')?.dataset.step });
  const pageView = await page.evaluate((body) => new Function('el', body)(document.getElementById('playground')), `return (${PLAYGROUND_VIEW})(el);`);
  const pageStep = await page.evaluate((body) => new Function('el', body)(document.getElementById('playground')), `return (${stepOn})(el);`);
  assert.equal(pageStep.current, '5');
  assert.match(await page.textContent('[data-share-where]'), new RegExp(`step 5 of ${CHAPTERS.find((c) => c.name === 'attention').steps.length} step=5`));
  const ticked = await page.$$eval('[name="share-exercise"]', (all) => all.filter((b) => b.checked).map((b) => b.value));
  assert.deepEqual(ticked, pageView.exercises, 'the step’s exercises start ticked');
  const element = await page.inputValue('[data-snippet="element"]');
  assert.match(element, /chapter="attention" step="5"/);
  await page.closeAll();

  const site = await serveSite({ 'step.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>step</title></head><body><main>\n${element}\n</main></body></html>` });
  try {
    const course = await openUrl(h, `${site.url}step.html`, { waitForResult: false });
    await course.waitForFunction(() => document.querySelector('attention-playground')?.shadowRoot?.querySelector('.ap')?.dataset.settled === '1'
      && document.querySelector('attention-playground').shadowRoot.querySelector('[data-exercise]'), null, { timeout: 60000, polling: POLL_MS });
    const el = await course.evaluate(([view, step]) => {
      const lab = document.querySelector('attention-playground');
      return { view: new Function('el', view)(lab), step: new Function('el', step)(lab) };
    }, [`return (${PLAYGROUND_VIEW})(el);`, `return (${stepOn})(el);`]);
    assert.deepEqual(el.step, pageStep, 'the same step');
    assert.deepEqual({ ...el.view, fields: Object.keys(el.view.fields) }, { ...pageView, fields: Object.keys(pageView.fields) }, 'the same panels, folds, exercises and fields');
    assert.deepEqual(course.problems, []);
    await course.closeAll();
  } finally {
    await site.close();
  }
});
