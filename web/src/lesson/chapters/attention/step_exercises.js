// The attention chapter's step sequence (issue 36): one query of a tiny head (d_k = 4, four keys, d_v = 2)
// worked by hand, stage after stage, from numbers small enough for a calculator. The case is not the
// playground's (whose numbers the Follow one query panel shows): its answers are not on screen.
import { stepExercise } from '../../exercises/step_exercise.js';
import { text } from './step_exercise_text.js';

export const STEP_CASE = Object.freeze({
  q: [1, 0.5, -1, 2],
  k: [[0.5, 1, 0, 0.5], [2, 0, 1, 1], [0, 2, 1, 0], [1, 1, 0, 1.4]],
  v: [[1, 0], [0, 1], [1, 1], [2, -1]],
  // Key 1 throughout (not the max, so its exponential is below 1), then output coordinate 0.
  stages: [{ name: 'score', at: 1 }, { name: 'scaled', at: 1 }, { name: 'max' }, { name: 'exp', at: 1 }, { name: 'sum' }, { name: 'weight', at: 1 }, { name: 'output', at: 0 }],
});

export const STEP_EXERCISES = [
  stepExercise({
    id: 'attention.follow-step', chapter: 'attention', objective: 1, ...STEP_CASE,
    tolerance: { abs: 0.005, rel: 0.01 },
    prompt: (v) => text('exercise.attention.step_prompt', v),
    explain: (name, v) => text(`exercise.attention.step_reveal.${name}`, v),
    hint: (name, v) => text(`exercise.attention.step_hint.${name}`, v),
  }),
];
