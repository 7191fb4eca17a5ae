// The compute side's handlers with a pool of workers (worker.js, and tests that start pools): the compute
// side (compute_side.js) with pools.js's pools over `startPool` and the training lab's side. The page's own
// thread uses compute_side.js alone, so the first view's bundle holds no pool code (nor the training
// side, which it takes from panels.js).

import { createComputeSide, handle } from './compute_side.js';
import { createPools } from './pools.js';
import { createTrainingSide } from '../model/training_side.js';

export { handle };

/**
 * The request handlers over an engine loaded by `load(simd)` (see compute_side.js for the options);
 * startPool({ workers, simd }): a promise of a worker pool (createAttentionPool), or absent where no pool
 * can run: every pass then runs on the engine here.
 */
export function createHandlers(load, { startPool = null, ...options } = {}) {
  return createComputeSide(load, { trainingSide: createTrainingSide, ...options, pools: startPool ? (simd) => createPools(startPool, simd) : null });
}
