// The exercises of the chapter “gqa” (gqa: MHA, GQA, MQA and the K/V cache): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { text } from './exercise_text.js';
import { MORE_EXERCISES } from './more_exercises.js';
import { otherCase } from '../../exercises/other_case.js';
import { SKETCH_EXERCISES } from './sketch_exercises.js';

export const EXERCISES = [
  {
    id: 'gqa.kv-head-of', chapter: 'gqa', kind: 'number', objective: 5,
    setup({ config: c }) {
      const live = c.n_kv_heads > 1 && c.n_kv_heads !== c.n_heads;
      const n_heads = live ? c.n_heads : 8, n_kv_heads = live ? c.n_kv_heads : 2, d_model = live ? c.d_model : 64;
      const { head } = otherCase({ n_heads }, { head: { from: 'n_heads', plus: -2 } }); // its key/value head differs from head mod n_kv_heads, the usual wrong rule, for any grouping
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
      // Another grouping than the live one (whose cache the chapter shows): MQA, or MHA when the layer is MQA.
      const n_kv_heads = c.n_kv_heads === 1 ? c.n_heads : 1;
      return {
        params: {},
        prompt: text('exercise.gqa.decoder_keeps_k_v', { n_kv_heads, d_k: c.d_k, d_v: c.d_v, tokens: 10 }),
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads, d_k: c.d_k, d_v: c.d_v, n: 10 } }],
      };
    },
    reveal(_, [a]) {
      const kv = a.kv_cache;
      return {
        expected: kv.bytes,
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
        // Not the chapter's own figure (LLaMA-70B's 8 key/value heads, written out there): the same model
        // with one key/value head (MQA), analysed at the preset's sizes.
        params: { preset: 'LLaMA-70B' },
        prompt: text('exercise.gqa.llama_70b_lets_64'),
        tolerance: {},
        calls: [{ op: 'modelPresets', args: {} }, { op: 'analyze', args: { d_model: 8192, n_heads: 64, n_kv_heads: 1, n: 1 } }],
      };
    },
    reveal({ preset }, [presets, mqa]) {
      const m = presets.find((p) => p.name === preset), kv = m.kv_cache_per_token, one = mqa.kv_cache;
      return {
        expected: one.ratio,
        explanation: text('exercise.gqa.core_numbers_per_token_2', { numbers_per_token: fmt.int(one.numbers_per_token), mha_numbers: fmt.int(one.numbers_per_token * one.ratio), ratio: one.ratio, gqa_ratio: kv.ratio, n_kv_heads: m.n_kv_heads }) +
          text('exercise.gqa.usual_mistake_expecting_flops'),
      };
    },
  },
  ...MORE_EXERCISES,
  ...SKETCH_EXERCISES,
];
