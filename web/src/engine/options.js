// The argument checks and result shapes the engine's API shares across its domains (layers, plain
// attention, traces, backward passes, views): the option keys of each call, the checked mask, sizes
// and attention options, and the copying-out of traces and gradients (see native.js for the calls).
import * as check from './checks.js';
import { Int32ArrayOf, Uint8ArrayOf } from './intrinsics.js';

export const LAYER_KEYS = ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'bias', 'seed'];
// window and stride go with mask 'sliding' and 'strided'; positional ('none' | 'rope' | 'alibi') and
// rope_base act on the layer's logits; head_offset and layer_heads place a layer's heads in a larger
// layer, for ALiBi's slopes (the worker pool's workers each hold some of the heads).
export const INPUT_KEYS = ['query', 'key', 'value', 'batch', 'n_q', 'n_k', 'mask', 'window', 'stride', 'scale', 'head_mask',
  'memory_budget', 'positional', 'rope_base', 'head_offset', 'layer_heads'];
export const FORWARD_KEYS = [...INPUT_KEYS, 'dropout', 'training', 'seed', 'need_weights', 'into'];
export const PATTERN_KEYS = ['heads', 'query_words', 'key_words', 'input_seed'];
export const PARAM_KEYS = ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo'];
// The backward calls take their forward call's arguments and ∂L/∂output.
export const BACKWARD_KEYS = [...FORWARD_KEYS, 'grad_output'];
export const MHA_GRADS = [...PARAM_KEYS, 'query', 'key', 'value'];
export const SDPA_GRADS = ['q', 'k', 'v'];
export const NO_ATTENTION = 'need_weights is false; the weights and score gradients are only computed with need_weights: true';
export const SDPA_KEYS = ['q', 'k', 'v', 'batch', 'n_q', 'n_k', 'd_k', 'd_v', 'mask', 'window', 'stride', 'scale', 'dropout', 'training', 'seed',
  'need_weights', 'memory_budget', 'into'];
export const SDPA_BACKWARD_KEYS = [...SDPA_KEYS, 'grad_output'];
// A trace takes the arguments of its forward call (need_weights changes nothing: the trace
// always holds its one row of weights), never `into`, plus the indices of the row it follows.
export const TRACE_KEYS = [...FORWARD_KEYS.filter((k) => k !== 'into'), 'item', 'head', 'query_index'];
// traceAttention has no `query` input array, so it also takes the row's index as `query`.
export const TRACE_SDPA_KEYS = [...SDPA_KEYS.filter((k) => k !== 'into'), 'item', 'query_index', 'query'];
// The arrays of a traced row of one head (the binding's names).
const ROW_ARRAYS = ['scores', 'scaled', 'logits', 'exp', 'weights', 'dropped'];
export const VIEW_KEYS = ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'n_q', 'n_k', 'batch', 'mask', 'window', 'stride', 'positional', 'rope_base'];
export const POSITIONAL = ['none', 'rope', 'alibi'];

/**
 * The mask of a view: { causal, padding: Int32Array or null }. Only the form is checked here
 * (whole numbers that fit the engine's int32 input); the count per batch item and the range
 * 0..n_k are the engine's rules (resolveView).
 */
export function viewMask(value, sparse = {}) {
  if (value === 'sliding' || value === 'strided' || sparse.window !== undefined || sparse.stride !== undefined) {
    const m = check.mask(value, {}, undefined, sparse);
    return { causal: false, padding: null, window: m.window, stride: m.stride };
  }
  if (value === undefined || value === 'none') return { causal: false, padding: null };
  if (value === 'causal') return { causal: true, padding: null };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`mask must be 'none', 'causal' or { causal?, padding? }, got ${check.describe(value)}`);
  }
  const m = check.options('mask', value, ['causal', 'padding']);
  const causal = check.boolean('mask.causal', m.causal, false);
  if (m.padding === undefined) return { causal, padding: null };
  const lengths = check.plainArray('mask.padding', m.padding, 'key lengths, one per batch item');
  const padding = new Int32ArrayOf(lengths.length);
  lengths.forEach((len, b) => { padding[b] = check.integer(`mask.padding[${b}]`, len, { min: -(2 ** 31) }); });
  return { causal, padding };
}

/**
 * The checked sizes of a layer, from an options object already copied by check.options: the
 * fields of the engine's record. n_kv_heads: any whole number when given (the engine names what
 * is wrong with 0, a non-divisor or more than n_heads); undefined (absent) when not given, which
 * the record leaves out: n_heads.
 */
export function layerConfig(o) {
  return {
    d_model: check.integer('d_model', o.d_model),
    n_heads: check.integer('n_heads', o.n_heads),
    d_k: check.integer('d_k', o.d_k, { fallback: 0 }),
    d_v: check.integer('d_v', o.d_v, { fallback: 0 }),
    bias: check.boolean('bias', o.bias, true),
    n_kv_heads: o.n_kv_heads === undefined ? undefined : check.integer('n_kv_heads', o.n_kv_heads, { min: -(2 ** 31) }),
  };
}

