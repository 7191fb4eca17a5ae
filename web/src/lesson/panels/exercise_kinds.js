// The words of the exercises panel's newer kinds (features/exercises/kinds/), by id: lesson/text.js
// serves them, and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'exercises.design_your_row': 'The row your query gives, as the engine computed it:',
  'exercises.design_one_answer': '{value}, one of the settings that do the job (yours is graded by running it)',
  'exercises.step_inputs': 'The head’s query q and each key’s rows of K and V',
  'exercises.step_worked': 'The stages worked out so far: ? is your number, … one left for you to work out',
  'exercises.step_where': 'Step {stage} of {count}. “?” is the number asked; “…” marks numbers left for you to work out.',
  'exercises.step_done': 'All {count} steps done: the whole row, as the engine computed it.',
  'exercises.step_ask': 'Your number for {what}:',
  'exercises.step_row.scores': 'q·kⱼ',
  'exercises.step_row.scaled': '÷ √d_k',
  'exercises.step_row.max': 'max',
  'exercises.step_row.exp': 'exp(· − max)',
  'exercises.step_corner': 'stage \\ key',
  'exercises.step_row.sum': 'sum',
  'exercises.step_row.weights': 'weight',
  'exercises.step_row.output': 'output (x = 0, 1)',
  'exercises.step_practice': 'Practice (the last step again):',
  'exercises.sketch_legend':
    'Filled bars: your row. Dashed outlines: the engine’s row, drawn with its largest weight at the height of your tallest bar (only proportions count).',
  'exercises.sketch_help':
    'Drag over the bars to draw the row (or focus a bar: ←/→ choose it, ↑/↓ set its height, Enter checks). Only the shape counts: the engine scales your bars to sum to 1.',
  'exercises.sketch_engine_weight': 'engine {weight}',
  'exercises.step_key_j': 'key j',
});
