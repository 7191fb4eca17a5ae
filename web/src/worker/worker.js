// The module worker where forward passes, the n-sweep and the SIMD peak run, so a playground never
// freezes its page. It finds the wasm beside itself (dist/wasm/), whichever origin loaded it. It owns
// the worker pool too: the pool's workers are nested workers of this one (pool_worker.js, also beside
// it), so they end with it, and they load the same wasm folder.

import '../engine/bundled_loader.js'; // the SIMD loader inside this bundle: no separate request for it
import { loadAttention } from '../engine/attention.js';
import { createAttentionPool, PAGE_SPLIT_FLOPS } from '../engine/pool.js';
import { createHandlers, handle } from './handlers.js';
import { loadHandlers } from '../features/compute.js';
import { measurePeak } from '../perf/peak.js';

const wasmDir = new URL('./wasm/', import.meta.url).href;
const handlers = createHandlers((simd) => loadAttention(simd === undefined ? { wasmDir } : { simd, wasmDir }), {
  // The threshold measured in a browser, where splitting costs more than in Node (see pool.js).
  startPool: ({ workers, simd }) => createAttentionPool({ workers, simd, wasmDir, splitFlops: PAGE_SPLIT_FLOPS }),
  featureHandlers: loadHandlers,
  measurePeak,
  importReader: () => import('../import/files.js'), // the importer's parsers: in this bundle, run here
});

self.onmessage = ({ data }) => handle(handlers, data, (reply) => postMessage(reply));
