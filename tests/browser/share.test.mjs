// "Share or embed this view": the builder writes the permalink and every snippet from the view on the
// page and the chosen panels, theme and read-only flag, shows them live in a preview, and what it writes
// works when pasted: the element snippet on a course page of another origin shows the same view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, openUrl, serveSite, resultReady, screenshot } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const VIEW = '#d_model=48&n_heads=3&source=random&n_q=5&mask=causal&text=it%27s%20%22quoted%22%20%3Cand%3E%20%26';

test('the builder writes every snippet from the view and the choices, and previews it', async () => {
  const page = await openPage(h, VIEW);
  await page.click('#share-builder summary');
  await page.waitForSelector('[data-snippet="element"]');
  for (const box of await page.$$('[name="share-panel"]')) {
    const value = await box.getAttribute('value');
    if (!['heatmaps', 'shapes'].includes(value)) await box.uncheck();
  }
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
  await page.locator('#share-builder').screenshot({ path: `${(await import('./harness.mjs')).screenshotDir}/share-builder.png` });
  // Closing the builder frees the preview's playground.
  await page.click('#share-builder summary');
  await page.waitForFunction(() => !document.querySelector('#share-builder .share-preview-box').shadowRoot.querySelector('.ap'));
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('what the builder writes works when pasted: the element on another origin shows the same view', async () => {
  const page = await openPage(h, VIEW);
  await page.click('#share-builder summary');
  await page.waitForSelector('[data-snippet="element"]');
  const element = await page.inputValue('[data-snippet="element"]');
  const permalink = await page.inputValue('[data-snippet="permalink"]');
  const state = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  await page.closeAll();

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

  // The permalink opens the same view on the full page.
  const again = await openUrl(h, permalink);
  assert.equal(await again.inputValue('[name="d_model"]'), '48');
  assert.equal(await again.inputValue('select[name="mask"]'), 'causal');
  await screenshot(again, 'permalink');
  await again.closeAll();
});