/** Shared options of attention calls: mask, √d_k scale, dropout, seed, weights, budget. */
export function attentionOptions(o, sizes, defaultBudget, heap) {
  const dropout = check.number('dropout', o.dropout, 0);
  // The engine holds p in float32: a value just below 1 would round to 1 there.
  if (dropout < 0 || Math.fround(dropout) >= 1) throw new Error(`dropout must be in [0, 1), got ${dropout}`);
  return {
    mask: check.mask(o.mask, sizes, heap, { window: o.window, stride: o.stride }),
    scale: check.boolean('scale', o.scale, true),
    dropout,
    // Dropout is a training-time operation: asking for p > 0 turns training on unless told otherwise.
    training: check.boolean('training', o.training, dropout > 0),
    seed: check.seed('seed', o.seed),
    need_weights: check.boolean('need_weights', o.need_weights, false),
    memory_budget: check.integer('memory_budget', o.memory_budget, { fallback: defaultBudget }),
    // The layer's calls only (scaledDotProductAttention's keys have none of these): defaults there.
    positional: POSITIONAL.indexOf(check.choice('positional', o.positional, POSITIONAL, 'none')),
    // Absent stays absent: the core takes 10000 with RoPE and refuses a base given with another method.
    rope_base: check.number('rope_base', o.rope_base),
    head_offset: check.integer('head_offset', o.head_offset, { min: 0, fallback: 0 }),
    layer_heads: check.integer('layer_heads', o.layer_heads, { min: 0, fallback: 0 }),
  };
}

/** The checked input of scaled dot-product attention (or its trace): sizes, q, k, v, options. */
export function sdpaInput(o, defaultBudget, heap) {
  const batch = check.integer('batch', o.batch, { fallback: 1 });
  const n_q = check.integer('n_q', o.n_q), n_k = check.integer('n_k', o.n_k);
  const d_k = check.integer('d_k', o.d_k), d_v = check.integer('d_v', o.d_v, { fallback: d_k });
  check.float32('q', o.q, batch * n_q * d_k, `[batch, n_q, d_k] = [${batch}, ${n_q}, ${d_k}]`, heap);
  check.float32('k', o.k, batch * n_k * d_k, `[batch, n_k, d_k] = [${batch}, ${n_k}, ${d_k}]`, heap);
  check.float32('v', o.v, batch * n_k * d_v, `[batch, n_k, d_v] = [${batch}, ${n_k}, ${d_v}]`, heap);
  return { batch, n_q, n_k, d_k, d_v, options: attentionOptions(o, { batch, n_q, n_k }, defaultBudget, heap) };
}

/**
 * A trace's result from its envelope, in the order of the computation: the arrays `before`,
 * the row's steps (dropped as a Uint8Array), the arrays `after`, then the flags and factors.
 * Every array is a new one.
 */
export function traceResult(n, r, before, after) {
  const a = n.arrays(r, Object.fromEntries([...before, ...ROW_ARRAYS, ...after].map((name) => [name, null])));
  const dropped = new Uint8ArrayOf(a.dropped.length);
  for (let j = 0; j < dropped.length; j++) dropped[j] = a.dropped[j];
  const pick = (names) => Object.fromEntries(names.map((name) => [name, a[name]]));
  const { max, sum, masked, logit_scale, keep_scale } = r.value;
  return { ...pick(before), scores: a.scores, scaled: a.scaled, logits: a.logits, max, exp: a.exp, sum, weights: a.weights, dropped,
    ...pick(after), masked, logit_scale, keep_scale };
}

/**
 * Stages scaled dot-product attention's options and copies q, k and v into the call, refused first when they, the
 * mask and `more` (a backward pass's grad_output, copied by the caller after) alone pass its budget.
 */
export function stageSdpa(n, o, options, more = []) {
  check.inputsWithinBudget(options.memory_budget, [o.q, o.k, o.v, ...more], options.mask);
  n.stageAttentionOptions(options);
  return { q: n.input('q', o.q), k: n.input('k', o.k), v: n.input('v', o.v) };
}

/**
 * The results of a backward binding, copied out (into the caller's arrays where `into`, from
 * check.resultArrays, names one): { output, grads: { name: array or null }, weights,
 * score_grads, masked_rows }. A gradient the engine did not return (a bias that is off) is null.
 */
export function backwardResults(n, r, gradNames, into) {
  const wanted = { output: into.output ?? null };
  for (const name of gradNames) if (r.arrays[`grads.${name}`]) wanted[`grads.${name}`] = into[`grads.${name}`] ?? null;
  for (const name of ['weights', 'score_grads']) if (r.arrays[name]) wanted[name] = into[name] ?? null;
  const a = n.arrays(r, wanted);
  return {
    output: a.output,
    grads: Object.fromEntries(gradNames.map((name) => [name, a[`grads.${name}`] ?? null])),
    weights: a.weights ?? null,
    score_grads: a.score_grads ?? null,
    masked_rows: r.value.masked_rows,
  };
}
