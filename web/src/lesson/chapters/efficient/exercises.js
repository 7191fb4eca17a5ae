// The exercises of the chapter “efficient” (efficient: memory and work as n grows): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { visible } from '../../exercises/helpers.js';
import { text } from './exercise_text.js';
import { SKETCH_EXERCISES } from './sketch_exercises.js';
import { otherCase } from '../../exercises/other_case.js';

export const EXERCISES = [
  {
    id: 'efficient.memory-double', chapter: 'efficient', kind: 'number', objective: 3,
    setup({ config: c }) {
      const { n, twice } = otherCase(c, { n: { from: 'n_q' }, twice: { from: 'n_q', times: 2 } });
      return {
        params: { n, twice },
        prompt: text('exercise.efficient.this_layer_s_attention', { batch: c.batch, n_heads: c.n_heads, n: fmt.int(n), value: fmt.int(twice) }),
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n, need_weights: true } },
          { op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n: twice, need_weights: true } }],
      };
    },
    reveal({ n, twice }, [a, b]) {
      return {
        expected: b.attention_weight_bytes,
        explanation: text('exercise.efficient.core_n_n', { attention_weight_bytes: fmt.bytes(a.attention_weight_bytes), n: fmt.int(n), attention_weight_bytes2: fmt.bytes(b.attention_weight_bytes), value: fmt.int(twice) }) +
          text('exercise.efficient.each_matrix_n_n'),
      };
    },
  },
  {
    id: 'efficient.weights-off', chapter: 'efficient', kind: 'number', objective: 3,
    setup({ config: c }) {
      const n = Math.max(c.n_q, 1024);
      return {
        params: { n },
        prompt: text('exercise.efficient.n_with_need_weights', { n: fmt.int(n) }),
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n, need_weights: false } },
          { op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n, need_weights: true } }],
      };
    },
    reveal({ n }, [off, on]) {
      return {
        expected: off.memory.weights,
        explanation: text('exercise.efficient.core_s_memory_plan', { weights: fmt.bytes(off.memory.weights), total: fmt.bytes(off.memory.total) }) +
          text('exercise.efficient.against_with_total_takes', { weights: fmt.bytes(on.memory.weights), total: fmt.bytes(on.memory.total) }) +
          text('exercise.efficient.usual_mistake_thinking_attention'),
      };
    },
  },
  {
    id: 'efficient.flash-same', chapter: 'efficient', kind: 'choice', objective: 1,
    setup({ config: c }) {
      const n = Math.min(c.n_q, 256), d_k = Math.min(c.d_k, 256); // the core runs both on random inputs: kept small
      return {
        params: { n, d_k },
        prompt: text('exercise.efficient.flashattention_never_holds_matrix', { n, d_k }),
        choices: [
          { key: 'same', label: text('exercise.efficient.same_up_float_rounding') },
          { key: 'approx', label: text('exercise.efficient.approximation_that_gets_better') },
          { key: 'top', label: text('exercise.efficient.output_largest_weights_only') },
        ],
        calls: [{ op: 'flashVsStandard', args: { n, d_k, block: 4, seed: 1 } }],
      };
    },
    reveal({ n }, [f]) {
      return {
        expected: f.max_difference < 1e-4 ? 'same' : 'approx',
        explanation: text('exercise.efficient.core_ran_both_same', { key_blocks: f.key_blocks, max_difference: fmt.num(f.max_difference, 9) }) +
          text('exercise.efficient.each_new_block_rescales') +
          text('exercise.efficient.usual_mistake_taking_flashattention'),
      };
    },
  },
  {
    id: 'efficient.linear-crossover', chapter: 'efficient', kind: 'choice', objective: 3,
    setup({ config: c }) {
      return {
        params: { n: c.n_q, d_k: c.d_k, d_v: c.d_v },
        prompt: text('exercise.efficient.linear_attention_q_k', { n_q: fmt.int(c.n_q), d_k: c.d_k, d_v: c.d_v }),
        choices: [
          { key: 'linear', label: text('exercise.efficient.linear_attention') },
          { key: 'softmax', label: text('exercise.efficient.softmax_attention') },
        ],
        calls: [{ op: 'linearAttentionCost', args: { n: c.n_q, d_k: c.d_k, d_v: c.d_v } }],
      };
    },
    reveal({ n }, [cost]) {
      return {
        expected: cost.linear.total < cost.softmax.total ? 'linear' : 'softmax',
        explanation: text('exercise.efficient.core_counts_flops_softmax', { total: fmt.int(cost.softmax.total), total2: fmt.int(cost.linear.total), n: fmt.int(n) }) +
          text('exercise.efficient.linear_attention_wins_from', { crossover_n: fmt.int(cost.crossover_n) }),
      };
    },
  },
  {
    id: 'efficient.kv-step', chapter: 'efficient', kind: 'number', objective: 3,
    setup({ config: c }) {
      const t = c.n_q;
      return {
        params: { t },
        prompt: text('exercise.efficient.decoding_with_k_v', { t }),
        tolerance: {},
        calls: [{ op: 'maskGrid', args: { mask: 'causal', n_q: t + 1, n_k: t + 1 } },
          { op: 'decodeCost', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, t: t + 1 } }],
      };
    },
    reveal({ t }, [grid, cost]) {
      const seen = visible(grid, t, t + 1);
      return {
        expected: seen.length,
        explanation: text('exercise.efficient.new_token_row_causal', { t, value: t + 1, length: seen.length }) +
          text('exercise.efficient.earlier_rows_are_not', { step_flops: fmt.int(cost.step_flops), recompute_flops: fmt.int(cost.recompute_flops) }) +
          text('exercise.efficient.less_cache_holds_usual', { speedup: fmt.num(cost.speedup, 1), cache_bytes: fmt.bytes(cost.cache_bytes) }),
      };
    },
  },
  ...SKETCH_EXERCISES,
];
