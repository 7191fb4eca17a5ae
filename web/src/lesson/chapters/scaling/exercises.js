// The exercises of the chapter “scaling” (scaling: why √d_k): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';

export const EXERCISES = [
  {
    id: 'scaling.variance-unscaled', chapter: 'scaling', kind: 'number',
    setup({ config: c }) {
      return {
        params: { d_k: c.d_k },
        prompt: `q and k have d_k = ${c.d_k} independent components, each of mean 0 and variance 1. What is the variance of q·k (no scale)?`,
        tolerance: { rel: 0.15 },
        calls: [{ op: 'sqrtDkStats', args: { d_k: c.d_k, n_k: 16, samples: 4000, seed: 1 } }],
      };
    },
    reveal({ d_k }, [s]) {
      return {
        expected: s.dot_variance,
        explanation: `Over ${fmt.int(s.samples)} sampled pairs the core measures a variance of ${fmt.num(s.dot_variance, 2)}: about d_k = ${d_k}, because q·k adds ${d_k} products of variance 1. ` +
          `Rows of such scores are sharp: the largest weight averages ${fmt.num(s.max_weight_unscaled, 2)} unscaled against ${fmt.num(s.max_weight_scaled, 2)} scaled. ` +
          'Usual mistake: answering 1 (the variance of one component) or √d_k (the standard deviation).',
      };
    },
  },
  {
    id: 'scaling.variance-scaled', chapter: 'scaling', kind: 'number',
    setup({ config: c }) {
      return {
        params: { d_k: c.d_k },
        prompt: `The same q·k with d_k = ${c.d_k}, divided by √d_k as attention does: what is its variance now?`,
        tolerance: { abs: 0.15 },
        calls: [{ op: 'sqrtDkStats', args: { d_k: c.d_k, n_k: 16, samples: 4000, seed: 1 } }],
      };
    },
    reveal({ d_k }, [s]) {
      return {
        expected: s.scaled_variance,
        explanation: `The core measures ${fmt.num(s.scaled_variance, 3)} (unscaled: ${fmt.num(s.dot_variance, 1)}). Dividing by √d_k divides the variance by d_k, so it is about 1 whatever d_k is, ` +
          `and the softmax keeps an entropy of ${fmt.num(s.entropy_scaled, 2)} nats (unscaled: ${fmt.num(s.entropy_unscaled, 2)}; uniform: ${fmt.num(s.max_entropy, 2)}). ` +
          `Usual mistake: thinking the scale divides the variance by √d_k (giving √${d_k}); a factor inside a variance counts squared.`,
      };
    },
  },
  {
    id: 'scaling.gradient', chapter: 'scaling', kind: 'choice',
    setup({ config: c }) {
      const small = c.d_k < 512 ? c.d_k : 16;
      return {
        params: { small },
        prompt: 'At d_k = 512, without dividing by √d_k, what happens to the gradient that reaches the scores at initialisation?',
        choices: [
          { key: 'vanishes', label: 'It becomes tiny: most rows saturate and let almost nothing through' },
          { key: 'explodes', label: 'It grows with d_k, as the scores do' },
          { key: 'same', label: 'It stays about as large as with the scale' },
          { key: 'nan', label: 'It becomes NaN' },
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
        explanation: `The core's backward pass: the typical row's ‖∂L/∂S‖ is ${fmt.num(u, 6)} unscaled at d_k = 512 against ${fmt.num(s, 3)} scaled ` +
          `(at d_k = ${small}: ${fmt.num(lo.unscaled.score_grad_median, 3)} unscaled). ${fmt.percent(hi.unscaled.saturated_share)} of the unscaled rows are nearly one-hot, ` +
          'and a softmax row that is one-hot passes almost no gradient back. Usual mistake: expecting larger scores to give larger gradients; the softmax saturates instead.',
      };
    },
  },
];
