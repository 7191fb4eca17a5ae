// TensorFlow.js with the WASM backend (XNNPACK, SIMD build, one thread) computing the same
// multi-head attention from tf ops: matMul, add, mul, reshape, transpose, softmax.
import { createRequire } from 'node:module';
import path from 'node:path';

// Both packages are loaded through require so the backend registers itself on the very same
// tfjs-core instance we call (an ESM import of core could resolve to a second copy).
const require = createRequire(import.meta.url);
const tf = require('@tensorflow/tfjs-core');
const tfwasm = require('@tensorflow/tfjs-backend-wasm');

/**
 * Selects the wasm backend from local files. Multithreading is switched off before init, so TF.js
 * picks tfjs-backend-wasm-simd.wasm (single-threaded, no worker pool keeping Node alive) instead
 * of the threaded build; setThreadsCount(1) pins XNNPACK to one thread as well.
 */
export async function initTfjs() {
  const distDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm'));
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tfwasm.setWasmPaths(distDir + path.sep); // a file-system prefix: Emscripten reads it with fs, no network
  tfwasm.setThreadsCount?.(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('TF.js: the wasm backend failed to initialise');
  await tf.ready();
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  if (!simd) throw new Error('TF.js: WASM SIMD not detected, refusing to benchmark the scalar build');
  return { version: tf.version_core, threads: tfwasm.getThreadsCount?.() ?? 1, simd };
}

/** Heap of the TF.js wasm module (re-read each time: the buffer is replaced when memory grows). */
export function tfjsHeapBytes() {
  return tf.backend()?.wasm?.HEAPU8?.buffer.byteLength ?? null;
}

/** One runner per size: the weights are uploaded once, as a deployed model would hold them. */
export function createTfjsRunner({ d_model, n_heads, d_k, d_v, batch, n }, w) {
  const qk = n_heads * d_k, vw = n_heads * d_v;
  const W = {
    wq: tf.tensor2d(w.wq, [d_model, qk]), bq: tf.tensor1d(w.bq),
    wk: tf.tensor2d(w.wk, [d_model, qk]), bk: tf.tensor1d(w.bk),
    wv: tf.tensor2d(w.wv, [d_model, vw]), bv: tf.tensor1d(w.bv),
    wo: tf.tensor2d(w.wo, [vw, d_model]), bo: tf.tensor1d(w.bo),
    scale: tf.scalar(1 / Math.sqrt(d_k)),
  };
  // [batch·n, h·d] -> [batch, h, n, d]
  const splitHeads = (t, d) => tf.transpose(tf.reshape(t, [batch, n, n_heads, d]), [0, 2, 1, 3]);

  function forward(x2d, need_weights) {
    // As in the ONNX graph, 1/√d_k scales Q (cheaper than scaling the h·n² logits).
    const q = splitHeads(tf.mul(tf.add(tf.matMul(x2d, W.wq), W.bq), W.scale), d_k);
    const k = splitHeads(tf.add(tf.matMul(x2d, W.wk), W.bk), d_k);
    const v = splitHeads(tf.add(tf.matMul(x2d, W.wv), W.bv), d_v);
    const weights = tf.softmax(tf.matMul(q, k, false, true));          // [batch, h, n, n]
    const heads = tf.matMul(weights, v);                               // [batch, h, n, d_v]
    const concat = tf.reshape(tf.transpose(heads, [0, 2, 1, 3]), [batch * n, vw]);
    const output = tf.reshape(tf.add(tf.matMul(concat, W.wo), W.bo), [batch, n, d_model]);
    return need_weights ? [output, weights] : [output];
  }

  return {
    async run(x, need_weights) {
      const x2d = tf.tensor2d(x, [batch * n, d_model]);
      const outs = tf.tidy(() => forward(x2d, need_weights));
      // dataSync copies out of the heap, as the other systems return fresh arrays too.
      const result = { output: outs[0].dataSync(), weights: need_weights ? outs[1].dataSync() : undefined };
      tf.dispose([x2d, ...outs]);
      return result;
    },
    dispose() { tf.dispose(Object.values(W)); },
  };
}
