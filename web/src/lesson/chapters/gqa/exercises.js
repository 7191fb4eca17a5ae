// The exercises of the chapter “gqa” (gqa: MHA, GQA, MQA and the K/V cache): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';

export const EXERCISES = [
  {
    id: 'gqa.kv-head-of', chapter: 'gqa', kind: 'number',
    setup({ config: c }) {
      const live = c.n_kv_heads > 1 && c.n_kv_heads < c.n_heads;
      const n_heads = live ? c.n_heads : 8, n_kv_heads = live ? c.n_kv_heads : 2, d_model = live ? c.d_model : 64;
      const head = n_heads - 2; // its key/value head differs from head mod n_kv_heads, the usual wrong rule, for any grouping
      return {
        params: { n_heads, n_kv_heads, head },
        // Heads are counted from 1 here, as on the maps and in the query heads → key/value heads table.
        prompt: `${n_heads} query heads share ${n_kv_heads} key/value heads, heads counted from 1. Which key/value head does query head ${head + 1} read?`,
        tolerance: {},
        calls: [{ op: 'resolveView', args: { d_model, n_heads, n_kv_heads, n_q: 1 } }],
      };
    },
    reveal({ n_kv_heads, head }, [view]) {
      const of = view.dims.kv_head_of.map((g) => g + 1); // the core counts from 0
      return {
        expected: of[head],
        explanation: `The core's mapping: query heads 1, 2, … → key/value heads ${of.join(', ')}. Query head ${head + 1} reads key/value head ${of[head]}: consecutive query heads form a group, ` +
          `${n_kv_heads} groups in all. Usual mistake: dealing the query heads out in turn (head mod n_kv_heads), which is not how the weights are laid out.`,
      };
    },
  },
  {
    id: 'gqa.cache-per-token', chapter: 'gqa', kind: 'number',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `A decoder keeps K and V of every past token. For this layer (n_kv_heads = ${c.n_kv_heads}, d_k = ${c.d_k}, d_v = ${c.d_v}, float32), how many bytes does one token add to the cache?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, n: 1 } }],
      };
    },
    reveal(_, [a]) {
      const kv = a.kv_cache;
      return {
        expected: kv.bytes_per_token,
        explanation: `The core: ${fmt.int(kv.numbers_per_token)} numbers per token (n_kv_heads·(d_k + d_v)), ${fmt.bytes(kv.bytes_per_token)}` +
          `${kv.saved_bytes ? `; with one key/value head per query head it would be ${fmt.bytes(kv.mha_bytes_per_token)}` : ''}. ` +
          'Usual mistakes: caching only K (V is needed too), counting the query heads, or caching the queries, which are never reused.',
      };
    },
  },
  {
    id: 'gqa.preset-saving', chapter: 'gqa', kind: 'number',
    setup() {
      return {
        params: { preset: 'LLaMA-70B' },
        prompt: 'LLaMA-70B lets its 64 query heads share 8 key/value heads. How many times smaller is its K/V cache than the same model with 64 key/value heads?',
        tolerance: {},
        calls: [{ op: 'modelPresets', args: {} }],
      };
    },
    reveal({ preset }, [presets]) {
      const m = presets.find((p) => p.name === preset), kv = m.kv_cache_per_token;
      return {
        expected: kv.ratio,
        explanation: `The core: ${fmt.int(kv.numbers_per_token)} numbers per token over its ${m.n_layers} layers (${fmt.bytes(kv.bytes_per_token)}), against ${fmt.bytes(kv.mha_bytes_per_token)} with multi-head attention: ${kv.ratio}× less. ` +
          'Usual mistake: expecting the FLOPs or the maps to shrink as much; every query head still computes its own scores, only K, V and their cache are shared.',
      };
    },
  },
];
