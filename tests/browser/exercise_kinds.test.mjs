// Issue 36's sketch, design and step kinds on the page. The sketch: drawn with the keyboard (arrows choose a bar and set its height) and
// with the mouse (a drag across the bars), graded by the engine, its row drawn over the learner's after
// Check; answer(id, weights) on an element takes the array. The design: q = (a, b) set with the arrow keys
// or typed, graded by the engine, the row it gives drawn. Screenshots at 1280 and 375 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, chapterDrawn, screenshot, serveSite, openUrl, exerciseHash, showExercise, POLL_MS } from './harness.mjs';
import { stepOfExercise } from './exercise_steps.mjs';

let h, site;
before(async () => { h = await startHarness(); site = await serveSite({ 'empty.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="data:,"></head><body></body></html>' }); });
after(async () => { await site?.close(); await h?.close(); });

const card = (id) => `[data-exercise="${id}"]`;

/** Shows exercise `id`'s card on its step: the exercises panel is built once scrolled to, and a step with several exercises shows one (its mark picks it). */
const showCard = (page, id) => page.waitForFunction((id) => {
  const root = playgroundRoot();
  root.querySelector('section[data-panel="exercises"]')?.scrollIntoView();
  const c = root.querySelector(`[data-exercise="${id}"]`);
  if (c?.hidden) root.querySelector(`[data-mark="${id}"]`)?.click();
  return c && !c.hidden;
}, id, { timeout: 60000, polling: POLL_MS });

/** The chapter's page with exercise `id`'s card shown. */
async function showSketch(chapter, id, width) {
  const page = await openPage(h, exerciseHash(chapter, id), { asIs: true, waitForResult: false, width, reuse: true });
  await chapterDrawn(page);
  // The exercises panel is built lazily (when scrolled to): wait for the card, then show it.
  await showExercise(page, id);
  await page.locator(`${card(id)} .ex-sketch-bar`).first().waitFor();
  return page;
}

const verdict = (page, id) => page.locator(`${card(id)} .ex-verdict`);
const heights = (page, id) => page.locator(`${card(id)} .ex-sketch-bar`).evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('aria-valuenow'))));

