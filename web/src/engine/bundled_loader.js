// Puts the SIMD module's loader (wasm/attention_simd.mjs) inside the bundle whose entry imports this
// file, so that loadAttention calls it at once instead of importing it by URL: on a first visit that
// import waited behind the page's first rendering (about 100 ms on this project's 2-core machine,
// measured with performance marks around it). The baseline module's loader, needed only without
// SIMD, stays a file of its own. Imported by the bundles' entries, never by the API itself.
import createSimdModule from '../../wasm/attention_simd.mjs';
import { provideLoader } from './load.js';

provideLoader('attention_simd', createSimdModule);
