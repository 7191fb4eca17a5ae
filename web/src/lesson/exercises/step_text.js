// The words of the step exercises' shared parts (step_exercise.js): what each stage asks, by id. lesson/text.js
// serves them; an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'exercise.step.ask.score': 'the score q·k of key {at}',
  'exercise.step.ask.scaled': 'the scaled score of key {at}',
  'exercise.step.ask.max': 'the row’s max',
  'exercise.step.ask.exp': 'exp(scaled − max) of key {at}',
  'exercise.step.ask.sum': 'the sum of the exponentials',
  'exercise.step.ask.weight': 'the weight of key {at}',
  'exercise.step.ask.output': 'output coordinate {at}',
});
