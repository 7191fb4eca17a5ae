// sqrtDkStats says the divisor of its scaled scores (sqrt_d_k), which the √d_k panel prints rather than
// taking a square root of its own (issue 34): the value against Math.sqrt, and against the statistics it
// scaled (the scaled variance is the unscaled one over sqrt_d_k², up to float rounding), in both modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: sqrtDkStats gives sqrt_d_k, the divisor its scaled scores used`, () => {
    for (const d_k of [1, 2, 3, 16, 64, 100]) {
      const s = attn.sqrtDkStats({ d_k, n_k: 8, samples: 200, seed: 3 });
      assert.equal(s.sqrt_d_k, Math.sqrt(d_k), `d_k ${d_k}`);
      const implied = s.dot_variance / (s.sqrt_d_k * s.sqrt_d_k);
      assert.ok(Math.abs(implied - s.scaled_variance) <= 1e-9 * Math.max(1, implied), `d_k ${d_k}: ${implied} against ${s.scaled_variance}`);
    }
  });
}
