// Predict, then reveal (issue 25) on a course page of another origin, in one page load (plus one reload):
// an <attention-playground> answered by the learner's input (each kind: a number, a shape, a choice, a
// cell picked with the keyboard) and by answer(); its attempt and progress events; the `exercises`
// attribute (a list, none, the chapter's); the stepper that shows one exercise at a time (its marks, previous/next,
// answer() reaching an exercise not shown); progress kept over a reload and cleared by clearProgress();
// and a framed page posting attempt and progress messages to the course page's origin. Then the notebook
// widget's progress trait, and answer() on the page's own thread (no worker) with the panel not shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, serveSite, openUrl, notebookPage } from './harness.mjs';

let h, course;

/** The notebook cell: the widget with a stand-in anywidget model that declares `progress` (harness.mjs's notebookPage). */
const notebook = (a) => notebookPage(a, { exercises: 'heads.d_k', d_model: 48, n_heads: 3, progress: {} });

const LIST = 'attention.causal-row,cost.attention-shape,cost.dominant,attention.strongest-key';

const coursePage = (a) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="data:,">
<script type="module" src="${a}attention-playground.js"></script>
<style>iframe { width: 100%; height: 700px; border: 0; }</style>
</head><body>
<attention-playground id="ex1" exercises="${LIST}" heads="previous,same_word,first_token,"></attention-playground>
<iframe id="frame" title="playground" src="${a}index.html#embed=1&chapter=cost&heads=previous,same_word,first_token,"></iframe>
<script>
  window.events = [];
  for (const type of ['attempt', 'progress']) document.addEventListener(type, (e) => window.events.push({ type, detail: e.detail }));
  window.messages = [];
  addEventListener('message', (e) => { if (String(e.data?.type).startsWith('attention-playground:') && e.data.type !== 'attention-playground:size') window.messages.push({ origin: e.origin, data: e.data }); });
</script>
</body></html>`;

before(async () => {
  h = await startHarness();
  const thread = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No worker</title><link rel="icon" href="data:,">
<script type="module" src="${h.url}attention-playground.js"></script></head>
<body><attention-playground id="t" panels="heatmaps" exercises="cost.params-bias,attention.strongest-key" heads="previous"></attention-playground></body></html>`;
  course = await serveSite({ 'course.html': coursePage(h.url), 'notebook.html': notebook(h.url), 'thread.html': thread });
});
after(async () => { await course?.close(); await h?.close(); });

const card = (id) => `#ex1 [data-exercise="${id}"]`;

/** The stepper shows one card at a time: its mark for `id` brings that exercise's card up. */
async function show(page, id) {
  await page.click(`#ex1 [data-mark="${id}"]`);
  await page.locator(card(id)).waitFor();
}

/** What the stepper says: its line, the marks' [id, status, current], and the ids of the cards visible. */
const stepper = (page) => page.evaluate(() => {
  const root = document.querySelector('#ex1').shadowRoot;
  return {
    where: root.querySelector('#ex-where').textContent,
    marks: [...root.querySelectorAll('.ex-marks button')].map((b) => [b.dataset.mark, b.dataset.status, b.getAttribute('aria-current') === 'step']),
    visible: [...root.querySelectorAll('.exercise')].filter((c) => c.checkVisibility()).map((c) => c.dataset.exercise),
  };
});

/** Submits the learner's input of a card and waits for its verdict (the live region). */
async function check(page, id) {
  const before = await page.locator(`${card(id)} .ex-verdict`).textContent();
  await page.click(`${card(id)} button[type="submit"]`);
  await page.waitForFunction(([sel, was]) => {
    const text = document.querySelector('#ex1').shadowRoot.querySelector(sel)?.textContent ?? '';
    return text !== was && !text.startsWith('Asking');
  }, [`[data-exercise="${id}"] .ex-verdict`, before]);
  return page.locator(`${card(id)} .ex-verdict`).textContent();
}

const attempts = (page) => page.evaluate(() => window.events.filter((e) => e.type === 'attempt').map((e) => e.detail));
const lastProgress = (page) => page.evaluate(() => window.events.filter((e) => e.type === 'progress').at(-1)?.detail);

