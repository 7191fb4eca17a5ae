// The words of the exercises panel (features/exercises/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'exercises.every_exercise_this_chapter': 'Every exercise of this chapter',
  'exercises.predict_then_check_engine':
    'Predict, then check: the engine answers on your layer and explains why.',
  'exercises.answered_right': '{done} of {total} done · {value} right · {first} right at the first try{part}',
  'exercises.no_exercises_here': 'No exercises here{part}.',
  'exercises.not_answered_yet': 'not answered yet',
  'exercises.this_exercise_uses_current': 'This exercise uses the current layer.',
  'exercises.your_answer_shape_2': 'your answer (a shape: 2×4×8×8, 2x4x8x8 or 2,4,8,8)',
  'exercises.row_query_pick_key': 'Row of query {part}: pick the key',
  'exercises.key_index_0': 'Key index (0 to {value}) ',
  'exercises.asking_engine': 'Asking the engine…',
  'exercises.engine_s_answer': 'The engine’s answer: {expected}. ',
  'exercises.show_answer': 'Show answer',
  'exercises.hint': 'Hint: {hint}',
  'exercises.the_answer': 'the answer', // an exercise's id in an error message, as the learner reads it
  'exercises.try_again': 'Try again: after a second wrong try the engine’s answer is shown.',
  'exercises.right_after_shown': 'Right, after the answer was shown (this does not raise the score). ',
  'exercises.status_retry': 'answered wrong, one more try',
  'exercises.status_right': 'answered right',
  'exercises.status_revealed': 'answer shown',
  'exercises.status_solved': ' · solved',
  'exercises.status_shown': ' · answer shown',
  'exercises.previous': ' Previous',
  'exercises.next': 'Next ',
  'exercises.exercises': 'Exercises',
  'exercises.not_exercises_after': ' · not exercises: {ids}',
  'exercises.not_exercises_paren': ' (not exercises: {ids})',
  'exercises.exercise_of': 'Exercise {n} of {total}',
  'exercises.exercise_status': 'Exercise {n}: {status}',
  'exercises.not_available': 'Not available: {reason}.',
  'exercises.check': 'Check',
  'exercises.not_checked': 'Not checked: {message}.',
  'exercises.your_answer_tolerance': 'your answer ({tolerance})',
  'exercises.one_attempt': '1 attempt{state}',
  'exercises.attempts': '{attempts} attempts{state}',
  'exercises.not_quite': 'Not quite. ',
  'exercises.right': 'Right. ',
  'exercises.grid_corner': 'query, key',
  'exercises.grid_weight': 'weight {weight}',
});
