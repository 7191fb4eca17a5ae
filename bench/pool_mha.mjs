// This project's worker pool (web/src/engine/pool.js) behind the benchmark's runner interface:
// the same layer and weights as the single-threaded runner, its heads split over the workers.
import { createAttentionPool } from '../web/src/engine/pool.js';

/** A pool of `workers` SIMD workers; the pool decides per pass whether splitting pays. */
export async function startPool(workers) {
  const pool = await createAttentionPool({ workers, simd: true });
  if (pool.isa !== 'wasm-simd128') throw new Error(`the pool runs ${pool.isa}, expected wasm-simd128`);
  return pool;
}

/**
 * reuse: results go into arrays allocated once per case (`into`), as for the single-threaded
 * runner; otherwise every run returns new arrays. run() also records how many workers the pass
 * used (0: the pool ran it on the calling thread, below its split threshold).
 */
export async function createPoolRunner(pool, { d_model, n_heads, d_k, d_v, batch, n }, weights, { reuse }) {
  const layer = await pool.layer({ d_model, n_heads, d_k, d_v, bias: true, seed: 1 });
  await layer.setWeights(weights);
  let output = null, attnWeights = null;
  const runner = {
    workersUsed: null,
    async run(x, need_weights) {
      let into;
      if (reuse) {
        output ??= new Float32Array(batch * n * d_model);
        if (need_weights) attnWeights ??= new Float32Array(batch * n_heads * n * n);
        into = need_weights ? { output, weights: attnWeights } : { output };
      }
      const r = await layer.forward({ query: x, key: x, value: x, batch, n_q: n, n_k: n, mask: 'none', need_weights, into });
      runner.workersUsed = layer.lastWorkers;
      return { output: r.output, weights: r.weights };
    },
    dispose() { layer.delete(); },
  };
  return runner;
}