test('exercises: the learner\'s input and answer() for each kind, the events, the attribute, progress over a reload, and a framed page\'s messages', async () => {
  const page = await openUrl(h, `${course.url}course.html`, { waitForResult: false });
  page.setDefaultTimeout(60000); // the machine may be busy: every wait below is for an engine reply or a redraw
  await page.locator(card('attention.causal-row')).waitFor();
  await page.evaluate(() => localStorage.clear()); // a run before this one must not count
  await page.evaluate(() => document.querySelector('#ex1').clearProgress());

  // The property: the listed exercises, in the attribute's order, with prompts of the live layer.
  const listed = await page.evaluate(() => document.querySelector('#ex1').exercises);
  assert.deepEqual(listed.map((e) => [e.id, e.kind]), [['attention.causal-row', 'number'], ['cost.attention-shape', 'shape'], ['cost.dominant', 'choice'], ['attention.strongest-key', 'cell']]);
  assert.match(listed[0].prompt, /causal mask on this layer \(10 queries, 10 keys\).*“on” \(3\)/);
  assert.deepEqual(Object.keys(listed[0]).sort(), ['chapter', 'id', 'kind', 'prompt']);
  // The stepper: the first exercise alone, every exercise marked unanswered, the line announced politely.
  assert.deepEqual(await stepper(page), { where: 'Exercise 1 of 4', visible: ['attention.causal-row'], marks: [
    ['attention.causal-row', 'unanswered', true], ['cost.attention-shape', 'unanswered', false], ['cost.dominant', 'unanswered', false], ['attention.strongest-key', 'unanswered', false]] });
  assert.equal(await page.locator('#ex1 #ex-where').getAttribute('aria-live'), 'polite');
  assert.equal(await page.locator('#ex1 #ex-prev').getAttribute('aria-disabled'), 'true', 'nothing before the first');
  // Next and previous with the keyboard: focus stays on the button pressed.
  await page.focus('#ex1 #ex-next');
  await page.keyboard.press('Enter');
  assert.deepEqual((await stepper(page)).visible, ['cost.attention-shape']);
  assert.equal(await page.locator('#ex1 #ex-where').textContent(), 'Exercise 2 of 4');
  assert.equal(await page.evaluate(() => document.querySelector('#ex1').shadowRoot.activeElement?.id), 'ex-next');
  await page.click('#ex1 #ex-prev');
  assert.deepEqual((await stepper(page)).visible, ['attention.causal-row']);

  // A number, typed: wrong, then right (attempts counted); a typo is refused and not counted.
  await page.fill(`${card('attention.causal-row')} input[name="answer"]`, 'four');
  assert.match(await check(page, 'attention.causal-row'), /Not checked: attention\.causal-row expects a number, got “four”/);
  await page.fill(`${card('attention.causal-row')} input[name="answer"]`, '3');
  assert.match(await check(page, 'attention.causal-row'), /^Not quite\. The engine’s answer: 4\. A causal mask lets query 3 see keys 0…3.*Usual mistakes/);
  await page.fill(`${card('attention.causal-row')} input[name="answer"]`, '4');
  assert.match(await check(page, 'attention.causal-row'), /^Right\./);
  assert.equal(await page.locator(`${card('attention.causal-row')} .ex-verdict`).getAttribute('aria-live'), 'polite');
  assert.match(await page.locator(`${card('attention.causal-row')} .ex-attempts`).textContent(), /2 attempts · solved/);
  // A shape with x separators, and a choice by its radio button.
  await show(page, 'cost.attention-shape');
  await page.fill(`${card('cost.attention-shape')} input[name="answer"]`, '1x4x10x10');
  assert.match(await check(page, 'cost.attention-shape'), /^Right\. The engine’s answer: 1×4×10×10/);
  await show(page, 'cost.dominant');
  await page.check(`${card('cost.dominant')} input[value="projections"]`);
  assert.match(await check(page, 'cost.dominant'), /^Right\..*n = 10 < d = 64/);
  // A cell, with the keyboard only: the asked row's first key has focus, → moves to key 1 ("cat"), Enter picks it.
  await show(page, 'attention.strongest-key');
  assert.equal(await page.evaluate(() => document.querySelector('#ex1').shadowRoot.activeElement?.id), 'ex-attention-strongest-key', 'a mark moves focus to its exercise\'s prompt');
  await page.focus(`${card('attention.strongest-key')} tr.asked button[data-key="0"]`);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator(`${card('attention.strongest-key')} button[data-key="1"]`).getAttribute('aria-pressed'), 'true');
  assert.equal(await page.inputValue(`${card('attention.strongest-key')} input[name="cell"]`), '1');
  assert.match(await check(page, 'attention.strongest-key'), /^Right\. The engine’s answer: 1\..*“cat” \(1\)/);
  assert.equal(await page.locator(`${card('attention.strongest-key')} td.expected`).getAttribute('data-key'), '1', 'the reveal marks the core\'s cell');

  let seen = await attempts(page);
  assert.deepEqual(seen.map((a) => [a.id, a.chapter, a.correct, a.answer, a.attempts]), [
    ['attention.causal-row', 'attention', false, 3, 1], ['attention.causal-row', 'attention', true, 4, 2],
    ['cost.attention-shape', 'cost', true, [1, 4, 10, 10], 1], ['cost.dominant', 'cost', true, 'projections', 1], ['attention.strongest-key', 'attention', true, 1, 1]]);
  assert.deepEqual(seen[1].expected, 4);
  assert.deepEqual(await lastProgress(page), { chapter: 'attention', done: 4, total: 4, score: 1 });
  assert.deepEqual((await stepper(page)).marks.map(([id, status]) => [id, status]), [
    ['attention.causal-row', 'right'], ['cost.attention-shape', 'right'], ['cost.dominant', 'right'], ['attention.strongest-key', 'right']]);

  // answer(): the same path, with the same events; a bad id or value rejects with its message.
  const api = await page.evaluate(async () => {
    const el = document.querySelector('#ex1');
    const out = [await el.answer('cost.dominant', 'attention'), await el.answer('cost.attention-shape', [1, 4, 10, 10]),
      await el.answer('attention.strongest-key', '2,1'), await el.answer('attention.causal-row', 4.0)];
    const errors = [];
    for (const [id, v] of [['nope.x', 1], ['cost.attention-shape', '4 by 10'], ['attention.strongest-key', '0,1']]) {
      try { await el.answer(id, v); errors.push('accepted'); } catch (err) { errors.push(err.message); }
    }
    return { out: out.map(({ correct, expected, explanation }) => ({ correct, expected, explained: /Usual mistake/.test(explanation) })), errors };
  });
  assert.deepEqual(api.out, [{ correct: false, expected: 'projections', explained: true }, { correct: true, expected: [1, 4, 10, 10], explained: true },
    { correct: true, expected: 1, explained: true }, { correct: true, expected: 4, explained: true }]);
  assert.match(api.errors[0], /“nope\.x” is not an exercise/);
  assert.match(api.errors[1], /expects a shape such as 2×4×8×8/);
  assert.match(api.errors[2], /asks about query row 2; the cell given is in row 0/);
  seen = await attempts(page);
  assert.equal(seen.length, 9, 'four answers by answer(), none for the refused ones');
  assert.deepEqual(seen.at(-4), { id: 'cost.dominant', chapter: 'cost', correct: false, answer: 'attention', expected: 'projections', attempts: 2 });
  // The panel shows the API's answer too (one path), for an exercise the stepper does not show as well.
  assert.deepEqual((await stepper(page)).visible, ['attention.strongest-key']);
  await show(page, 'cost.dominant');
  await page.locator(`${card('cost.dominant')} .ex-verdict`, { hasText: 'Not quite' }).waitFor();

  // The attribute: none, then the chapter's own (attention), each with a progress event.
  await page.evaluate(() => document.querySelector('#ex1').setAttribute('exercises', 'none'));
  await page.waitForFunction(() => document.querySelector('#ex1').exercises.length === 0);
  await page.locator('#ex1 #ex-summary', { hasText: 'No exercises here' }).waitFor();
  assert.deepEqual(await lastProgress(page), { chapter: 'attention', done: 0, total: 0, score: 0 });
  await page.evaluate(() => document.querySelector('#ex1').setAttribute('exercises', ''));
  await page.waitForFunction(() => document.querySelector('#ex1').exercises.length === 10);
  const chapterIds = await page.evaluate(() => document.querySelector('#ex1').exercises.map((e) => e.id));
  assert.deepEqual(chapterIds, ['attention.causal-row', 'attention.strongest-key', 'attention.uniform', 'attention.cross-qkv', 'attention.weights-shape', 'attention.single-head-shape',
    'attention.sketch-same-word', 'attention.design-last', 'attention.design-first', 'attention.design-even']);
  await page.waitForFunction(() => window.events.filter((e) => e.type === 'progress').at(-1)?.detail.total === 10);
  assert.deepEqual(await lastProgress(page), { chapter: 'attention', done: 2, total: 10, score: 0.2 });

  // The framed page (the playground's origin) posts attempt and progress to this page's origin.
  const frame = page.frameLocator('#frame');
  await frame.locator('[data-mark="cost.params-bias"]').click(); // the second of the chapter's exercises
  await frame.locator('[data-exercise="cost.params-bias"] input[name="answer"]').waitFor();
  await frame.locator('[data-exercise="cost.params-bias"] input[name="answer"]').fill('66,048');
  await frame.locator('[data-exercise="cost.params-bias"] button[type="submit"]').click();
  await page.waitForFunction(() => window.messages.some((m) => m.data.type === 'attention-playground:attempt'), null);
  const messages = await page.evaluate(() => window.messages);
  const attempt = messages.find((m) => m.data.type === 'attention-playground:attempt');
  assert.equal(attempt.origin, new URL(h.url).origin);
  assert.deepEqual(attempt.data, { type: 'attention-playground:attempt', id: 'cost.params-bias', chapter: 'cost', correct: true, answer: 66048, expected: 66048, attempts: 1 });
  const progress = messages.filter((m) => m.data.type === 'attention-playground:progress');
  assert.deepEqual(progress[0].data, { type: 'attention-playground:progress', chapter: 'cost', done: 0, total: 9, score: 0 }, 'on start');
  assert.deepEqual(progress.at(-1).data, { type: 'attention-playground:progress', chapter: 'cost', done: 1, total: 9, score: 0.1111 });

  // A reload keeps the element's progress (localStorage, per page and element id); clearProgress() forgets it.
  await page.reload();
  await page.locator(card('attention.causal-row')).waitFor();
  await page.waitForFunction(() => window.events.some((e) => e.type === 'progress'));
  assert.deepEqual(await lastProgress(page), { chapter: 'attention', done: 4, total: 4, score: 1 });
  assert.match(await page.locator(`${card('attention.causal-row')} .ex-attempts`).textContent(), /3 attempts · solved/);
  const keys = await page.evaluate(() => Object.keys(localStorage));
  assert.deepEqual(keys, ['attention-playground:exercises:/course.html#ex1']);
  await page.evaluate(() => document.querySelector('#ex1').clearProgress());
  assert.deepEqual(await lastProgress(page), { chapter: 'attention', done: 0, total: 4, score: 0 });
  assert.deepEqual(await page.evaluate(() => Object.keys(localStorage)), []);
  assert.equal(await page.locator(`${card('attention.causal-row')} .ex-attempts`).textContent(), '');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('the notebook widget syncs the progress trait it declares', async () => {
  const page = await openUrl(h, `${course.url}notebook.html`, { waitForResult: false });
  page.setDefaultTimeout(60000);
  await page.waitForFunction(() => window.model.get('progress')?.total === 1, null);
  assert.deepEqual(await page.evaluate(() => window.model.get('progress')), { chapter: 'attention', done: 0, total: 1, score: 0 });
  await page.locator('#cell [data-exercise="heads.d_k"] input[name="answer"]').fill('32');
  await page.locator('#cell [data-exercise="heads.d_k"] button[type="submit"]').click();
  await page.waitForFunction(() => window.model.get('progress').done === 1, null);
  assert.deepEqual(await page.evaluate(() => window.model.saved.at(-1).progress), { chapter: 'attention', done: 1, total: 1, score: 1 });
  assert.deepEqual(await page.evaluate(() => Object.keys(localStorage)), [], 'the widget keeps nothing in localStorage');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('without a worker, and without the exercises panel shown, answer() still gets the core\'s answers (on the page\'s thread)', async () => {
  const page = await openUrl(h, `${course.url}thread.html`, { waitForResult: false, init: () => { delete window.Worker; } });
  page.setDefaultTimeout(60000);
  await page.waitForFunction(() => document.querySelector('#t')?.result, null);
  const out = await page.evaluate(async () => {
    const el = document.querySelector('#t');
    return [await el.answer('cost.params-bias', '66 048'), await el.answer('attention.strongest-key', 0)].map(({ correct, expected }) => ({ correct, expected }));
  });
  assert.deepEqual(out, [{ correct: true, expected: 66048 }, { correct: false, expected: 1 }]);
  assert.equal(await page.locator('#t [data-panel="exercises"]').isHidden(), true, 'panels= leaves the exercises out');
  assert.match(await page.locator('#t #engine-badge').textContent(), /on this page’s thread/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
