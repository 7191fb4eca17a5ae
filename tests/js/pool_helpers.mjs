// Shared by the pool_*.test.mjs files: the pool's tolerance against a single-threaded layer, random
// weights with non-zero biases, and a fresh pool whose layer is freed after each test.
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { normwiseError, randomArray } from './reference.mjs';
import { createAttentionPool } from '../../web/src/engine/pool.js';

// The pool sums the workers' partial outputs in another order than one Concat·Wᴼ matmul does:
// float32 rounding only, far below this normwise bound (docs/API.md, tests/js/pool.test.mjs).
export const TOLERANCE = 1e-5;

export function assertClose(what, actual, expected) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  const e = normwiseError(actual, expected);
  assert.ok(e.error <= TOLERANCE,
    `${what}: normwise error ${e.error.toExponential(2)} > ${TOLERANCE} (worst at ${e.at}: ${e.actual} vs ${e.expected})`);
}

/** Weights for `config`, every array random (biases included, so bᴼ matters), from `seed`. */
export function randomWeights(config, seed) {
  const mha = new modules.simd.MultiHeadAttention(config);
  const w = mha.getWeights();
  mha.delete();
  let k = 0;
  for (const key of Object.keys(w)) if (w[key]) w[key] = randomArray(w[key].length, seed + k++, 0.5);
  return w;
}

/** fn(layer, pool): a fresh pool (SIMD unless poolOptions say otherwise) and one layer of it; closed after. */
export async function withPool(poolOptions, config, fn) {
  const pool = await createAttentionPool({ simd: true, ...poolOptions });
  try {
    await fn(await pool.layer(config), pool);
  } finally {
    await pool.close();
  }
}

/** The single-threaded forward of `input` on a layer of `config` holding `weights` (the reference). */
export function singleForward(config, weights, input) {
  const mha = new modules.simd.MultiHeadAttention(config);
  try {
    mha.setWeights(weights);
    return mha.forward(input);
  } finally {
    mha.delete();
  }
}
