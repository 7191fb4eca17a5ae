// The exercises of the chapter “gqa” (gqa: MHA, GQA, MQA and the K/V cache): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { text } from './exercise_text.js';
import { MORE_EXERCISES } from './more_exercises.js';

export const EXERCISES = [
  {
    id: 'gqa.kv-head-of', chapter: 'gqa', kind: 'number', objective: 5,
    setup({ config: c }) {
      const live = c.n_kv_heads > 1 && c.n_kv_heads !== c.n_heads;
      const n_heads = live ? c.n_heads : 8, n_kv_heads = live ? c.n_kv_heads : 2, d_model = live ? c.d_model : 64;
      const head = n_heads - 2; // its key/value head differs from head mod n_kv_heads, the usual wrong rule, for any grouping
      return {
        params: { n_heads, n_kv_heads, head },
        // Heads are counted from 1 here, as on the maps and in the query heads → key/value heads table.
        prompt: text('exercise.gqa.query_heads_share_key', { n_heads, n_kv_heads, value: head + 1 }),
        tolerance: {},
        calls: [{ op: 'resolveView', args: { d_model, n_heads, n_kv_heads, n_q: 1 } }],
      };
    },
    reveal({ n_kv_heads, head }, [view]) {
      const of = view.dims.kv_head_of.map((g) => g + 1); // the core counts from 0
      return {
        expected: of[head],
        explanation: text('exercise.gqa.core_s_mapping_query', { value: of.join(', '), value2: head + 1, value3: of[head] }) +
          text('exercise.gqa.groups_all_usual_mistake', { n_kv_heads }),
      };
    },
  },
  {
    id: 'gqa.cache-per-token', chapter: 'gqa', kind: 'number', objective: 3,
    setup({ config: c }) {
      return {
        params: {},
        prompt: text('exercise.gqa.decoder_keeps_k_v', { n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v }),
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, n: 1 } }],
      };
    },
    reveal(_, [a]) {
      const kv = a.kv_cache;
      return {
        expected: kv.bytes_per_token,
        explanation: text('exercise.gqa.core_numbers_per_token', { numbers_per_token: fmt.int(kv.numbers_per_token), bytes_per_token: fmt.bytes(kv.bytes_per_token) }) +
          `${kv.saved_bytes ? text('exercise.gqa.with_one_key_value', { mha_bytes_per_token: fmt.bytes(kv.mha_bytes_per_token) }) : ''}. ` +
          text('exercise.gqa.usual_mistakes_caching_only'),
      };
    },
  },
  {
    id: 'gqa.preset-saving', chapter: 'gqa', kind: 'number', objective: 3,
    setup() {
      return {
        params: { preset: 'LLaMA-70B' },
        prompt: text('exercise.gqa.llama_70b_lets_64'),
        tolerance: {},
        calls: [{ op: 'modelPresets', args: {} }],
      };
    },
    reveal({ preset }, [presets]) {
      const m = presets.find((p) => p.name === preset), kv = m.kv_cache_per_token;
      return {
        expected: kv.ratio,
        explanation: text('exercise.gqa.core_numbers_per_token_2', { numbers_per_token: fmt.int(kv.numbers_per_token), n_layers: m.n_layers, bytes_per_token: fmt.bytes(kv.bytes_per_token), mha_bytes_per_token: fmt.bytes(kv.mha_bytes_per_token), ratio: kv.ratio }) +
          text('exercise.gqa.usual_mistake_expecting_flops'),
      };
    },
  },
  ...MORE_EXERCISES,
];
