// The training chapter's sketch (issue 36): before pressing Train, the learner draws the row that the
// head serving the task's "token just before" output will have learnt at one query. Graded against the
// engine's trained row (the lab's model trained in the core, the head with the most weight on the
// previous token), so what is compared is what training made, not a rule.
import * as fmt from '../../../model/format.js';
import { text } from './sketch_text.js';

// The lab's defaults (the chapter's first view): the two-relation task, 2 heads of a 32-wide layer, 8 tokens.
const LAB = { task: 'two_relation', d_model: 32, n_heads: 2, seq_len: 8, seed: 1 };
const STEPS = 200, QUERY = 5, THRESHOLD = 0.3;

export const SKETCH_EXERCISES = [
  {
    id: 'training.sketch-previous', chapter: 'training', kind: 'sketch', objective: 5,
    setup() {
      return {
        params: { query: QUERY },
        prompt: text('exercise.training.sketch_prompt', { steps: STEPS, tokens: LAB.seq_len, heads: LAB.n_heads, query: QUERY, threshold: fmt.num(THRESHOLD, 2) }),
        threshold: THRESHOLD,
        sketch: { keys: Array.from({ length: LAB.seq_len }, (_, j) => text('exercise.training.sketch_key', { j })), query: QUERY },
        calls: [{ op: 'trainedRows', args: { ...LAB, steps: STEPS, sample: 0, query_index: QUERY } }],
      };
    },
    reveal({ query }, [trained]) {
      // The head that reads the previous token: the one whose held-out rows put the most weight there.
      const weightOn = trained.focus.map((f) => f.previous ?? 0);
      const head = weightOn.indexOf(Math.max(...weightOn)), row = trained.rows[head];
      const best = row.indexOf(Math.max(...row));
      return {
        expected: row, weights: row,
        explanation: text('exercise.training.sketch_reveal', { head: head + 1, query, best, value: fmt.num(row[best], 2), mean: fmt.percent(weightOn[head]) }) +
          text('exercise.common.sketch_distance', { threshold: fmt.num(THRESHOLD, 2) }),
      };
    },
  },
];
