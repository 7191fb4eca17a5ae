// The module worker where forward passes, the n-sweep and the SIMD peak run, so a playground never
// freezes its page. It finds the wasm beside itself (dist/wasm/), whichever origin loaded it.

import { loadAttention } from '../engine/attention.js';
import { createHandlers, handle } from './handlers.js';

const wasmDir = new URL('./wasm/', import.meta.url).href;
const handlers = createHandlers((simd) => loadAttention(simd === undefined ? { wasmDir } : { simd, wasmDir }));

self.onmessage = ({ data }) => handle(handlers, data, (reply) => postMessage(reply));
