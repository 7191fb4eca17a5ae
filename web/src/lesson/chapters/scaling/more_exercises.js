// More exercises of the chapter “scaling” (issue 36): the variance of q·k for a d_k not on screen (the
// page shows the live one), so the rule, not the figure, gives the answer. Form: lesson/exercises/helpers.js.

import * as fmt from '../../../model/format.js';
import { text } from './more_exercise_text.js';
import { otherCase } from '../../exercises/other_case.js';

export const MORE_EXERCISES = [
  {
    id: 'scaling.variance-wide', chapter: 'scaling', kind: 'number', objective: 1,
    setup({ config: c }) {
      const { d_k } = otherCase(c, { d_k: { times: 6 } });
      return {
        params: { d_k },
        prompt: text('exercise.scaling.wide_prompt', { d_k }),
        tolerance: { rel: 0.15 },
        calls: [{ op: 'sqrtDkStats', args: { d_k, n_k: 16, samples: 4000, seed: 2 } }],
      };
    },
    reveal({ d_k }, [s]) {
      return { expected: s.dot_variance, explanation: text('exercise.scaling.wide_reveal', { d_k, value: fmt.num(s.dot_variance, 2), scaled: fmt.num(s.scaled_variance, 2) }) };
    },
  },
];
