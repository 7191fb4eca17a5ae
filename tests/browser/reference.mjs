// What the page should show, computed in Node by the JS API itself from the same URL hash: the page's
// pure modules turn the hash into sizes and inputs, then this file calls mha.forward directly.
import { loadAttention } from '../../web/src/engine/attention.js';
import { fromHash } from '../../web/src/model/schema.js';
import { validate } from '../../web/src/model/validate.js';
import { buildInputs } from '../../web/src/model/inputs.js';

const engines = new Map();
export async function engine(simd) {
  const key = String(simd);
  // With the labs loaded (attn.labs()): the labs' functions synchronous, as the tests compare with them.
  if (!engines.has(key)) engines.set(key, loadAttention(simd === undefined ? {} : { simd }).then((attn) => attn.labs()));
  return engines.get(key);
}

/** { config, analysis, output, weights, sum, attn } for the view at `hash`. */
export async function expectedFor(hash, { simd } = {}) {
  const attn = await engine(simd);
  const check = validate(fromHash(hash), { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget, isa: attn.isa });
  if (!check.ok) throw new Error(`the hash ${hash} is not valid: ${JSON.stringify(check.errors)}`);
  const c = check.config;
  const { mha, args, labels_q } = layerFor(attn, c);
  try {
    const r = mha.forward({ ...args, need_weights: true });
    let sum = 0;
    for (const v of r.output) sum += v;
    return { config: c, analysis: check.analysis, output: r.output, weights: r.weights, masked_rows: r.masked_rows, sum, attn, labels_q };
  } finally {
    mha.delete();
  }
}

/** A layer for config `c` (delete it after use), forward's arguments for its inputs and their words, the mask spelled out here. */
function layerFor(attn, c) {
  const inputs = buildInputs(c, attn);
  const causal = c.mask.includes('causal'), padding = c.mask.includes('padding');
  const mask = padding ? { causal, padding: c.padding } : causal ? 'causal' : 'none';
  const mha = new attn.MultiHeadAttention({ d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: c.bias, seed: c.seed });
  const args = {
    query: inputs.query, ...(c.cross ? { key: inputs.memory, value: inputs.memory } : {}),
    batch: c.batch, n_q: c.n_q, n_k: c.n_k, mask, scale: c.scale, dropout: c.dropout, seed: c.dropout_seed,
  };
  return { mha, args, labels_q: inputs.labels_q };
}

/** mha.trace of query at.query (batch item at.item, head at.head) for the view at `hash`; `overrides` change forward's arguments. */
export async function traceFor(hash, at, overrides = {}) {
  const want = await expectedFor(hash);
  const { mha, args } = layerFor(want.attn, want.config);
  try {
    return { want, trace: mha.trace({ ...args, item: at.item, head: at.head, query_index: at.query, ...overrides }) };
  } finally {
    mha.delete();
  }
}

/** The weight of (batch item b, head, query i, key j) in the API's [batch, n_heads, n_q, n_k] layout. */
export function weightAt({ weights, config: c }, b, head, i, j) {
  return weights[((b * c.n_heads + head) * c.n_q + i) * c.n_k + j];
}
