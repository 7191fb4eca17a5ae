// ONNX Runtime Web (wasm backend, SIMD, one thread, no proxy worker) running the same multi-head
// attention as this project, from an ONNX graph that bench/onnx_writer.mjs builds in memory.
import * as ort from 'onnxruntime-web';
import { floatValueInfo, graph, model, node, tensor } from './onnx_writer.mjs';

/**
 * The ONNX graph of self-attention for one size, weights as initializers:
 *   Q = (x·Wq + bq)·(1/√d_k), K = x·Wk + bk, V = x·Wv + bv            [batch, n, h·d]
 *   split heads: Reshape [batch, n, h, d] -> Transpose (K straight to [batch, h, d_k, n])
 *   weights = Softmax(Q·Kᵀ) [batch, h, n, n];  heads = weights·V  [batch, h, n, d_v]
 *   concat: Transpose -> Reshape [batch, n, h·d_v];  output = heads·Wo + bo
 * The 1/√d_k scale is applied to Q (n·h·d_k multiplies) rather than to the logits (h·n² of
 * them): the same maths, and the cheaper placement a tuned graph would use.
 */
export function buildMhaModel({ d_model, n_heads, d_k, d_v, batch, n, need_weights }, w) {
  const qk = n_heads * d_k, vw = n_heads * d_v;
  const i64 = (xs) => BigInt64Array.from(xs.map(BigInt));
  const initializers = [
    tensor('Wq', [d_model, qk], w.wq), tensor('bq', [qk], w.bq),
    tensor('Wk', [d_model, qk], w.wk), tensor('bk', [qk], w.bk),
    tensor('Wv', [d_model, vw], w.wv), tensor('bv', [vw], w.bv),
    tensor('Wo', [vw, d_model], w.wo), tensor('bo', [d_model], w.bo),
    tensor('scale', [], Float32Array.of(1 / Math.sqrt(d_k))),
    tensor('shape_qk', [4], i64([batch, n, n_heads, d_k])),
    tensor('shape_v', [4], i64([batch, n, n_heads, d_v])),
    tensor('shape_out', [3], i64([batch, n, vw])),
  ];
  const nodes = [
    node('MatMul', ['x', 'Wq'], ['q_mm']), node('Add', ['q_mm', 'bq'], ['q_b']),
    node('Mul', ['q_b', 'scale'], ['q']),
    node('MatMul', ['x', 'Wk'], ['k_mm']), node('Add', ['k_mm', 'bk'], ['k']),
    node('MatMul', ['x', 'Wv'], ['v_mm']), node('Add', ['v_mm', 'bv'], ['v']),
    node('Reshape', ['q', 'shape_qk'], ['q4']), node('Transpose', ['q4'], ['qh'], { perm: [0, 2, 1, 3] }),
    node('Reshape', ['k', 'shape_qk'], ['k4']), node('Transpose', ['k4'], ['kt'], { perm: [0, 2, 3, 1] }),
    node('Reshape', ['v', 'shape_v'], ['v4']), node('Transpose', ['v4'], ['vh'], { perm: [0, 2, 1, 3] }),
    node('MatMul', ['qh', 'kt'], ['logits']),
    node('Softmax', ['logits'], ['weights'], { axis: -1 }),
    node('MatMul', ['weights', 'vh'], ['heads']),
    node('Transpose', ['heads'], ['heads_t'], { perm: [0, 2, 1, 3] }),
    node('Reshape', ['heads_t', 'shape_out'], ['concat']),
    node('MatMul', ['concat', 'Wo'], ['o_mm']), node('Add', ['o_mm', 'bo'], ['output']),
  ];
  const outputs = [floatValueInfo('output', [batch, n, d_model])];
  if (need_weights) outputs.push(floatValueInfo('weights', [batch, n_heads, n, n]));
  return model({
    graphBytes: graph({
      name: 'mha', nodes, initializers, outputs,
      inputs: [floatValueInfo('x', [batch, n, d_model])],
    }),
  });
}

/** Pins the configuration the comparison needs; call once before the first session. */
export function configureOrt() {
  ort.env.wasm.numThreads = 1;   // one thread, like this project's module
  ort.env.wasm.proxy = false;    // run on this thread: no worker between the timer and the work
  ort.env.wasm.simd = true;      // the fixed-width 128-bit SIMD build
  ort.env.logLevel = 'error';
  return { version: ort.env.versions?.web ?? 'unknown' };
}

/**
 * One ORT session per (size, need_weights). Graph optimisations stay at ORT's default ('all'), as
 * a user would run it. preallocated: pass output tensors allocated once per case as fetches (only
 * when ortFillsPreallocatedOutputs() found that ORT's wasm backend really writes into them).
 */
export async function createOrtRunner(dims, weights, { preallocated = false } = {}) {
  const bytes = buildMhaModel(dims, weights);
  const session = await ort.InferenceSession.create(bytes, {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });
  const { batch, n, d_model, n_heads } = dims;
  let fetches = null;
  if (preallocated) {
    fetches = { output: new ort.Tensor('float32', new Float32Array(batch * n * d_model), [batch, n, d_model]) };
    if (dims.need_weights) {
      fetches.weights = new ort.Tensor('float32', new Float32Array(batch * n_heads * n * n), [batch, n_heads, n, n]);
    }
  }
  return {
    modelBytes: bytes.length,
    async run(x) {
      const feeds = { x: new ort.Tensor('float32', x, [batch, n, d_model]) };
      const out = fetches ? await session.run(feeds, fetches) : await session.run(feeds);
      const result = { output: out.output.data, weights: out.weights ? out.weights.data : undefined };
      if (!fetches) for (const t of Object.values(out)) t.dispose?.();
      return result;
    },
    async dispose() { await session.release(); },
  };
}

/**
 * Whether ORT's wasm backend writes its results into output tensors the caller passes as fetches.
 * This project's runner reuses its result arrays (the API's `into`); ORT is given the same chance
 * if it works. onnxruntime-web 1.30.0 returns the given tensors unfilled (their data stays as it
 * was), so there ORT runs with the new arrays it allocates itself, its only correct way.
 */
export async function ortFillsPreallocatedOutputs() {
  const dims = { d_model: 8, n_heads: 2, d_k: 4, d_v: 4, batch: 1, n: 3, need_weights: false };
  const w = {};
  let s = 7;
  const rnd = (k) => Float32Array.from({ length: k }, () => ((s = (s * 48271) % 2147483647) / 2147483647) - 0.5);
  for (const key of ['wq', 'wk', 'wv', 'wo']) w[key] = rnd(64);
  for (const key of ['bq', 'bk', 'bv', 'bo']) w[key] = rnd(8);
  const session = await ort.InferenceSession.create(buildMhaModel(dims, w), { executionProviders: ['wasm'] });
  try {
    const feeds = { x: new ort.Tensor('float32', rnd(24), [1, 3, 8]) };
    const fresh = (await session.run(feeds)).output.data;
    const given = new ort.Tensor('float32', new Float32Array(24).fill(Number.NaN), [1, 3, 8]);
    await session.run(feeds, { output: given });
    // The caller's own array must hold the result (a fresh tensor handed back would not count).
    return given.data.every((v, i) => v === fresh[i]);
  } finally {
    await session.release();
  }
}
