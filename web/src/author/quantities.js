// The quantities an author's exercise may ask for (web/src/author/): each is a value the engine computes
// for the live layer, named once here. A quantity says which kinds of exercise it can grade, which
// arguments it takes (head, query, key, item: 0-based, as the core and the hash's head/q_query/q_key),
// the core calls that give it (run by features/exercises/handler.js) and how its value is read out of
// their results. Nothing here computes an answer: it only names and reads the core's. web/EMBED.md lists them.

import { analyzeArgs, strongest } from '../lesson/exercises/helpers.js';

/** The arguments a quantity may take: the bound (a field of the live layer's config) each must stay under. */
export const ARGS = Object.freeze({ head: 'n_heads', query: 'n_q', key: 'n_k', item: 'batch' });

const analyze = (c) => [{ op: 'analyze', args: analyzeArgs(c) }];
const trace = (c, { head, query, item = 0 }) => [{ op: 'trace', args: { config: c, item, head, query_index: query } }];

/** A number read from the core's analysis (a path such as ['params', 'total']). */
const counted = (path, what) => ({ kinds: ['number'], args: [], calls: analyze, read: ([a]) => path.reduce((o, k) => o[k], a), what });

/** The dims of the analysis's tensor whose name starts with `prefix` (the shapes panel's names). */
const shaped = (prefix, what) => ({
  kinds: ['shape'], args: [], calls: analyze, what,
  read([a]) {
    const found = a.shapes.find((s) => s.name.startsWith(prefix));
    if (!found) throw new Error(`the core's analysis of this layer has no tensor “${prefix}…”`);
    return found.dims;
  },
});

/** name → { kinds, args (required), optional (args), calls(config, args), read(results, args) → value, values? (a choice's), what }. */
export const QUANTITIES = Object.freeze({
  'params.total': counted(['params', 'total'], 'parameters of the layer: weights and biases'),
  'params.weights': counted(['params', 'weights'], 'weights of W_Q, W_K, W_V and W_O together'),
  'params.biases': counted(['params', 'biases'], 'biases of the four projections as with bias=1 (params.total leaves them out when bias=0)'),
  'params.w_q': counted(['params', 'w_q'], 'weights of W_Q (d_model × n_heads·d_k)'),
  'params.w_k': counted(['params', 'w_k'], 'weights of W_K (d_model × n_kv_heads·d_k)'),
  'params.w_v': counted(['params', 'w_v'], 'weights of W_V (d_model × n_kv_heads·d_v)'),
  'params.w_o': counted(['params', 'w_o'], 'weights of W_O (n_heads·d_v × d_model)'),
  'flops.projections': counted(['flops', 'lesson', 'projections'], 'the lesson\'s count for the projections: batch·n·d_model·(n_heads·d_k), n·d² for one sequence of a square layer'),
  'flops.scores': counted(['flops', 'lesson', 'scores'], 'the lesson\'s count for Q·Kᵀ: batch·n²·(n_heads·d_k)'),
  'flops.weighted_sum': counted(['flops', 'lesson', 'weighted_sum'], 'the lesson\'s count for A·V: batch·n²·(n_heads·d_v)'),
  'flops.softmax': counted(['flops', 'lesson', 'softmax'], 'the lesson\'s count for the softmax: batch·n_heads·n²'),
  'flops.total': counted(['flops', 'lesson', 'total'], 'the lesson\'s total: projections, scores and weighted sum'),
  'flops.exact': counted(['flops', 'exact_flops'], 'every floating-point operation of one pass, as the core counts them'),
  'flops.dominant': { kinds: ['choice'], args: [], calls: analyze, values: ['projections', 'attention'], what: 'which part dominates the lesson\'s count: “projections” or “attention”',
    read: ([a]) => (a.flops.projections_dominate_lesson ? 'projections' : 'attention') },
  'memory.attention_weights': counted(['attention_weight_bytes'], 'bytes of the attention weights (batch·n_heads·n_q·n_k floats of 4 bytes)'),
  'kv_cache.bytes_per_token': counted(['kv_cache', 'bytes_per_token'], 'bytes the K/V cache keeps per token'),
  'shape.input': shaped('query input', 'the query input X_q'),
  'shape.q': shaped('Q =', 'Q, every head together'),
  'shape.k': shaped('K =', 'K, every head together'),
  'shape.v': shaped('V =', 'V, every head together'),
  'shape.q_heads': shaped('Q_i', 'Q split into heads'),
  'shape.k_heads': shaped('K_i', 'K split into heads'),
  'shape.v_heads': shaped('V_i', 'V split into heads'),
  'shape.scores': shaped('S_i', 'the scaled scores S_i = Q_i·K_iᵀ/√d_k'),
  'shape.weights': shaped('A_i', 'the attention weights A_i = softmax(S_i)'),
  'shape.heads': shaped('head_i', 'every head\'s output A_i·V_i'),
  'shape.concat': shaped('Concat', 'the heads concatenated'),
  'shape.output': shaped('output', 'the layer\'s output'),
  attention_weight: { kinds: ['number'], args: ['head', 'query', 'key'], optional: ['item'], calls: trace, measured: true,
    read: ([t], { key }) => t.weights[key], what: 'the weight query `query` gives key `key` in head `head` (of batch item `item`, default 0)' },
  attention_logit: { kinds: ['number'], args: ['head', 'query', 'key'], optional: ['item'], calls: trace, measured: true,
    read: ([t], { key }) => t.logits[key], what: 'the score of that pair before the softmax: q·k/√d_k (q·k with scale=0), masked keys −∞' },
  strongest_key: { kinds: ['number', 'choice'], args: ['head', 'query'], optional: ['item'], calls: trace, ties: true,
    read: ([t]) => strongest(t.weights), what: 'the key that query `query` weights most in head `head` (with ties, the first); as a choice, the keys are "0", "1", …' },
});

/** The names of the quantities, in the order above. */
export const QUANTITY_NAMES = Object.freeze(Object.keys(QUANTITIES));
