// The words of the examples panel (features/examples/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'examples.waiting_engine': 'Waiting for the engine…',
  'examples.could_not_compute': 'The worked examples could not be computed: {message}',
  'examples.try_again': 'Try again',
  'examples.each_figure_below_was':
    'Each figure below was just computed in your browser by the engine (the same C++ analysis code that sizes the layer of the heatmaps, compiled to WebAssembly), then compared with the figure printed in the lesson; a figure the lesson does not print says “computed” or “info” and has no lesson figure beside it. ',
  'examples.all_them_match': 'All of them match.',
  'examples.some_do_not_match': 'Some do not match: see the ✗ marks.',
  'examples.not_lesson_shown_comparison': 'not in the lesson: shown for comparison',
  'examples.matches_lesson': 'matches the lesson',
  'examples.computed_not_lesson': 'computed: the lesson does not print it',
  'examples.agrees_our_count': 'agrees with an exact count of ours',
  'examples.does_not_match': 'does not match',
  'examples.matches_lesson_2': '✓ matches the lesson',
  'examples.load_into_inputs': 'Load {id} into the inputs',
  'examples.no_biases': 'no biases',
  'examples.info': 'info',
  'examples.mismatch': '✗ mismatch',
  'examples.figure': 'figure',
  'examples.lesson': 'lesson',
  'examples.computed': 'computed',
  'examples.check': 'check',
});
