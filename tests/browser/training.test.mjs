// The training lab and the √d_k gradient lab in the built page (Chromium): training runs in the worker
// step by step until two heads split two_relation; pause, step and reset; the learnt layer goes into the
// playground, whose maps and output equal the JS API's for the same training, also from a link alone
// (trained again from the seed); the gradient lab shows the core's numbers and words that follow them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, resultReady, screenshot, POLL_MS, pauseLab } from './harness.mjs';
import { engine } from './reference.mjs';
import { gradientStory } from '../../web/src/features/gradients/panel.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const status = (page) => page.$eval('#train-status', (el) => ({ steps: Number(el.dataset.steps), accuracy: Number(el.dataset.accuracy),
  focus: JSON.parse(el.dataset.focus ?? '[]'), text: el.textContent }));
const waitSteps = (page, test, timeout = 120000) =>
  page.waitForFunction(`(${test})(Number(playgroundRoot().getElementById('train-status')?.dataset.steps), Number(playgroundRoot().getElementById('train-status')?.dataset.accuracy))`, null, { timeout, polling: POLL_MS });

test('the training lab learns two_relation in the worker: ≥ 99 % held out, one head per relation; pause, step, reset', async () => {
  const page = await openPage(h, '#panels=controls,heatmaps,training');
  await waitSteps(page, '(s) => s === 0');
  assert.match((await status(page)).text, /^Step 0 · /);
  await page.click('#train-play');
  await waitSteps(page, '(s, a) => s >= 150 && a >= 0.99');
  const steps = await pauseLab(page);
  const s = await status(page);
  assert.ok(s.accuracy >= 0.99, s.text);
  assert.equal(s.steps, steps);
  // One head on the previous token, the other on the first, each with ≥ 0.8 of its row weight.
  const prev = s.focus[0].previous > s.focus[1].previous ? 0 : 1;
  assert.ok(s.focus[prev].previous >= 0.8 && s.focus[1 - prev].first >= 0.8, JSON.stringify(s.focus));
  assert.match(await page.textContent('#train-story'), new RegExp(`head ${prev + 1} reads the previous token`));
  // Paused stays paused.
  await page.waitForTimeout(800);
  assert.equal((await status(page)).steps, steps);
  // Curves drawn by uPlot; one map per head, each row a softmax (the 8 rows sum to 8).
  assert.ok(await page.$('#train-curves .uplot canvas'));
  const sums = await page.$$eval('#train-maps canvas', (els) => els.map((c) => Number(c.dataset.sum)));
  assert.equal(sums.length, 2);
  for (const sum of sums) assert.ok(Math.abs(sum - 8) < 1e-4, `row sums ${sum}`);
  await screenshot(page, 'training-lab', { fullPage: true });
  await page.click('#train-step');
  await waitSteps(page, `(s) => s === ${steps + 1}`);
  await page.click('#train-reset');
  await waitSteps(page, '(s) => s === 0');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('the learnt layer goes into the playground: its maps and output are the API’s, and a link trains it again', async () => {
  const page = await openPage(h, '#panels=controls,heatmaps,training&train_seq_len=6&train_seed=3');
  await waitSteps(page, '(s) => s === 0');
  await page.click('#train-play');
  await waitSteps(page, '(s) => s >= 60');
  const steps = await pauseLab(page);
  const labMaps = JSON.parse(await page.$eval('#train-maps', (el) => el.dataset.attention));
  await page.click('#train-use');
  await page.waitForFunction((n) => location.hash.includes(`train_steps=${n}`), steps);
  await resultReady(page);
  const url = page.url();
  assert.match(url, /weights=trained/);
  assert.match(url, /source=task/);
  assert.match(await page.textContent('#trained-note'), new RegExp(`two_relation, ${steps} steps`));

  // The same training through the JS API: same settings, same number of steps, sample 0.
  const attn = await engine();
  const trainer = attn.createTrainer({ task: 'two_relation', d_model: 32, n_heads: 2, seq_len: 6, vocab: 16, batch: 32, seed: 3 });
  for (let done = 0; done < steps;) done += trainer.step(Math.min(100, steps - done)).loss.length;
  const maps = trainer.attentionMaps({ sample: 0 });
  const w = trainer.weights();
  trainer.delete();
  const mha = new attn.MultiHeadAttention({ d_model: 32, n_heads: 2 });
  mha.setWeights({ wq: w.wq, wk: w.wk, wv: w.wv, wo: w.wo, bq: w.bq, bk: w.bk, bv: w.bv, bo: w.bo });
  const r = mha.forward({ query: maps.input, n_q: 6, need_weights: true });
  mha.delete();
  let sum = 0;
  for (const v of r.output) sum += v;
  const shown = async () => page.$eval('#output-summary', (el) => ({ row0: JSON.parse(el.dataset.row0), sum: Number(el.dataset.sum) }));
  const got = await shown();
  got.row0.forEach((v, i) => assert.ok(Math.abs(v - r.output[i]) < 1e-5, `output[${i}]: page ${v}, API ${r.output[i]}`));
  assert.ok(Math.abs(got.sum - sum) < 1e-3, `sum: page ${got.sum}, API ${sum}`);
  for (let i = 0; i < labMaps.length; i++) assert.ok(Math.abs(labMaps[i] - maps.weights[i]) < 1e-6, `lab map ${i}`);
  for (const head of [0, 1]) {
    const row0 = JSON.parse(await page.$eval(`.heat-small[data-head="${head}"]`, (el) => el.dataset.row0));
    row0.forEach((v, j) => assert.ok(Math.abs(v - r.weights[head * 36 + j]) < 1e-5, `head ${head}, key ${j}`));
  }
  assert.equal((await page.$$eval('#panel-heatmaps .heat-main-canvas', (els) => els.length)), 1);
  await screenshot(page, 'training-loaded', { fullPage: true });

  // A link alone: a fresh page trains the same weights again in its worker.
  // It runs by itself when the page estimates the run (training included) under its limit for runs that follow
  // the inputs; on a loaded machine the estimate can pass that limit and the page asks for Run instead.
  const again = await openPage(h, new URL(url).hash, { waitForResult: false });
  await again.waitForFunction(() => /^(Ran in|Press Run)/.test(playgroundRoot().querySelector('.run-status')?.textContent ?? ''), null, { timeout: 60000, polling: POLL_MS });
  if (/^Press Run/.test(await again.evaluate(() => playgroundRoot().querySelector('.run-status').textContent))) await again.click('#run');
  await resultReady(again, 60000);
  const fresh = await again.$eval('#output-summary', (el) => ({ row0: JSON.parse(el.dataset.row0), sum: Number(el.dataset.sum) }));
  assert.deepEqual(fresh.row0, got.row0);
  // The layer is the lab's: another d_model is refused on its field, and the way back is offered.
  await again.fill('input[name="d_model"]', '64');
  await again.waitForFunction(() => /trained weights are for d_model = 32/.test(playgroundRoot().getElementById('m-d_model').textContent));
  await again.click('#use-seeded');
  await resultReady(again);
  assert.doesNotMatch(again.url(), /weights=trained/);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(again.problems, []);
  await page.closeAll();
  await again.closeAll();
});

test('the √d_k gradient lab shows the core’s measurements, and its words follow them', async () => {
  const page = await openPage(h, '#panels=gradients', { waitForResult: false });
  await page.waitForSelector('#grad-story p', { timeout: 60000 });
  const rows = JSON.parse(await page.$eval('#grad-chart', (el) => el.dataset.rows));
  const attn = await engine();
  const want = attn.sqrtDkGradients({ d_k_values: [4, 8, 16, 32, 64, 128, 256, 512, 1024], n_k: 64, samples: 256, seed: 1 });
  assert.deepEqual(rows, want.rows); // the same module and the same draws: the same numbers
  const story = await page.$$eval('#grad-story p', (els) => els.map((p) => p.textContent));
  assert.deepEqual(story, gradientStory(want));
  const fall = want.rows[0].unscaled.score_grad_median / want.rows.at(-1).unscaled.score_grad_median;
  assert.ok(fall > 1000, `the unscaled median falls ${fall}×`);
  assert.match(story[0], /orders of magnitude/);
  assert.match(story[1], /level/);
  assert.ok(await page.$('#grad-chart .uplot canvas'));
  assert.equal(await page.$$eval('#grad-table tbody tr', (els) => els.length), 9);
  await screenshot(page, 'gradients-lab', { fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.closeAll();

  // In the scaling chapter's step the plot answers the step's question: covered (with its words and numbers)
  // until the learner has answered; then the same plot and story, the numbers folded to keep one screen.
  const step = await openPage(h, '#chapter=scaling&step=4', { asIs: true, waitForResult: false });
  const shown = (sel) => step.evaluate((s) => { const el = playgroundRoot().querySelector(s); return !!el && el.getClientRects().length > 0; }, sel);
  await step.waitForFunction(() => playgroundRoot()?.querySelector('#grad-chart')?.dataset.rows, null, { timeout: 60000, polling: POLL_MS });
  assert.equal(await shown('#grad-cover'), true, 'the cover says the plot comes after the answer');
  for (const sel of ['#grad-chart', '#grad-story', '#grad-table']) assert.equal(await shown(sel), false, `${sel} is covered while asked`);
  const visible = await step.evaluate(() => playgroundRoot().querySelector('section[data-panel="gradients"]').innerText);
  assert.doesNotMatch(visible, /orders of magnitude|times smaller|one-hot \(largest/, 'none of the story before the answer');
  await step.evaluate(() => [...playgroundRoot().querySelectorAll('article[data-exercise="scaling.gradient"] button')].find((b) => /Show answer/.test(b.textContent)).click());
  await step.waitForFunction(() => playgroundRoot().querySelector('#grad-chart .uplot canvas')?.getClientRects().length > 0, null, { timeout: 30000, polling: POLL_MS });
  assert.equal(await shown('#grad-cover'), false);
  assert.deepEqual(await step.$$eval('#grad-story p', (els) => els.map((p) => p.textContent)), story);
  assert.equal(await step.evaluate(() => playgroundRoot().querySelector('details.grad-numbers').open), false, 'the numbers folded in the step');
  assert.deepEqual(step.problems, []);
  await step.closeAll();
});
