// The input of a pool layer's forward pass, read once and checked once. Every option of the
// caller's object is copied a single time (checks.js), checked with the engine's own checks (so
// the messages are MultiHeadAttention.forward's), and from then on only this record is used: a
// getter or a Proxy that answers differently on a second read cannot make the workers compute
// one shape while the calling thread places the results for another. Arrays are recognised and
// measured by their typed-array slots (intrinsics.js), never by a `length` they could fake.
import * as check from './checks.js';
import { forwardResultSizes } from './result_sizes.js';
import { bufferOf, byteLengthOf, byteOffsetOf, lengthOf, typedArrayName } from './intrinsics.js';

// MultiHeadAttention.forward's keys (attention.js FORWARD_KEYS, which that module does not export).
// The same list in the same order, so an unknown option gets the same message (head_offset and
// layer_heads are refused below: the pool sets them for each worker's heads).
const FORWARD_KEYS = ['query', 'key', 'value', 'batch', 'n_q', 'n_k', 'mask', 'window', 'stride', 'scale', 'head_mask',
  'memory_budget', 'positional', 'rope_base', 'head_offset', 'layer_heads', 'dropout', 'training', 'seed',
  'need_weights', 'into'];
const POSITIONAL = ['none', 'rope', 'alibi'];

/**
 * The checked record of a forward call on a layer of `dims` ({ d_model, n_heads }): sizes, the
 * input arrays, the normalised options and the caller's `into` arrays (null where not given).
 * Throws the engine's message for anything wrong; `into` is checked here too, so a wrong one
 * costs no pass.
 */
export function readForward(input, dims, defaultBudget) {
  const o = check.options('forward', input, FORWARD_KEYS);
  if (o.head_offset !== undefined || o.layer_heads !== undefined) {
    throw new Error('forward: head_offset and layer_heads are set by the pool for each worker\'s heads; a pool layer takes the whole layer\'s options');
  }
  const batch = check.integer('batch', o.batch, { fallback: 1 });
  const n_q = check.integer('n_q', o.n_q);
  const self = (o.key === undefined && o.value === undefined) || (o.key === o.query && o.value === o.query);
  if (!self && (o.key === undefined || o.value === undefined)) {
    throw new Error('forward: give both key and value (cross-attention) or neither (self-attention)');
  }
  const n_k = check.integer('n_k', o.n_k, { fallback: self ? n_q : undefined });
  if (self && n_k !== n_q) throw new Error(`self-attention needs n_k = n_q (got n_q ${n_q}, n_k ${n_k})`);
  const d = dims.d_model, h = dims.n_heads;
  const query = check.float32('query', o.query, batch * n_q * d, `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d}]`);
  let key = null, value = null;
  if (!self) {
    key = check.float32('key', o.key, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`);
    value = check.float32('value', o.value, batch * n_k * d, `[batch, n_k, d_model] = [${batch}, ${n_k}, ${d}]`);
  }
  const dropout = check.number('dropout', o.dropout, 0);
  // The engine holds p in float32: a value just below 1 would round to 1 there.
  if (dropout < 0 || Math.fround(dropout) >= 1) throw new Error(`dropout must be in [0, 1), got ${dropout}`);
  const mask = check.mask(o.mask, { batch, n_q, n_k }, undefined, { window: o.window, stride: o.stride });
  const need_weights = check.boolean('need_weights', o.need_weights, false);
  const record = {
    batch, n_q, n_k, self, query, key, value, dropout,
    mask: { causal: mask.causal, padding: mask.padding, matrix: mask.matrix, window: mask.window, stride: mask.stride },
    positional: check.choice('positional', o.positional, POSITIONAL, 'none'),
    rope_base: check.number('rope_base', o.rope_base), // absent: the core's 10000 (RoPE only)
    scale: check.boolean('scale', o.scale, true),
    training: check.boolean('training', o.training, dropout > 0),
    seed: check.seed('seed', o.seed),
    need_weights,
    memory_budget: check.integer('memory_budget', o.memory_budget, { fallback: defaultBudget }),
    // A Float32Array (the caller's, checked) or a copy of an array of numbers; null when absent.
    head_mask: check.headMask(o.head_mask, h),
    into: destinations(o.into, forwardResultSizes({ batch, n_q, n_k, d_model: d, n_heads: h }), need_weights),
  };
  return Object.freeze(record);
}

/**
 * The caller's `into` of a forward call, read once: { output, weights, lengths }, null where not
 * given. Each array must be a real Float32Array of exactly its length; the two must not overlap.
 */
function destinations(into, sizes, need_weights) {
  const out = { output: null, weights: null, lengths: { output: sizes.output[0], weights: sizes.weights[0] } };
  if (into === undefined) return out;
  const given = check.options('into', into, ['output', 'weights']);
  for (const key of ['output', 'weights']) {
    const array = given[key];
    if (array === undefined || array === null) continue;
    if (key === 'weights' && !need_weights) {
      throw new Error('into.weights was given but need_weights is false; the weights are only computed with need_weights: true');
    }
    const [length, shape] = sizes[key];
    if (typedArrayName(array) !== 'Float32Array' || lengthOf(array) !== length) {
      throw new Error(`into.${key} must be a Float32Array of length ${length} (${shape}), got ${check.describe(array)}`);
    }
    out[key] = array;
  }
  const { output, weights } = out;
  if (output && weights && bufferOf(output) === bufferOf(weights) &&
      byteOffsetOf(output) < byteOffsetOf(weights) + byteLengthOf(weights) &&
      byteOffsetOf(weights) < byteOffsetOf(output) + byteLengthOf(output)) {
    throw new Error('into.output and into.weights share memory; give two separate arrays');
  }
  return Object.freeze(out);
}

/**
 * The options of a checked record as MultiHeadAttention.forward takes them (plain values only,
 * nothing of the caller's object): what the workers get, and the calling thread's engine when the
 * pass runs whole. `head_mask`, the arrays and `into` are added by the caller.
 */
export function engineOptions(r) {
  const mask = { causal: r.mask.causal };
  if (r.mask.padding) mask.padding = r.mask.padding;
  if (r.mask.matrix) mask.matrix = r.mask.matrix;
  if (r.mask.window) mask.window = r.mask.window; // the object form carries the sparse masks too
  if (r.mask.stride) mask.stride = r.mask.stride;
  return { batch: r.batch, n_q: r.n_q, n_k: r.n_k, mask, scale: r.scale, dropout: r.dropout,
    training: r.training, seed: r.seed, need_weights: r.need_weights, memory_budget: r.memory_budget,
    positional: r.positional, rope_base: r.rope_base };
}

/** The whole call for the calling thread's engine, built from the record alone. */
export function wholeCall(r) {
  const call = { ...engineOptions(r), query: r.query };
  if (!r.self) Object.assign(call, { key: r.key, value: r.value });
  if (r.head_mask) call.head_mask = r.head_mask;
  const into = {};
  if (r.into.output) into.output = r.into.output;
  if (r.into.weights) into.weights = r.into.weights;
  call.into = into;
  return call;
}

/** Heads h0 … h0+count−1 of a checked head_mask, as a new Float32Array (read by index: no method of the caller's). */
export function headMaskSlice(mask, h0, count) {
  const part = new Float32Array(count);
  for (let k = 0; k < count; k++) part[k] = mask[h0 + k];
  return part;
}
