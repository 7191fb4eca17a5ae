// The positions chapter's sketch (issue 36): eight copies of one token under ALiBi, in a head whose slope
// is steeper than the panel's; the learner draws the last query's row (a fall-off with distance), graded
// against the engine's row (a causal layer's head fed the same token at every position).
import * as fmt from '../../../model/format.js';
import { text } from './sketch_text.js';

const N = 8, N_HEADS = 8, D_MODEL = 64, THRESHOLD = 0.2;

export const SKETCH_EXERCISES = [
  {
    id: 'positions.sketch-alibi', chapter: 'positions', kind: 'sketch', objective: 1,
    setup() {
      const query = N - 1;
      return {
        params: { query },
        prompt: text('exercise.positions.sketch_prompt', { n: N, heads: N_HEADS, query, threshold: fmt.num(THRESHOLD, 2) }),
        threshold: THRESHOLD,
        sketch: { keys: Array.from({ length: N }, (_, j) => text('exercise.positions.sketch_key', { j })), query },
        calls: [{ op: 'positionRow', args: { d_model: D_MODEL, n_heads: N_HEADS, n: N, positional: 'alibi', head: 0, query_index: query } },
          { op: 'alibiSlopes', args: { n_heads: N_HEADS } }],
      };
    },
    reveal({ query }, [row, slopes]) {
      return {
        expected: row.weights, weights: row.weights,
        explanation: text('exercise.positions.sketch_reveal', { slope: fmt.num(slopes[0], 3), own: fmt.num(row.weights[query], 2),
          first: fmt.num(row.weights[0], 2), factor: fmt.num(row.weights[query - 1] / row.weights[query], 2) }) +
          text('exercise.common.sketch_distance', { threshold: fmt.num(THRESHOLD, 2) }),
      };
    },
  },
];
