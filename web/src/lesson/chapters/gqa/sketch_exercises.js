// The GQA chapter's sketch (issue 36): two query heads of one group read the same keys; the learner is
// given one head's scaled scores and that the other's query points the opposite way, and draws the other
// head's row. Shared keys, still its own map. Graded against the engine's row (the core's scaled
// dot-product attention of both queries over the one shared key head).
import * as fmt from '../../../model/format.js';
import { text } from './sketch_text.js';

const D_K = 4; // √d_k = 2: a score s_j is q·k_j / 2
const SCORES = [2, -1, 0, 1, -2, 0.5]; // the first head's scaled scores over the shared keys
const THRESHOLD = 0.25;
/** A score as the lesson writes it: a true minus sign. */
const score = (s) => fmt.num(s, 1).replace('-', '−');

/** Both heads' queries (ones, then minus ones) and the shared keys whose scaled scores with the first are SCORES. */
function vectors() {
  const q = [...new Array(D_K).fill(1), ...new Array(D_K).fill(-1)];
  const k = SCORES.flatMap((s) => new Array(D_K).fill((s * Math.sqrt(D_K)) / D_K));
  return { q, k };
}

export const SKETCH_EXERCISES = [
  {
    id: 'gqa.sketch-shared-keys', chapter: 'gqa', kind: 'sketch', objective: 5,
    setup() {
      const { q, k } = vectors();
      return {
        params: {},
        prompt: text('exercise.gqa.sketch_prompt', { keys: SCORES.length, threshold: fmt.num(THRESHOLD, 2) }),
        threshold: THRESHOLD,
        sketch: { keys: SCORES.map(score), query: -1 },
        calls: [{ op: 'queryRows', args: { q, k, n_q: 2, n_k: SCORES.length, d_k: D_K } }],
      };
    },
    reveal(params, [rows]) {
      const n = SCORES.length, first = rows.weights.slice(0, n), second = rows.weights.slice(n, 2 * n);
      const best = second.indexOf(Math.max(...second)), top = first.indexOf(Math.max(...first));
      return {
        expected: second, weights: second,
        explanation: text('exercise.gqa.sketch_reveal', { score: score(SCORES[best]), value: fmt.num(second[best], 2),
          top: score(SCORES[top]), own: fmt.num(first[top], 2), other: fmt.num(second[top], 2) }) +
          text('exercise.common.sketch_distance', { threshold: fmt.num(THRESHOLD, 2) }),
      };
    },
  },
];
