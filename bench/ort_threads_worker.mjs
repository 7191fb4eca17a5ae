// Worker side of bench/ort_threads.mjs: a second ONNX Runtime Web instance, initialised with
// numThreads = N (its wasm threads, i.e. Emscripten pthreads on worker_threads), running the
// sessions the main thread asks for. ORT reads numThreads once, when it initialises its wasm, and
// one module instance is shared by the whole thread, so a second thread count needs its own thread.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-web';

ort.env.wasm.numThreads = workerData.numThreads;
ort.env.wasm.proxy = false;  // compute on this worker's thread and ORT's own pthreads
ort.env.wasm.simd = true;
ort.env.logLevel = 'error';

/** Threads of this process now (Linux), to check that ORT really started its pthreads. */
function processThreads() {
  try {
    return Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
  } catch {
    return null;
  }
}

const sessions = new Map();
let nextId = 1;

const ops = {
  async create({ model }) {
    const before = processThreads();
    const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
    const id = nextId++;
    sessions.set(id, session);
    return { id, threadsBefore: before, threadsAfter: processThreads(), version: ort.env.versions?.web ?? 'unknown' };
  },
  async run({ id, x, dims }) {
    const out = await sessions.get(id).run({ x: new ort.Tensor('float32', x, dims) });
    const result = { output: out.output.data, weights: out.weights ? out.weights.data : undefined };
    const transfer = [result.output.buffer];
    if (result.weights) transfer.push(result.weights.buffer);
    return { ...result, transfer };
  },
  async release({ id }) {
    await sessions.get(id)?.release();
    sessions.delete(id);
    return {};
  },
};

parentPort.on('message', async ({ seq, op, ...args }) => {
  try {
    const { transfer = [], ...value } = await ops[op](args);
    parentPort.postMessage({ seq, value }, transfer);
  } catch (e) {
    parentPort.postMessage({ seq, error: String(e?.message ?? e) });
  }
});
