// The exercises of the chapter “cost” (cost: parameters, FLOPs, memory): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { shape, analyzeArgs } from '../../exercises/helpers.js';
import { text } from './exercise_text.js';
import { MORE_EXERCISES } from './more_exercises.js';
import { otherCase } from '../../exercises/other_case.js';

/** The live layer twice as wide, its head count kept: a layer not on screen, whose counts the core gives. */
const twiceAsWide = (c) => otherCase(c, { d_model: { times: 2 }, d_k: { times: 2 }, d_v: { times: 2 } });

export const EXERCISES = [
  {
    id: 'cost.params-nobias', chapter: 'cost', kind: 'number', objective: 4,
    setup({ config: c }) {
      const w = twiceAsWide(c);
      return {
        params: { d_model: w.d_model, n_heads: w.n_heads },
        prompt: text('exercise.cost.how_many_parameters_does', { d_model: fmt.int(w.d_model), n_heads: w.n_heads, d_k: w.d_k, d_v: w.d_v }),
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: w.d_model, n_heads: w.n_heads, d_k: w.d_k, d_v: w.d_v, bias: false, n: 1 } }],
      };
    },
    reveal({ n_heads }, [a]) {
      const p = a.params;
      return {
        expected: p.total,
        explanation: text('exercise.cost.core_counts_w_w', { w_q: fmt.int(p.w_q), w_k: fmt.int(p.w_k), w_v: fmt.int(p.w_v), w_o: fmt.int(p.w_o), total: fmt.int(p.total) }) +
          text('exercise.cost.usual_mistake_multiplying_heads', { n_heads }),
      };
    },
  },
  {
    id: 'cost.params-bias', chapter: 'cost', kind: 'number', objective: 2,
    setup({ config: c }) {
      const w = twiceAsWide(c);
      return {
        params: {},
        prompt: text('exercise.cost.same_layer_with_biases', { d_model: fmt.int(w.d_model), n_heads: w.n_heads, d_k: w.d_k, d_v: w.d_v }),
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: w.d_model, n_heads: w.n_heads, d_k: w.d_k, d_v: w.d_v, bias: true, n: 1 } }],
      };
    },
    reveal(_, [a]) {
      const p = a.params;
      return {
        expected: p.total,
        explanation: text('exercise.cost.core_weights_plus_biases', { weights: fmt.int(p.weights), biases: fmt.int(p.biases), b_q: fmt.int(p.b_q), b_k: fmt.int(p.b_k), b_v: fmt.int(p.b_v), b_o: fmt.int(p.b_o), total: fmt.int(p.total) }) +
          text('exercise.cost.usual_mistake_counting_bias'),
      };
    },
  },
  {
    id: 'cost.dominant', chapter: 'cost', kind: 'choice', objective: 3,
    setup({ config: c }) {
      return {
        params: { n: c.n_q, d: c.d_model },
        prompt: text('exercise.cost.n_tokens_d_which', { n_q: fmt.int(c.n_q), d_model: fmt.int(c.d_model) }),
        choices: [
          { key: 'projections', label: text('exercise.cost.projections_about_n_d2') },
          { key: 'attention', label: text('exercise.cost.attention_matrix_scores_weighted') },
          { key: 'softmax', label: text('exercise.cost.softmax_about_n2') },
        ],
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, n: c.n_q } }],
      };
    },
    reveal(_, [a]) {
      const f = a.flops, l = f.lesson;
      return {
        expected: f.projections_dominate_lesson ? 'projections' : 'attention',
        explanation: text('exercise.cost.core_s_count_projections', { projections: fmt.short(l.projections), scores: fmt.short(l.scores), weighted_sum: fmt.short(l.weighted_sum), softmax: fmt.short(l.softmax), dominant_reason: f.dominant_reason }) +
          text('exercise.cost.usual_mistake_assuming_attention'),
      };
    },
  },
  {
    id: 'cost.attention-shape', chapter: 'cost', kind: 'shape', objective: 3,
    setup({ config: c }) {
      return {
        params: {},
        prompt: text('exercise.cost.one_pass_this_layer', { batch: c.batch, n_heads: c.n_heads, n_q: c.n_q, n_k: c.n_k }),
        calls: [{ op: 'analyze', args: analyzeArgs(c) }],
      };
    },
    reveal(_, [a]) {
      const A = a.shapes.find((s) => s.name.startsWith('A_i')).dims;
      return {
        expected: A,
        explanation: text('exercise.cost.core_s_shape_trace', { A: shape(A), value: A[2], value2: A[3], value3: A[1], value4: A[0] }) +
          text('exercise.cost.usual_mistake_counting_one'),
      };
    },
  },
  {
    id: 'cost.attention-bytes', chapter: 'cost', kind: 'number', objective: 3,
    setup({ config: c }) {
      const more = otherCase(c, { n_heads: { times: 2 }, n_kv_heads: { times: 2 } }); // twice the heads, the same grouping
      return {
        params: {},
        prompt: text('exercise.cost.how_many_bytes_do', { batch: c.batch, n_heads: more.n_heads, n_q: c.n_q, n_k: c.n_k }),
        tolerance: {},
        calls: [{ op: 'analyze', args: analyzeArgs(c, { n_heads: more.n_heads, n_kv_heads: more.n_kv_heads }) }],
      };
    },
    reveal(_, [a]) {
      const A = a.shapes.find((s) => s.name.startsWith('A_i')).dims;
      return {
        expected: a.attention_weight_bytes,
        explanation: text('exercise.cost.core_weights_4_bytes', { A: shape(A), attention_weight_bytes: fmt.bytes(a.attention_weight_bytes) }) +
          text('exercise.cost.usual_mistakes_forgetting_batch'),
      };
    },
  },
  ...MORE_EXERCISES,
];
