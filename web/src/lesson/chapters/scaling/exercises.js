// The exercises of the chapter “scaling” (scaling: why √d_k): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { text } from './exercise_text.js';
import { MORE_EXERCISES } from './more_exercises.js';
import { SKETCH_EXERCISES } from './sketch_exercises.js';
import { otherCase } from '../../exercises/other_case.js';

export const EXERCISES = [
  {
    id: 'scaling.variance-unscaled', chapter: 'scaling', kind: 'number', objective: 1,
    setup({ config: c }) {
      // Twice the live d_k: the chapter's panel measures the live one, its variance written out.
      const { d_k } = otherCase(c, { d_k: { times: 2 } });
      return {
        params: { d_k },
        prompt: text('exercise.scaling.q_k_have_d', { d_k }),
        tolerance: { rel: 0.15 },
        calls: [{ op: 'sqrtDkStats', args: { d_k, n_k: 16, samples: 4000, seed: 1 } }],
      };
    },
    reveal({ d_k }, [s]) {
      return {
        expected: s.dot_variance,
        explanation: text('exercise.scaling.over_sampled_pairs_core', { samples: fmt.int(s.samples), dot_variance: fmt.num(s.dot_variance, 2), d_k }) +
          text('exercise.scaling.rows_such_scores_are', { max_weight_unscaled: fmt.num(s.max_weight_unscaled, 2), max_weight_scaled: fmt.num(s.max_weight_scaled, 2) }) +
          text('exercise.scaling.usual_mistake_answering_1'),
      };
    },
  },
  {
    id: 'scaling.variance-scaled', chapter: 'scaling', kind: 'number', objective: 1,
    setup({ config: c }) {
      // Divided by d_k, not √d_k (the chapter shows the √d_k one, about 1): why the square root.
      const { d_k } = otherCase(c, { d_k: { times: 2 } });
      return {
        params: { d_k },
        prompt: text('exercise.scaling.same_q_k_with', { d_k }),
        tolerance: { rel: 0.15 },
        calls: [{ op: 'sqrtDkStats', args: { d_k, n_k: 16, samples: 4000, seed: 1 } }],
      };
    },
    reveal({ d_k }, [s]) {
      const over_d_k = s.scaled_variance / d_k; // (q·k/√d_k)/√d_k: the core's scaled variance divided by d_k once more
      return {
        expected: over_d_k,
        explanation: text('exercise.scaling.core_measures_unscaled_dividing', { value: fmt.num(over_d_k, 4), scaled_variance: fmt.num(s.scaled_variance, 3), dot_variance: fmt.num(s.dot_variance, 1), d_k }) +
          text('exercise.scaling.softmax_keeps_entropy_nats', { entropy_scaled: fmt.num(s.entropy_scaled, 2), entropy_unscaled: fmt.num(s.entropy_unscaled, 2), max_entropy: fmt.num(s.max_entropy, 2) }) +
          text('exercise.scaling.usual_mistake_thinking_scale', { d_k }),
      };
    },
  },
  {
    id: 'scaling.gradient', chapter: 'scaling', kind: 'choice', objective: 1,
    setup({ config: c }) {
      const small = c.d_k < 512 ? c.d_k : 16;
      return {
        params: { small },
        prompt: text('exercise.scaling.d_k_512_without'),
        choices: [
          { key: 'vanishes', label: text('exercise.scaling.becomes_tiny_most_rows') },
          { key: 'explodes', label: text('exercise.scaling.grows_with_d_k') },
          { key: 'same', label: text('exercise.scaling.stays_about_large_with') },
          { key: 'nan', label: text('exercise.scaling.becomes_nan') },
        ],
        calls: [{ op: 'sqrtDkGradients', args: { d_k_values: [small, 512], n_k: 64, samples: 64, seed: 1 } }],
      };
    },
    reveal({ small }, [g]) {
      const [lo, hi] = g.rows;
      const u = hi.unscaled.score_grad_median, s = hi.scaled.score_grad_median;
      const expected = !Number.isFinite(u) ? 'nan' : u * 10 < s ? 'vanishes' : u > s * 10 ? 'explodes' : 'same';
      return {
        expected,
        explanation: text('exercise.scaling.core_s_backward_pass', { u: fmt.num(u, 6), s: fmt.num(s, 3) }) +
          text('exercise.scaling.d_k_unscaled_unscaled', { small, score_grad_median: fmt.num(lo.unscaled.score_grad_median, 3), saturated_share: fmt.percent(hi.unscaled.saturated_share) }) +
          text('exercise.scaling.softmax_row_that_one'),
      };
    },
  },
  ...MORE_EXERCISES,
  ...SKETCH_EXERCISES,
];
