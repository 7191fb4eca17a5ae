// What the chapters' `step` exercises share (issue 36): a faded worked example of one query through a
// tiny head whose q, K and V are the chapter's data. The core traces the row (traceAttention: scores,
// scaled scores, max, exp, sum, weights, output); the learner computes the stages' numbers one at a time
// (a score, its scaled value, the row max, an exponential, the sum, a weight, an output coordinate), each
// from the numbers shown. Each right answer hides more of the next stage's worked numbers. The session
// keeps the learner's place (step_rules.js); this file says what each stage asks and what is on show.

import * as fmt from '../../model/format.js';
import { text } from './step_text.js';
import { stepSession } from './step_session.js';

/** The rows of the worked example, in order: the trace's array (or number) each stage asks about. */
const ROWS = { score: 'scores', scaled: 'scaled', max: 'max', exp: 'exp', sum: 'sum', weight: 'weights', output: 'output' };

/**
 * A step exercise: { id, chapter, objective, q, k (n_k rows), v (n_k rows), stages: [{ name (a ROWS key),
 * at (the key, or the output coordinate; none for max and sum) }], tolerance, prompt(values), explain(name,
 * values) → the stage's words after it is answered, hint(name, values) → the words after a first wrong try }.
 */
export function stepExercise({ id, chapter, objective, q, k, v, stages, tolerance, prompt, explain, hint }) {
  const n_k = k.length, d_k = q.length, d_v = v[0].length;
  const value = (trace, s) => (s.at === undefined ? trace[ROWS[s.name]] : trace[ROWS[s.name]][s.at]);
  const values = (trace, s) => ({ at: s.at, value: fmt.num(value(trace, s), 4), d_k, n_k, max: fmt.num(trace.max, 4), sum: fmt.num(trace.sum, 4) });
  return {
    id, chapter, kind: 'step', objective,
    /** A session's part for step exercises (step_session.js): loaded with this definition, not with the first view. */
    stepSession,
    setup() {
      return {
        params: {},
        prompt: prompt({ n_k, d_k, d_v, count: stages.length }),
        tolerance,
        sequence: { q, k, v, stages: stages.map((s) => ({ ...s, label: text(`exercise.step.ask.${s.name}`, { at: s.at ?? '' }) })) },
        calls: [{ op: 'traceRow', args: { q: q.slice(), k: k.flat(), v: v.flat(), n_k, d_k, d_v } }],
      };
    },
    /** The first stage's answer (a host's first answer() is graded against it). */
    reveal(params, [trace]) {
      return this.stage(params, [trace], 0);
    },
    /** Stage `s`'s answer and its words: { expected, explanation, hint, name }. */
    stage(params, [trace], s) {
      const st = stages[Math.min(s, stages.length - 1)];
      return { name: st.name, expected: value(trace, st), explanation: explain(st.name, values(trace, st)), hint: hint(st.name, values(trace, st)) };
    },
    /**
     * What is on show at stage `s` after `passed` right answers: { stage: s, count, ask, rows: { scores, …:
     * arrays with null where hidden, or a number / null } }. Stages before s are shown whole; stage s
     * hides the asked number and `passed` more of its row (the fading); later stages hide everything.
     */
    worked(params, [trace], { stage: s, passed }) {
      const rows = {};
      stages.forEach((st, i) => {
        const all = trace[ROWS[st.name]];
        if (i < s || s >= stages.length) rows[ROWS[st.name]] = Array.isArray(all) || ArrayBuffer.isView(all) ? Array.from(all) : all;
        else if (i > s || st.at === undefined) rows[ROWS[st.name]] = st.at === undefined ? null : Array.from(all, () => null);
        else {
          const hide = new Set([st.at]);
          for (let j = 0; j < all.length && hide.size <= passed; j++) hide.add(j);
          rows[ROWS[st.name]] = Array.from(all, (x, j) => (hide.has(j) ? null : x));
        }
      });
      return { stage: s, count: stages.length, ask: s < stages.length ? stages[s].name : null, rows };
    },
  };
}
