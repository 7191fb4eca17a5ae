// Scaled dot-product attention without projections in the engine's API: the forward pass, the trace
// of one query through it and the backward pass, over [batch, n, d] arrays (the core module's).
import * as check from './checks.js';
import { record } from './record.js';
import {
  NO_ATTENTION, SDPA_KEYS, SDPA_BACKWARD_KEYS, SDPA_GRADS, TRACE_SDPA_KEYS, sdpaInput, traceResult, stageSdpa, backwardResults,
} from './options.js';

/** scaledDotProductAttention, traceAttention and scaledDotProductAttentionBackward over `native` (native.js). */
export function makeSdpaApi({ native, defaultBudget }) {
  return {
    /**
     * softmax(Q·Kᵀ/√d_k [mask]) [dropout] · V over [batch, n, d] arrays, no projections;
     * `into: { output?, weights? }` as for forward.
     */
    scaledDotProductAttention(args) {
      const o = check.options('scaledDotProductAttention', args, SDPA_KEYS);
      const heap = native.heap();
      const { batch, n_q, n_k, d_k, d_v, options } = sdpaInput(o, defaultBudget, heap);
      const into = check.destinations(o.into, {
        output: [batch * n_q * d_v, `[batch, n_q, d_v] = [${batch}, ${n_q}, ${d_v}]`],
        weights: [batch * n_q * n_k, `[batch, n_q, n_k] = [${batch}, ${n_q}, ${n_k}]`],
      }, options.need_weights, heap);
      return native.call((n) => {
        const { q, k, v } = stageSdpa(n, o, options);
        const r = n.run('scaledDotProductAttention', record(n, { q, k, v, batch, n_q, n_k, d_k, d_v,
          need_weights: options.need_weights, memory_budget: options.memory_budget }));
        const results = n.arrays(r, options.need_weights ? { output: into.output, weights: into.weights } : { output: into.output });
        return { output: results.output, weights: results.weights ?? null, masked_rows: r.value.masked_rows };
      });
    },

    /**
     * Follows query `query_index` of batch item `item` through scaledDotProductAttention (its
     * arguments): { q, k, v, scores, logits, max, exp, sum, weights, dropped, output, masked,
     * logit_scale, keep_scale }.
     */
    traceAttention(args) {
      const o = check.options('traceAttention', args, TRACE_SDPA_KEYS);
      const { batch, n_q, n_k, d_k, d_v, options } = sdpaInput(o, defaultBudget, native.heap());
      const item = check.index('item', o.item, batch, 'batch', 0);
      if (o.query !== undefined && o.query_index !== undefined) {
        throw new Error('traceAttention: give the query row as query or as query_index, not both');
      }
      const query_index = o.query !== undefined ? check.index('query', o.query, n_q, 'n_q')
        : check.index('query_index', o.query_index, n_q, 'n_q');
      return native.call((n) => {
        const { q, k, v } = stageSdpa(n, o, options);
        const r = n.run('traceAttention', record(n, { q, k, v, batch, n_q, n_k, d_k, d_v,
          memory_budget: options.memory_budget, item, query_index }));
        return traceResult(n, r, ['q', 'k', 'v'], ['output']);
      });
    },

    /**
     * The forward pass and the gradients of scaledDotProductAttention: its arguments and
     * grad_output [batch, n_q, d_v]. Returns { output, grads: { q, k, v }, weights, score_grads,
     * masked_rows }, as mha.backward; `into: { output?, weights?, score_grads?, grads?: { q?, k?, v? } }`.
     */
    scaledDotProductAttentionBackward(args) {
      const o = check.options('scaledDotProductAttentionBackward', args, SDPA_BACKWARD_KEYS);
      const heap = native.heap();
      const { batch, n_q, n_k, d_k, d_v, options } = sdpaInput(o, defaultBudget, heap);
      const out = `[batch, n_q, d_v] = [${batch}, ${n_q}, ${d_v}]`;
      check.float32('grad_output', o.grad_output, batch * n_q * d_v, out, heap);
      const attention = [batch * n_q * n_k, `[batch, n_q, n_k] = [${batch}, ${n_q}, ${n_k}]`];
      const into = check.resultArrays(o.into, {
        output: [batch * n_q * d_v, out],
        weights: options.need_weights ? attention : NO_ATTENTION,
        score_grads: options.need_weights ? attention : NO_ATTENTION,
        grads: {
          q: [batch * n_q * d_k, `[batch, n_q, d_k] = [${batch}, ${n_q}, ${d_k}]`],
          k: [batch * n_k * d_k, `[batch, n_k, d_k] = [${batch}, ${n_k}, ${d_k}]`],
          v: [batch * n_k * d_v, `[batch, n_k, d_v] = [${batch}, ${n_k}, ${d_v}]`],
        },
      }, heap);
      return native.call((n) => {
        const { q, k, v } = stageSdpa(n, o, options, [o.grad_output]);
        const grad_output = n.input('grad_output', o.grad_output);
        const r = n.run('scaledDotProductAttentionBackward', record(n, { q, k, v, grad_output, batch, n_q, n_k, d_k, d_v,
          need_weights: options.need_weights, memory_budget: options.memory_budget }));
        return backwardResults(n, r, SDPA_GRADS, into);
      });
    },
  };
}
