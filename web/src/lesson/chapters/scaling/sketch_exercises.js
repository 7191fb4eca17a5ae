// The √d_k chapter's sketch (issue 36): a query's scores over eight keys are given; the learner draws the
// weights the softmax makes of them without dividing by √d_k (a nearly one-hot row), graded against the
// engine's row (the core's scaled dot-product attention with the scale off).
import * as fmt from '../../../model/format.js';
import { text } from './sketch_text.js';

const D_K = 64;
const SCORES = [2, 10, 4, 8, -2, 6, 0, 9]; // q·k per key: a lead of 1 to 2 points, so the row is sharp but not one-hot
const THRESHOLD = 0.25;

/** A query of D_K ones and keys along it whose dot products with it are SCORES (flat arrays for queryRows). */
function vectors() {
  const q = new Array(D_K).fill(1);
  const k = SCORES.flatMap((s) => new Array(D_K).fill(s / D_K));
  return { q, k };
}

export const SKETCH_EXERCISES = [
  {
    id: 'scaling.sketch-unscaled', chapter: 'scaling', kind: 'sketch', objective: 1,
    setup() {
      const { q, k } = vectors();
      const args = { q, k, n_q: 1, n_k: SCORES.length, d_k: D_K };
      return {
        params: {},
        prompt: text('exercise.scaling.sketch_prompt', { d_k: D_K, keys: SCORES.length, threshold: fmt.num(THRESHOLD, 2) }),
        threshold: THRESHOLD,
        sketch: { keys: SCORES.map((s) => fmt.num(s, 0)), query: -1 },
        calls: [{ op: 'queryRows', args: { ...args, scale: false } }, { op: 'queryRows', args }],
      };
    },
    reveal(params, [off, on]) {
      const best = off.weights.indexOf(Math.max(...off.weights));
      return {
        expected: off.weights, weights: off.weights,
        explanation: text('exercise.scaling.sketch_reveal', { score: SCORES[best], value: fmt.num(off.weights[best], 2),
          root: fmt.num(Math.sqrt(D_K), 0), scaled: fmt.num(Math.max(...on.weights), 2) }) + text('exercise.common.sketch_distance', { threshold: fmt.num(THRESHOLD, 2) }),
      };
    },
  },
];
