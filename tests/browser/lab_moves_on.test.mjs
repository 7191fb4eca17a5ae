// The training lab's model, once handed to the playground ("use in the playground"), is held by the
// worker only as long as the lab stays at those steps: the worker copies the lab's weights, not its
// trainer, so a sample it has not drawn yet (another input_seed) must be trained again from the seed.
// The page used to keep counting that model as held (env.trainingHeld), so after the lab stepped on,
// a new input seed started that training by itself, uncounted (at the lab's largest sizes × 5,000
// steps, an hour of CPU). Now the lab stepping on makes the estimate count the training again: the
// run waits for Run (or is refused) instead of starting by itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, resultReady, pauseLab } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const root = (page, js) => page.evaluate(js);

test('after the lab steps on, a new input seed of the handed-over model counts its training again', async () => {
  // copy_previous at d_model 64, 4 heads, 16 tokens: a hundred steps or more are estimated well above
  // the quarter second a run may start by itself with, when they must be trained again.
  const lab = '#panels=controls,heatmaps,training&train_task=copy_previous&train_d_model=64&train_n_heads=4&train_seq_len=16';
  const page = await openPage(h, lab);
  await page.waitForFunction(() => playgroundRoot().getElementById('train-status')?.dataset.steps === '0', null, { timeout: 30000 });
  await page.click('#train-play');
  await page.waitForFunction(() => Number(playgroundRoot().getElementById('train-status')?.dataset.steps) >= 100, null, { timeout: 120000 });
  const last = await pauseLab(page);
  await page.click('#train-use');
  await page.waitForFunction((n) => location.hash.includes(`train_steps=${n}`), last);
  await resultReady(page, 30000); // the lab's own model: held, it runs by itself

  await page.click('#train-step'); // the lab moves on by one step
  await page.waitForFunction((n) => Number(playgroundRoot().getElementById('train-status')?.dataset.steps) === n + 1, last, { timeout: 30000 });
  await page.fill('input[name="input_seed"]', '7');
  await page.press('input[name="input_seed"]', 'Tab');
  await page.waitForTimeout(2500); // time for a run to start by itself, as it did
  const status = await root(page, () => playgroundRoot().getElementById('status')?.textContent ?? '');
  const blocked = await root(page, () => playgroundRoot().getElementById('blocked')?.textContent ?? '');
  assert.ok(/Press Run \(estimated/.test(status) || /Too slow to run here/.test(blocked),
    `the ${last} training steps were not counted: status "${status}", blocked "${blocked}"`);
  assert.doesNotMatch(status, /Running|training step/, 'the training started by itself');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
