// More exercises of the chapter “attention” (issue 36): one head of scaled dot-product attention, asked
// about a case not on screen (another n_q, n_k, d_model), so the answer is worked out, not read off.
// The form of an exercise: lesson/exercises/helpers.js.

import { shape } from '../../exercises/helpers.js';
import { text } from './more_exercise_text.js';
import { otherCase } from '../../exercises/other_case.js';

/** The dims of the analysed stage whose name starts with `name`, without batch and head. */
const stage = (a, name) => a.shapes.find((s) => s.name.startsWith(name)).dims.slice(2);

export const MORE_EXERCISES = [
  {
    id: 'attention.weights-shape', chapter: 'attention', kind: 'shape', objective: 1,
    setup({ config: c }) {
      const { n_q, n_k, d_model } = otherCase(c, { n_q: { plus: 2 }, n_k: { plus: 5 } });
      return {
        params: { n_q, n_k },
        prompt: text('exercise.attention.weights_shape_prompt', { n_q, n_k, d_model }),
        calls: [{ op: 'analyze', args: { d_model, n_heads: 1, attention: 'cross', n_q, n_k } }],
      };
    },
    reveal({ n_q, n_k }, [a]) {
      const A = stage(a, 'A_i');
      return { expected: A, explanation: text('exercise.attention.weights_shape_reveal', { A: shape(A), n_q, n_k }) };
    },
  },
  {
    id: 'attention.single-head-shape', chapter: 'attention', kind: 'shape', objective: 1,
    setup({ config: c }) {
      const { n, d_model } = otherCase(c, { n: { from: 'n_q', times: 2 }, d_model: { times: 2 } });
      return {
        params: { n, d_model },
        prompt: text('exercise.attention.single_head_prompt', { n, d_model }),
        calls: [{ op: 'analyze', args: { d_model, n_heads: 1, n } }],
      };
    },
    reveal({ n, d_model }, [a]) {
      const out = stage(a, 'head_i');
      return { expected: out, explanation: text('exercise.attention.single_head_reveal', { out: shape(out), n, d_model }) };
    },
  },
];
