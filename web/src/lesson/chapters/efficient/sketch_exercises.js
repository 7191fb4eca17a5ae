// The efficient chapter's sketch (issue 36): ten copies of one token under a strided mask; the learner
// draws the last query's row (even over the keys the pattern keeps, 0 elsewhere), graded against the
// engine's row (a layer's head fed the same token at every position, with the core's strided mask).
import * as fmt from '../../../model/format.js';
import { text } from './sketch_text.js';

const N = 10, STRIDE = 3, THRESHOLD = 0.2;

export const SKETCH_EXERCISES = [
  {
    id: 'efficient.sketch-strided', chapter: 'efficient', kind: 'sketch', objective: 3,
    setup() {
      const query = N - 1;
      return {
        params: { query },
        prompt: text('exercise.efficient.sketch_prompt', { n: N, stride: STRIDE, query, threshold: fmt.num(THRESHOLD, 2) }),
        threshold: THRESHOLD,
        sketch: { keys: Array.from({ length: N }, (_, j) => text('exercise.efficient.sketch_key', { j })), query },
        calls: [{ op: 'positionRow', args: { d_model: 32, n_heads: 2, n: N, mask: 'strided', stride: STRIDE, query_index: query } }],
      };
    },
    reveal({ query }, [row]) {
      const seen = row.weights.map((w, j) => (w > 0 ? j : -1)).filter((j) => j >= 0);
      return {
        expected: row.weights, weights: row.weights,
        explanation: text('exercise.efficient.sketch_reveal', { query, keys: seen.join(', '), count: seen.length, value: fmt.num(row.weights[query], 3) }) +
          text('exercise.common.sketch_distance', { threshold: fmt.num(THRESHOLD, 2) }),
      };
    },
  },
];
