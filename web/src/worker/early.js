// Started by index.html before the rest of the page has loaded: both wasm engines (the worker's and
// the main thread's) begin downloading and compiling at once instead of after ~25 other modules.

import { EngineClient } from './client.js';

/** The URL's #simd flag: 0 forces the baseline module, 1 insists on SIMD, absent picks automatically. */
export const simdFlag = (() => {
  const m = /(?:^#|&)simd=([01])(?:&|$)/.exec(location.hash);
  return m ? m[1] === '1' : undefined;
})();

const options = simdFlag === undefined ? {} : { simd: simdFlag };
performance.mark('attention-early');

/** The compute worker, already loading its engine. */
export const client = new EngineClient(options);
client.ready.then(() => performance.mark('attention-worker-ready'), () => {});

/**
 * The main thread's engine (analysis, examples, encodings): a promise, settled once compiled.
 * Imported dynamically so the worker above does not wait for the engine's modules.
 */
export const engine = import('../engine/attention.js').then((m) => m.loadAttention(options)).then((api) => {
  performance.mark('attention-engine-ready');
  return api;
});
engine.catch(() => {}); // main.js reports a failure; this keeps it from being an unhandled rejection meanwhile
