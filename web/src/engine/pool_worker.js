// One worker of the attention pool (a module Web Worker in a page, a worker_threads worker in
// Node): its own engine instance and, per pool layer, a smaller MultiHeadAttention holding one
// group of heads. Requests run one at a time in arrival order; every reply names its request.
import { loadAttention } from './attention.js';
import { placeAttention } from './pool_split.js';

const isNode = typeof process === 'object' && !!process.versions?.node;
// Node queues messages until a listener exists, so awaiting the import first loses nothing; in a
// page the listener is set in this same task (the branch below does not await there).
const port = isNode ? (await import('node:worker_threads')).parentPort : globalThis;

let engine = null;        // Promise of the API, set by 'init'
const layers = new Map(); // pool layer id → MultiHeadAttention of this worker's heads
// pool layer id → the version of the layer's parameters this worker holds. A pass names the version
// it was started with and is refused here if another one is held: it never mixes two weight sets.
const versions = new Map();

function layer(id) {
  const mha = layers.get(id);
  if (!mha) throw new Error(`pool worker: no layer ${id} here (it was deleted, or its creation failed)`);
  return mha;
}

/** A result with the buffers to transfer (not copy) back to the pool. */
class Reply {
  constructor(value, transfer) {
    this.value = value;
    this.transfer = transfer;
  }
}

/** A refused pass: the pool sends this worker its parameters again with the next pass. */
class StaleParams extends Error {
  code = 'stale-params';
}

/** A spare array from the pool is used as `into` only when it has exactly the result's length. */
function fits(array, length) {
  return array instanceof Float32Array && array.length === length;
}

const ops = {
  async init({ simd, wasmDir }) {
    engine = loadAttention(wasmDir === undefined ? { simd } : { simd, wasmDir });
    return { isa: (await engine).isa };
  },

  async create({ layer: id, config, params, version }) {
    const attn = await engine;
    const mha = new attn.MultiHeadAttention(config);
    try {
      mha.setWeights(params);
    } catch (e) {
      mha.delete();
      throw e;
    }
    layers.get(id)?.delete();
    layers.set(id, mha);
    versions.set(id, version);
    return null;
  },

  async params({ layer: id, params, version }) {
    const mha = layer(id);
    versions.delete(id); // until the new ones are in: a failed update leaves no version to match
    mha.setWeights(params);
    versions.set(id, version);
    return null;
  },

  /**
   * This worker's heads. `whole` ({ n_heads, h0 }: the layer's head count and this group's first
   * head) asks for the attention weights of the whole layer, [batch, n_heads, n_q, n_k], with this
   * group's heads in place and the others left for the pool to fill: the result's array, made here.
   */
  async forward({ layer: id, input, spare, whole, version }) {
    const mha = layer(id);
    if (versions.get(id) !== version) {
      throw new StaleParams(`pool worker: this pass was started with version ${version} of the layer's weights, but ` +
        `this worker holds ${versions.has(id) ? `version ${versions.get(id)}` : 'none complete'} (an update did not arrive); ` +
        'refused rather than computed with other weights'); // the public word for W, b (setWeights)
    }
    // Results go into the arrays of the previous call when they fit: they are already backed by
    // memory, so the engine's writes take no page faults (new arrays would, on every call).
    const batch = input.batch ?? 1, n_q = input.n_q;
    const n_k = input.n_k ?? n_q;
    const into = {};
    if (fits(spare?.output, batch * n_q * mha.d_model)) into.output = spare.output;
    let all = null;
    if (input.need_weights === true) {
      const length = batch * mha.n_heads * n_q * n_k;
      if (whole) all = new Float32Array(batch * whole.n_heads * n_q * n_k);
      // With one batch item the group's heads are one contiguous range of the whole array: the
      // engine writes them there, so they are copied once (out of the wasm memory) and never again.
      if (all && batch === 1) into.weights = all.subarray(whole.h0 * n_q * n_k, whole.h0 * n_q * n_k + length);
      else if (fits(spare?.attention, length)) into.weights = spare.attention;
    }
    const started = performance.now();
    const r = mha.forward({ ...input, into });
    const ms = performance.now() - started;
    // With several items the heads are a range per item: copied there from the reused array.
    let attention = r.weights, kept = null; // forward's `weights`: the attention probabilities
    if (all && batch !== 1) {
      placeAttention([r.weights], [{ h0: whole.h0, h: mha.n_heads }], batch, whole.n_heads, n_q * n_k, all);
      kept = r.weights;
    }
    if (all) attention = all;
    // The input arrays go back too: the pool copies the next call's inputs into them.
    const inputs = [...new Set([input.query, input.key, input.value])].filter((a) => a instanceof Float32Array);
    const transfer = [r.output, attention, kept, ...inputs].filter(Boolean).map((a) => a.buffer);
    return new Reply({ output: r.output, attention, kept, masked_rows: r.masked_rows, inputs, ms }, transfer);
  },

  async delete({ layer: id }) {
    layers.get(id)?.delete();
    layers.delete(id);
    versions.delete(id);
    return null;
  },
};

async function handle({ id, op, ...args }) {
  try {
    if (!ops[op]) throw new Error(`pool worker: unknown request '${op}'`);
    if (op !== 'init' && !engine) throw new Error('pool worker: the engine was not loaded (no init request)');
    const result = await ops[op](args);
    const reply = result instanceof Reply ? result : new Reply(result, []);
    port.postMessage({ id, value: reply.value }, reply.transfer);
  } catch (e) {
    // A trap or an abort of the wasm module leaves it unusable: the pool replaces this worker.
    const fatal = !(e instanceof Error) || e instanceof WebAssembly.RuntimeError;
    port.postMessage({ id, error: String(e?.message ?? e), fatal, code: e instanceof StaleParams ? e.code : undefined });
  }
}

let queue = Promise.resolve();
const receive = (data) => {
  queue = queue.then(() => handle(data));
};
if (isNode) port.on('message', receive);
else port.addEventListener('message', (e) => receive(e.data));
