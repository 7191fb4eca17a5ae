// How many forward passes of its layer a head comparison costs, measured: layer.compareHeads runs the whole
// layer once, then once per head switched off (cpp/core/head_metrics.cpp), and engine/call_costs.js's
// compareHeadsPasses says so to the Compare panel's estimate and to the compare request's deadline. Here its
// time is set against the time of one forward pass on the same layer and input (the same path: weights on,
// a head mask), in CPU time, the median of interleaved trials, for two head counts; a core or engine change
// that runs the layer more often (a pass more per comparison, or per head) than compareHeadsPasses says fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { compareHeadsPasses } from '../../web/src/engine/call_costs.js';

const { simd: attn } = modules;
const D_MODEL = 256, N = 96, TRIALS = 9, FORWARDS = 3;

/** CPU time (ms) of fn(), user and system, this process only (other processes on a shared machine do not count). */
function cpuMs(fn) {
  const t0 = process.cpuUsage();
  fn();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Passes a comparison costs on a layer of `n_heads` heads: its time over one forward pass's, median of TRIALS. */
function measuredPasses(n_heads) {
  const layer = new attn.MultiHeadAttention({ d_model: D_MODEL, n_heads, seed: 7 });
  try {
    const query = attn.randomNormal({ shape: [N, D_MODEL], seed: 3 });
    const pass = { query, batch: 1, n_q: N, need_weights: true, head_mask: Array(n_heads).fill(1) };
    const compare = { query, batch: 1, n_q: N };
    layer.forward(pass); // compiled and warm before any timing
    layer.compareHeads(compare);
    const ratios = [];
    for (let t = 0; t < TRIALS; t++) {
      const forward = cpuMs(() => { for (let k = 0; k < FORWARDS; k++) layer.forward(pass); }) / FORWARDS;
      const comparison = cpuMs(() => layer.compareHeads(compare));
      ratios.push(comparison / forward);
    }
    return { passes: median(ratios), ratios };
  } finally {
    layer.delete();
  }
}

test('a head comparison costs compareHeadsPasses forward passes (n_heads + 1), measured against one pass', () => {
  for (const n_heads of [2, 4]) {
    const expected = compareHeadsPasses({ n_heads });
    const { passes, ratios } = measuredPasses(n_heads);
    console.log(`n_heads ${n_heads}: ${passes.toFixed(2)} passes measured (trials ${ratios.map((r) => r.toFixed(2)).join(', ')}), ${expected} expected`);
    // 15 %: the trials' spread under load; one pass more is a third (n_heads 2) or a fifth (4) more.
    assert.ok(Math.abs(passes - expected) <= 0.15 * expected,
      `a comparison of ${n_heads} heads took ${passes.toFixed(2)} forward passes, compareHeadsPasses says ${expected}`);
  }
});
