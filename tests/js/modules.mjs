// Loads both wasm modules once per test file, so each test can run against SIMD and baseline.
import { loadAttention } from '../../web/src/engine/attention.js';

export const modules = {
  simd: await loadAttention({ simd: true }),
  scalar: await loadAttention({ simd: false }),
};
