// How many forward passes of its layer a head comparison costs, measured: layer.compareHeads runs the whole
// layer once, then once per head switched off (cpp/core/head_metrics.cpp), and engine/call_costs.js's
// compareHeadsPasses says so to the Compare panel's estimate and to the compare request's deadline. Timed on
// two layers of one width, whose passes cost the same whatever their head count (1 and 16 heads): the
// comparison of 16 heads must cost passes(16) / passes(1) = 8.5 times the comparison of 1 head; a pass more
// per comparison makes it 6×, a pass more per head 11×. Times are CPU times of this process (on a machine
// shared by many, the wall clock counts the others' turns too), trials interleaved, the median ratio.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { compareHeadsPasses } from '../../web/src/engine/call_costs.js';

const { simd: attn } = modules;
// A wide layer over a short sequence: the passes' projections (∝ n·d_model²) dwarf the metrics (∝ n_heads²·n²).
const D_MODEL = 512, N = 32, FEW = 1, MANY = 16, TRIALS = 15;

/** fn's CPU time in ms (user and system, this process only). */
function cpuMs(fn) {
  const t0 = process.cpuUsage();
  fn();
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

test('a head comparison costs compareHeadsPasses forward passes: n_heads + 1', () => {
  assert.deepEqual([1, 2, 16].map((n_heads) => compareHeadsPasses({ n_heads })), [2, 3, 17]);
  const few = new attn.MultiHeadAttention({ d_model: D_MODEL, n_heads: FEW, seed: 7 });
  const many = new attn.MultiHeadAttention({ d_model: D_MODEL, n_heads: MANY, seed: 7 });
  try {
    const query = attn.randomNormal({ shape: [N, D_MODEL], seed: 3 });
    const compareFew = () => few.compareHeads({ query, batch: 1, n_q: N });
    const compareMany = () => many.compareHeads({ query, batch: 1, n_q: N });
    // One pass as the comparison runs it: weights on, a head mask.
    const pass = () => many.forward({ query, batch: 1, n_q: N, need_weights: true, head_mask: Array(MANY).fill(1) });
    compareFew(), compareMany(), pass(); // compiled and warm before any timing
    const scaling = [], passes = [];
    for (let t = 0; t < TRIALS; t++) {
      const a = cpuMs(compareFew), b = cpuMs(compareMany), p = cpuMs(pass);
      scaling.push(b / a);
      passes.push(b / p);
    }
    const expected = compareHeadsPasses({ n_heads: MANY }) / compareHeadsPasses({ n_heads: FEW });
    const measured = median(scaling), perPass = median(passes) / compareHeadsPasses({ n_heads: MANY });
    console.log(`comparing ${MANY} heads costs ${measured.toFixed(2)}× comparing ${FEW} (${expected}× expected; trials ${Math.min(...scaling).toFixed(2)}–${Math.max(...scaling).toFixed(2)}), ` +
      `${median(passes).toFixed(2)} forward passes (${compareHeadsPasses({ n_heads: MANY })} expected)`);
    assert.ok(Math.abs(measured - expected) <= 0.15 * expected,
      `a comparison of ${MANY} heads cost ${measured.toFixed(2)}× one of ${FEW}; its passes say ${expected}×`);
    // Each of the comparison's passes against a forward request's: it allocates its results where the request
    // writes into arrays it was given (measured 0.8–0.9); a comparison doing much more than its passes fails.
    assert.ok(perPass >= 0.5 && perPass <= 1.3, `each of its ${compareHeadsPasses({ n_heads: MANY })} passes cost ${perPass.toFixed(2)} forward passes`);
  } finally {
    few.delete();
    many.delete();
  }
});
