// Times the projection matmul alone through attn.matmul (m = n tokens, k = n = d_model): how close
// the module's kernel gets to the f32x4 peak without the attention around it.
import { relativeDiff, TOLERANCE } from './compare.mjs';
import { makeInput, makeWeights } from './data.mjs';
import { matmulFlops } from './flops.mjs';
import { median, now } from './stats.mjs';

const BUDGET_MS = 1000;

/** apis: [{ key, api }]; the first one is the reference the others must agree with. */
export function measureProjectionMatmul(apis, { d_model, n_heads, n }) {
  const m = n, k = d_model, cols = d_model;
  const a = makeInput({ batch: 1, n, d_model });
  const b = makeWeights({ d_model, n_heads, d_k: d_model / n_heads, d_v: d_model / n_heads }).wq; // d_model×d_model
  const flops = matmulFlops({ m, k, n: cols });
  let reference = null;
  return apis.map(({ key, api }) => {
    const c = api.matmul({ a, b, m, k, n: cols });
    if (reference === null) reference = Float32Array.from(c);
    else if (!(relativeDiff(reference, c) <= TOLERANCE)) {
      throw new Error(`matmul ${m}×${k}·${k}×${cols}: ${key} disagrees with ${apis[0].key}`);
    }
    const t0 = now();
    api.matmul({ a, b, m, k, n: cols }); // second warm-up, also the estimate
    const reps = Math.min(21, Math.max(3, Math.round(BUDGET_MS / Math.max(now() - t0, 0.01)) | 1));
    const ms = [];
    for (let r = 0; r < reps; r++) {
      const t = now();
      api.matmul({ a, b, m, k, n: cols });
      ms.push(now() - t);
    }
    const med = median(ms);
    return { key, m, k, n: cols, ms: med, reps, gflops: flops / (med / 1000) / 1e9 };
  });
}
