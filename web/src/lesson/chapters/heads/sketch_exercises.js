// The heads chapter's sketch (issue 36): draw the row a previous-token head gives one query, on a
// sentence that is not on screen; graded against the engine's row.
import { sketchExercise } from '../../exercises/sketch_exercise.js';
import { text } from './more_exercise_text.js';

export const SKETCH_EXERCISES = [
  sketchExercise({
    id: 'heads.sketch-previous', chapter: 'heads', objective: 5, pattern: 'previous',
    sentence: () => text('exercise.heads.sketch_sentence').split(' '), query: 4, threshold: 0.3,
    prompt: (values) => text('exercise.heads.sketch_prompt', values),
    explain: (values) => text('exercise.heads.sketch_reveal', values),
  }),
];
