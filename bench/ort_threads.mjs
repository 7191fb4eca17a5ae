// ONNX Runtime Web with its wasm threads (numThreads = N) behind the benchmark's runner interface.
// It lives in a worker_thread of its own (see bench/ort_threads_worker.mjs), so each run posts the
// input there and gets the results back: one message each way, as this project's pool pays too.
import { Worker } from 'node:worker_threads';
import { buildMhaModel } from './ort_mha.mjs';

/** Starts the ORT thread; resolves to { createRunner(dims, weights), info, close() }. */
export async function startOrtThreads(numThreads) {
  const worker = new Worker(new URL('./ort_threads_worker.mjs', import.meta.url), { workerData: { numThreads } });
  const pending = new Map();
  let seq = 0;
  const failAll = (e) => {
    for (const { reject } of pending.values()) reject(e);
    pending.clear();
  };
  worker.on('message', ({ seq: s, value, error }) => {
    const call = pending.get(s);
    pending.delete(s);
    if (error === undefined) call.resolve(value);
    else call.reject(new Error(`ORT (numThreads ${numThreads}): ${error}`));
  });
  worker.on('error', (e) => failAll(new Error(`ORT (numThreads ${numThreads}) thread failed: ${e.message}`)));
  worker.on('exit', (code) => failAll(new Error(`ORT (numThreads ${numThreads}) thread exited (${code})`)));
  const call = (op, args = {}, transfer = []) => new Promise((resolve, reject) => {
    pending.set(++seq, { resolve, reject });
    worker.postMessage({ seq, op, ...args }, transfer);
  });

  // A tiny session first: ORT initialises its wasm (and starts its threads) on the first one.
  const tiny = { d_model: 8, n_heads: 2, d_k: 4, d_v: 4, batch: 1, n: 2, need_weights: false };
  const z = (k) => new Float32Array(k);
  const probe = await call('create', { model: buildMhaModel(tiny, { wq: z(64), wk: z(64), wv: z(64), wo: z(64), bq: z(8), bk: z(8), bv: z(8), bo: z(8) }) });
  await call('release', { id: probe.id });
  const info = { version: probe.version, threadsStarted: probe.threadsAfter - probe.threadsBefore };

  return {
    info,
    async createRunner(dims, weights) {
      const { id } = await call('create', { model: buildMhaModel(dims, weights) });
      const shape = [dims.batch, dims.n, dims.d_model];
      return {
        // The input is copied once and the copy transferred, as the pool does with its inputs.
        run: (x) => {
          const copy = x.slice();
          return call('run', { id, x: copy, dims: shape }, [copy.buffer]);
        },
        dispose: () => call('release', { id }),
      };
    },
    close: () => worker.terminate(),
  };
}
