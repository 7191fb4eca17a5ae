// The attention chapter's designs (issue 36): choose the query q = (a, b) of a 2-d head whose keys are
// k_j = (1, j), so that the head does a stated job. The engine runs every allowed q (a, b from −4 to 4)
// and the reveal keeps those that do the job; the learner's row is drawn after Check.
import * as fmt from '../../../model/format.js';
import { text } from './more_exercise_text.js';

const N_K = 6, RANGE = 4;
const FIELDS = [{ name: 'a', min: -RANGE, max: RANGE }, { name: 'b', min: -RANGE, max: RANGE }];
const CANDIDATES = Array.from({ length: (2 * RANGE + 1) ** 2 }, (_, i) => ({ a: Math.floor(i / (2 * RANGE + 1)) - RANGE, b: (i % (2 * RANGE + 1)) - RANGE }));
const KEYS = Array.from({ length: N_K }, (_, j) => [1, j]).flat();

/** A design exercise: `job(row)` says whether a row of weights does what the prompt asks. */
function designExercise({ id, job, prompt, explain }) {
  return {
    id, chapter: 'attention', kind: 'design', objective: 1,
    setup() {
      return {
        params: {},
        prompt: prompt({ n_k: N_K, last: N_K - 1, range: RANGE }),
        design: { fields: FIELDS, keys: Array.from({ length: N_K }, (_, j) => `(1, ${j})`), candidates: CANDIDATES },
        calls: [{ op: 'queryRows', args: { q: CANDIDATES.flatMap(({ a, b }) => [a, b]), k: KEYS, n_q: CANDIDATES.length, n_k: N_K, d_k: 2 } }],
      };
    },
    reveal(_, [{ weights }]) {
      const rows = CANDIDATES.map((_, i) => weights.slice(i * N_K, (i + 1) * N_K));
      const accept = CANDIDATES.filter((_, i) => job(rows[i]));
      return {
        // Every allowed setting's row: the learner's own row is drawn after each try (a hint shows it too).
        expected: accept[0] ?? null, accept, weights, tryWeights: true,
        explanation: explain({ answers: accept.map(({ a, b }) => `(${a}, ${b})`).slice(0, 4).join(', ') + (accept.length > 4 ? ', …' : ''), count: accept.length, n: fmt.int(CANDIDATES.length) }),
      };
    },
  };
}

export const DESIGN_EXERCISES = [
  designExercise({
    id: 'attention.design-last', job: (row) => row[N_K - 1] >= 0.9,
    prompt: (v) => text('exercise.attention.design_last_prompt', v), explain: (v) => text('exercise.attention.design_last_reveal', v),
  }),
  designExercise({
    id: 'attention.design-first', job: (row) => row[0] >= 0.9,
    prompt: (v) => text('exercise.attention.design_first_prompt', v), explain: (v) => text('exercise.attention.design_first_reveal', v),
  }),
  designExercise({
    id: 'attention.design-even', job: (row) => row.every((w) => Math.abs(w - 1 / N_K) <= 0.01),
    prompt: (v) => text('exercise.attention.design_even_prompt', v), explain: (v) => text('exercise.attention.design_even_reveal', v),
  }),
];