test('sketch by keyboard: ←/→ choose a bar, ↑/End set it; Check grades it and draws the engine\'s row over it', async () => {
  const id = 'heads.sketch-previous';
  const page = await showSketch('heads', id, 1280);
  await page.locator(`${card(id)} .ex-sketch-bar`).first().focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp'); // a little weight on “own” itself: still within 0.3
  assert.deepEqual(await heights(page, id), [0, 0, 0, 1, 0.1, 0, 0, 0, 0]);
  assert.equal(await page.evaluate(() => playgroundRoot().activeElement?.dataset.key), '4', 'focus follows the arrows');
  await page.locator(card(id)).scrollIntoViewIfNeeded();
  await screenshot(page, 'exercise-sketch-1280-before');
  await page.click(`${card(id)} button[type="submit"]`);
  await verdict(page, id).locator('strong').waitFor();
  assert.match(await verdict(page, id).textContent(), /^Right\. The engine’s answer: 0\.00, 0\.00, 0\.00, (0\.99|1\.00)/);
  const marks = await page.locator(`${card(id)} .ex-sketch-mark:not([hidden])`).count();
  assert.equal(marks, 9, 'the engine\'s row is drawn over the bars');
  await page.locator(card(id)).scrollIntoViewIfNeeded();
  await screenshot(page, 'exercise-sketch-1280-after');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('sketch by mouse at 375 px: a drag draws the bars; a flat row is wrong', async () => {
  const id = 'attention.sketch-same-word';
  const page = await showSketch('attention', id, 375);
  const plot = page.locator(`${card(id)} .ex-sketch-plot`);
  await plot.scrollIntoViewIfNeeded();
  const box = await plot.boundingBox();
  // A drag along the top of the chart: every bar full, a flat row.
  await page.mouse.move(box.x + 2, box.y + 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 2, box.y + 2, { steps: 24 });
  await page.mouse.up();
  assert.deepEqual(await heights(page, id), Array(8).fill(1));
  await page.locator(card(id)).scrollIntoViewIfNeeded();
  await screenshot(page, 'exercise-sketch-375-before');
  await page.click(`${card(id)} button[type="submit"]`);
  await verdict(page, id).locator('strong').waitFor();
  assert.match(await verdict(page, id).textContent(), /^Not quite\./);
  await page.locator(card(id)).scrollIntoViewIfNeeded();
  await screenshot(page, 'exercise-sketch-375-after');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  assert.equal(overflow, false, 'no sideways scroll at 375 px');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

for (const width of [375, 1280]) test(`the GQA sketch by keyboard at ${width} px: head 2's row (its query negated over the shared keys); the engine's row outlined over it, with a legend`, async () => {
  const id = 'gqa.sketch-shared-keys';
  const page = await showSketch('gqa', id, width);
  // Head 1's scaled scores are under the bars: 2, −1, 0, 1, −2, 0.5. Negated, the key scored −2 leads, then −1, then 0.
  assert.deepEqual(await page.locator(`${card(id)} .ex-sketch-keys > span`).allTextContents(), ['2', '−1', '0', '1', '−2', '0.5']);
  await page.locator(`${card(id)} .ex-sketch-bar`).first().focus();
  // Enter with nothing drawn: not checked, a message naming the problem (and no id), no attempt.
  await page.keyboard.press('Enter');
  await page.waitForFunction((id) => /^Not checked: the weights are all 0; draw at least one bar\.$/.test(playgroundRoot().querySelector(`[data-exercise="${id}"] .ex-verdict`)?.textContent ?? ''), id);
  assert.equal(await page.evaluate((id) => playgroundRoot().querySelector(`[data-exercise="${id}"]`).innerText.includes(id), id), false, 'no id on the card');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp'); // key 1 (score −1): 0.2 of full
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('End'); // key 4 (score −2): full
  assert.deepEqual(await heights(page, id), [0, 0.2, 0, 0, 1, 0]);
  assert.equal(await page.locator(`${card(id)} .ex-sketch-legend`).isVisible(), false, 'no legend before Check');
  await page.locator(card(id)).scrollIntoViewIfNeeded();
  await screenshot(page, `exercise-sketch-gqa-${width}-before`);
  await page.keyboard.press('Enter');
  await verdict(page, id).locator('strong').waitFor();
  assert.match(await verdict(page, id).textContent(), /^Right\. The engine’s answer: 0\.01, 0\.22, 0\.08, 0\.03, 0\.60, 0\.05/);
  assert.equal(await page.locator(`${card(id)} .ex-sketch-legend`).isVisible(), true, 'the legend says which row is whose');
  // The engine's outlines in the learner's scale: its largest weight (key 4) at the tallest bar's height.
  const marks = await page.locator(`${card(id)} .ex-sketch-mark`).evaluateAll((m) => m.map((e) => e.getBoundingClientRect().height));
  const bar = await page.locator(`${card(id)} .ex-sketch-bar`).first().evaluate((b) => b.getBoundingClientRect().height);
  assert.ok(Math.abs(marks[4] - bar) < 1.5, `the engine's largest weight is drawn full height (${marks[4]} of ${bar})`);
  assert.ok(Math.abs(marks[1] / marks[4] - 0.222 / 0.603) < 0.03, `key 1's outline in proportion (${marks[1]} against ${marks[4]})`);
  await page.locator(card(id)).scrollIntoViewIfNeeded();
  await screenshot(page, `exercise-sketch-gqa-${width}-after`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, `no sideways scroll at ${width} px`);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

for (const width of [1280, 375]) test(`the training sketch at ${width} px: once the lab has trained, its maps are covered while the sketch is asked, and shown after Check`, async () => {
  const id = 'training.sketch-previous';
  const page = await showSketch('training', id, width);
  page.setDefaultTimeout(60000);
  const shown = (sel) => page.evaluate((sel) => playgroundRoot().querySelector(sel)?.checkVisibility() ?? false, sel);
  await page.waitForFunction(() => playgroundRoot().getElementById('train-status')?.dataset.steps === '0');
  assert.equal(await shown('#train-maps'), true, 'the untrained maps are shown (they answer nothing)');
  await page.evaluate(() => playgroundRoot().getElementById('train-step').click());
  await page.waitForFunction(() => playgroundRoot().getElementById('train-status')?.dataset.steps === '1');
  assert.equal(await shown('#train-maps'), false, 'a trained model\'s maps are covered');
  assert.equal(await shown('#train-story'), false, 'and the words about its heads');
  assert.match(await page.evaluate(() => playgroundRoot().getElementById('train-maps-cover').textContent), /shown after you answer the sketch exercise/);
  await page.evaluate(() => playgroundRoot().getElementById('train-maps-cover').scrollIntoView({ block: 'center' }));
  await screenshot(page, `exercise-sketch-training-${width}-lab-covered`);
  // Query pos 5: all on pos 4 (keyboard), then Check by mouse.
  await page.locator(`${card(id)} .ex-sketch-bar`).first().focus();
  for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('End');
  await page.locator(card(id)).scrollIntoViewIfNeeded();
  await screenshot(page, `exercise-sketch-training-${width}-before`);
  await page.click(`${card(id)} button[type="submit"]`);
  await page.waitForFunction((id) => /^Right/.test(playgroundRoot().querySelector(`[data-exercise="${id}"] .ex-verdict`)?.textContent ?? ''), id);
  await page.locator(card(id)).scrollIntoViewIfNeeded();
  await screenshot(page, `exercise-sketch-training-${width}-after`);
  await page.waitForFunction(() => playgroundRoot().getElementById('train-maps')?.checkVisibility());
  assert.equal(await shown('#train-maps-cover'), false, 'the cover is gone once answered');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('answer(id, weights) and answer(id, { a, b }) on an element: the array, any scale; a wrong length is an error naming it', async () => {
  const page = await openUrl(h, `${site.url}empty.html`, { waitForResult: false, reuse: true });
  page.setDefaultTimeout(60000);
  await page.addScriptTag({ type: 'module', content: `import '${h.url}attention-playground.js';` });
  const out = await page.evaluate(async () => {
    await customElements.whenDefined('attention-playground');
    const el = document.createElement('attention-playground');
    el.setAttribute('chapter', 'heads');
    await new Promise((resolve) => { el.addEventListener('result', resolve, { once: true }); document.body.append(el); });
    const kind = el.exercises.find((e) => e.id === 'heads.sketch-previous')?.kind;
    const right = await el.answer('heads.sketch-previous', [0, 0, 0, 5, 0, 0, 0, 0, 0]);
    const design = await el.answer('attention.design-even', { a: 3, b: 0 });
    const wrong = await el.answer('heads.sketch-previous', [1, 1, 1, 1, 1, 1, 1, 1, 1]);
    let error = null;
    try { await el.answer('heads.sketch-previous', [1, 2]); } catch (err) { error = err.message; }
    return { kind, design: design.correct, right: right.correct, wrong: wrong.correct, row: right.expected, error };
  });
  assert.equal(out.right, true);
  assert.equal(out.design, true, 'answer(id, { a, b }) for a design');
  assert.equal(out.wrong, false);
  assert.equal(out.row.length, 9);
  assert.match(out.error, /heads\.sketch-previous expects 9 weights \(one per key\), got 2/);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('design by keyboard and mouse at 1280 and 375 px: the engine grades q = (a, b) and draws the row it gives', async () => {
  for (const width of [1280, 375]) {
    const id = 'attention.design-last';
    const page = await showDesign(id, width);
    const b = page.locator(`${card(id)} input[name="design-b"]`);
    // Keyboard: ↑ steps b up to 3 (not steep enough: 0.88 on the last key).
    await b.focus();
    for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await verdict(page, id).locator('strong').waitFor();
    assert.match(await verdict(page, id).textContent(), /^Not quite\./);
    const bars = await page.locator(`${card(id)} .ex-design-value`).allTextContents();
    assert.equal(bars.length, 6);
    assert.equal(bars[5], '0.88', 'the row of q = (0, 3), as the engine computed it');
    // Mouse: the spinner is small; a click in the field and a typed 4 is what a mouse user does.
    await b.click();
    await b.fill('4');
    await page.click(`${card(id)} button[type="submit"]`);
    await page.waitForFunction((id) => /^Right/.test(playgroundRoot().querySelector(`[data-exercise="${id}"] .ex-verdict`).textContent), id);
    assert.equal((await page.locator(`${card(id)} .ex-design-value`).allTextContents())[5], '0.94');
    // The engine's record is one of several that work (its first): the verdict says so, beside the learner's own.
    assert.match(await verdict(page, id).textContent(), /^Right\. The engine’s answer: \(−4, 4\), one of the settings that do the job/);
    assert.deepEqual(await page.locator(`${card(id)} .ex-sketch-keys > span`).allTextContents(), ['(1, 0)', '(1, 1)', '(1, 2)', '(1, 3)', '(1, 4)', '(1, 5)']);
    await page.locator(card(id)).scrollIntoViewIfNeeded();
    await screenshot(page, `exercise-design-${width}`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, 'no sideways scroll');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  }
});

async function showDesign(id, width) {
  const page = await openPage(h, exerciseHash('attention', id), { asIs: true, waitForResult: false, width, reuse: true });
  await chapterDrawn(page);
  // The exercises panel is built lazily (when scrolled to): wait for the card, then show it.
  await showExercise(page, id);
  await page.locator(`${card(id)} input[name="design-b"]`).waitFor();
  return page;
}

// The step kind: the float64 numbers of its tiny head (q, K, V of the chapter's data), stage by stage.
const stepReference = async () => {
  const { STEP_CASE } = await import('../../web/src/lesson/chapters/attention/step_exercises.js');
  const { q, k, v, stages } = STEP_CASE;
  const scores = k.map((row) => row.reduce((s, x, t) => s + x * q[t], 0));
  const scaled = scores.map((s) => s / Math.sqrt(q.length)), max = Math.max(...scaled);
  const exp = scaled.map((s) => Math.exp(s - max)), sum = exp.reduce((a, b) => a + b, 0), weight = exp.map((e) => e / sum);
  const output = v[0].map((_, x) => weight.reduce((s, w, j) => s + w * v[j][x], 0));
  const ref = { score: scores, scaled, max, exp, sum, weight, output };
  return stages.map((s) => (s.at === undefined ? ref[s.name] : ref[s.name][s.at]));
};

test('step by keyboard and mouse at 1280 and 375 px: each stage asked in turn, "?" where the number goes, more hidden after each success', async () => {
  const answers = await stepReference();
  for (const width of [1280, 375]) {
    const id = 'attention.follow-step';
    const page = await openPage(h, `#chapter=attention&step=${stepOfExercise('attention', id)}`, { asIs: true, waitForResult: false, width, reuse: true });
    page.setDefaultTimeout(60000);
    await chapterDrawn(page);
    await showCard(page, id);
    const input = page.locator(`${card(id)} input[name="answer"]`);
    const asked = () => page.locator(`${card(id)} td.ex-step-asked`).count();
    const left = () => page.locator(`${card(id)} td.ex-step-left`).count();
    await page.locator(`${card(id)} .ex-step-table tr[data-row="scores"]`).waitFor();
    assert.equal(await asked(), 1, 'one "?" cell');
    assert.equal(await left(), 0, 'at the first stage the other keys\' scores are worked');
    await page.locator(card(id)).scrollIntoViewIfNeeded();
    await screenshot(page, `exercise-step-${width}-first`);
    // A wrong answer (keyboard: type, Enter): the hint, the same stage.
    await input.focus();
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await page.waitForFunction((id) => /^Not quite\. Hint:/.test(playgroundRoot().querySelector(`[data-exercise="${id}"] .ex-verdict`).textContent), id);
    assert.doesNotMatch(await verdict(page, id).textContent(), /engine’s answer:/);
    for (const [i, value] of answers.entries()) {
      // Keyboard for the even stages, mouse (a click on Check) for the odd ones.
      await input.fill(String(Number(value.toFixed(4))));
      if (i % 2) await page.click(`${card(id)} button[type="submit"]`);
      else { await input.focus(); await page.keyboard.press('Enter'); }
      await page.waitForFunction(([id, i, n]) => {
        const c = playgroundRoot().querySelector(`[data-exercise="${id}"]`);
        const where = c.querySelector('.ex-step-where').textContent;
        return /^Right\./.test(c.querySelector('.ex-verdict').textContent) && (i + 1 < n ? where.startsWith(`Step ${i + 2} of`) : where.startsWith('All'));
      }, [id, i, answers.length]);
      // After i + 1 right answers the next stage hides i + 1 more of its row (when it is a row).
      if (i === 2) assert.equal(await left(), 3, 'the exponentials: the three other keys are left to work out');
      if (i === 1) await screenshot(page, `exercise-step-${width}-faded`);
    }
    assert.equal(await asked(), 0, 'done: nothing asked');
    // One wrong try, then every stage right: done and right (not at the first try), the mark says so.
    assert.equal(await page.locator(`[data-mark="${id}"]`).getAttribute('data-status'), 'right');
    await page.locator(card(id)).scrollIntoViewIfNeeded();
    await screenshot(page, `exercise-step-${width}-done`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, `no sideways scroll at ${width} px`);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  }
});

test('answer(id, value) on an element walks the step sequence: a stage at a time, `stage` and `next` named', async () => {
  const answers = await stepReference();
  const page = await openUrl(h, `${site.url}empty.html`, { waitForResult: false, reuse: true });
  page.setDefaultTimeout(60000);
  await page.addScriptTag({ type: 'module', content: `import '${h.url}attention-playground.js';` });
  const out = await page.evaluate(async (answers) => {
    await customElements.whenDefined('attention-playground');
    const el = document.createElement('attention-playground');
    const attempts = [];
    el.addEventListener('attempt', (e) => attempts.push(e.detail));
    await new Promise((resolve) => { el.addEventListener('result', resolve, { once: true }); document.body.append(el); });
    const kind = el.exercises.find((e) => e.id === 'attention.follow-step')?.kind;
    const results = [];
    for (const value of answers) results.push(await el.answer('attention.follow-step', value));
    return { kind, results, attempts, progress: el.progress };
  }, answers);
  assert.equal(out.kind, 'step');
  assert.deepEqual(out.results.map((r) => [r.correct, r.stage, r.next]), [[true, 'score', 'scaled'], [true, 'scaled', 'max'], [true, 'max', 'exp'], [true, 'exp', 'sum'],
    [true, 'sum', 'weight'], [true, 'weight', 'output'], [true, 'output', null]]);
  out.results.forEach((r, i) => assert.ok(Math.abs(r.expected - answers[i]) <= 1e-5 * Math.max(1, Math.abs(answers[i])), `stage ${i}: engine ${r.expected}, float64 ${answers[i]}`));
  assert.deepEqual(out.attempts.map((d) => d.stage), ['score', 'scaled', 'max', 'exp', 'sum', 'weight', 'output']);
  assert.deepEqual([out.results.at(-1).first_try, out.results.at(-1).revealed], [true, false]);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
