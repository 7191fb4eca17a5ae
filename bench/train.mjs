// The training lab's figures (issue 13): on two_relation with the lab's defaults (d_model 32,
// seq_len 8, vocab 16, batch 32, lr 0.02, seed 1), how many steps two heads need to reach
// ≥ 99 % on held-out samples, how long a step takes in each wasm module (wall and CPU time:
// the machine may be shared), each head's focus afterwards, and where one head ends up.
// Run: node bench/train.mjs [one-head steps, default 3000]
import { loadAttention } from '../web/src/engine/attention.js';
import { measuringScript } from '../scripts/cli.mjs';

const { args } = measuringScript({ seconds: 1200, usage: 'usage: node bench/train.mjs [one-head steps, default 3000] [--timeout S]' });
const ONE_HEAD_STEPS = Number(args[0] ?? 3000);
const BLOCK = 25; // steps between evaluations, as a page might show them
const EVAL_SAMPLES = 1000;

/** Trains in blocks, timing only the steps; evaluates after each block. */
function run(attn, n_heads, maxSteps, stopAt99) {
  const trainer = attn.createTrainer({ task: 'two_relation', n_heads });
  let wall = 0, cpu = 0, first99 = null, evaluation = null, steps = 0;
  const perStep = [];
  // Two heads: on until 100 steps past the first ≥ 99 % (to see it hold); one head: maxSteps.
  while (steps < maxSteps && !(stopAt99 && first99 && steps >= first99.steps + 100)) {
    const w0 = performance.now(), c0 = process.cpuUsage();
    steps = trainer.step(BLOCK).steps;
    const c = process.cpuUsage(c0), w = performance.now() - w0;
    wall += w;
    cpu += (c.user + c.system) / 1000;
    perStep.push(w / BLOCK);
    evaluation = trainer.evaluate({ samples: EVAL_SAMPLES });
    if (first99 === null && evaluation.accuracy >= 0.99) first99 = { steps, wall, cpu };
  }
  perStep.sort((a, b) => a - b);
  trainer.delete();
  return { steps, first99, evaluation, wall, cpu, medianStepMs: perStep[perStep.length >> 1] };
}

const fmt = (x, d = 3) => x.toFixed(d);
const focusText = (e) => e.focus.map((f, h) => `head ${h}: previous ${fmt(f.previous)}, first ${fmt(f.first)}`).join('; ');

for (const simd of [true, false]) {
  const attn = await (await loadAttention({ simd })).labs(); // the trainers run in the labs module, synchronously
  const two = run(attn, 2, 2000, true);
  console.log(`${attn.isa}, two heads: ≥ 99 % held-out accuracy first at step ${two.first99?.steps ?? 'never'} ` +
    `(${fmt((two.first99?.wall ?? NaN) / 1000, 2)} s wall, ${fmt((two.first99?.cpu ?? NaN) / 1000, 2)} s CPU of training); ` +
    `median ${fmt(two.medianStepMs, 2)} ms per step; after ${two.steps} steps accuracy ${fmt(two.evaluation.accuracy, 4)}, ` +
    focusText(two.evaluation));
  const one = run(attn, 1, ONE_HEAD_STEPS, false);
  console.log(`${attn.isa}, one head: after ${one.steps} steps (${fmt(one.wall / 1000, 1)} s wall, ` +
    `${fmt(one.cpu / 1000, 1)} s CPU) accuracy ${fmt(one.evaluation.accuracy, 4)}, ${focusText(one.evaluation)}; ` +
    `median ${fmt(one.medianStepMs, 2)} ms per step`);
}
