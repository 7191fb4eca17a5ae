// The attention chapter's sketch (issue 36): draw the row a head built to look at other occurrences of
// the same word gives one query, on a sentence that is not on screen; graded against the engine's row.
import { sketchExercise } from '../../exercises/sketch_exercise.js';
import { text } from './more_exercise_text.js';

export const SKETCH_EXERCISES = [
  sketchExercise({
    id: 'attention.sketch-same-word', chapter: 'attention', objective: 1, pattern: 'same_word',
    sentence: () => text('exercise.attention.sketch_sentence').split(' '), query: 6, threshold: 0.3,
    prompt: (values) => text('exercise.attention.sketch_prompt', values),
    explain: (values) => text('exercise.attention.sketch_reveal', values),
  }),
];
