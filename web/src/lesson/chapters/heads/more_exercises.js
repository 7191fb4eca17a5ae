// More exercises of the chapter “heads” (issue 36): the projections' shapes (objective 2), one head
// derived from single-head attention (1) and why several heads (5), asked for a layer not on screen
// (three times the live d_model), so the answer is worked out, not read off. Form: lesson/exercises/helpers.js.

import * as fmt from '../../../model/format.js';
import { shape, word, sentenceOf, strongest } from '../../exercises/helpers.js';
import { text } from './more_exercise_text.js';
import { otherCase } from '../../exercises/other_case.js';

/** Three times the live d_model with the live head count: a layer not on screen. */
const wider = (c) => otherCase(c, { d_model: { times: 3 } });

export const MORE_EXERCISES = [
  {
    id: 'heads.head-shape', chapter: 'heads', kind: 'shape', objective: 1,
    setup({ config: c }) {
      const { d_model, n_heads, n } = otherCase(wider(c), { n: { from: 'n_q', plus: 4 } });
      return {
        params: { d_model, n_heads, n },
        prompt: text('exercise.heads.head_shape_prompt', { d_model: fmt.int(d_model), n_heads, n }),
        calls: [{ op: 'analyze', args: { d_model, n_heads, n } }],
      };
    },
    reveal({ d_model, n_heads, n }, [a]) {
      const dims = a.shapes.find((s) => s.name.startsWith('head_i')).dims.slice(2);
      return { expected: dims, explanation: text('exercise.heads.head_shape_reveal', { dims: shape(dims), n, d_k: a.dims.d_k, d_model: fmt.int(d_model), n_heads }) };
    },
  },
  {
    id: 'heads.per-head-params', chapter: 'heads', kind: 'number', objective: 2,
    setup({ config: c }) {
      const { d_model, n_heads } = wider(c);
      return {
        params: { d_model, n_heads },
        prompt: text('exercise.heads.per_head_prompt', { d_model: fmt.int(d_model), n_heads }),
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model, n_heads, n: 1, bias: false } }],
      };
    },
    reveal({ d_model }, [a]) {
      return { expected: a.params.per_head_q, explanation: text('exercise.heads.per_head_reveal', { d_model: fmt.int(d_model), d_k: a.dims.d_k, value: fmt.int(a.params.per_head_q) }) };
    },
  },
  {
    id: 'heads.wo-shape', chapter: 'heads', kind: 'number', objective: 2,
    setup({ config: c }) {
      const { d_model, n_heads } = wider(c);
      return {
        params: { d_model, n_heads },
        prompt: text('exercise.heads.wo_prompt', { d_model: fmt.int(d_model), n_heads }),
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model, n_heads, n: 1, bias: false } }],
      };
    },
    reveal({ d_model, n_heads }, [a]) {
      return { expected: a.params.w_o, explanation: text('exercise.heads.wo_reveal', { d_model: fmt.int(d_model), n_heads, d_v: a.dims.d_v, value: fmt.int(a.params.w_o) }) };
    },
  },
  {
    id: 'heads.subspace', chapter: 'heads', kind: 'choice', objective: 5,
    setup({ state, config: c }) {
      const n = c.n_q, i = Math.min(3, n - 1), words = sentenceOf(c, n), input_seed = Number(state.input_seed) || 1;
      const traced = (pattern) => ({ op: 'patternTrace', args: { d_model: c.d_model, n_heads: c.n_heads, pattern, words, input_seed, query_index: i } });
      return {
        params: { i, words },
        prompt: text('exercise.heads.subspace_prompt', { n_heads: c.n_heads, d_k: c.d_k, d_model: c.d_model }),
        choices: [
          { key: 'more-params', label: text('exercise.heads.subspace_more_params') },
          { key: 'subspace', label: text('exercise.heads.subspace_right') },
          { key: 'fewer-flops', label: text('exercise.heads.subspace_fewer_flops') },
          { key: 'average', label: text('exercise.heads.subspace_average') },
        ],
        calls: [traced('previous'), traced('first_token')],
      };
    },
    reveal({ i, words }, [previous, first]) {
      const a = strongest(previous.weights)[0], b = strongest(first.weights)[0];
      return {
        expected: a !== b ? 'subspace' : 'average',
        explanation: text('exercise.heads.subspace_reveal', { word: word(words, i), a: word(words, a), b: word(words, b) }),
      };
    },
  },
];
