// The words an author's exercise uses when the author gives none of their own (a hint, an explanation)
// and the messages about an author's lesson: lesson text like any other (an author may replace them too).
import { addText } from './text.js';

addText({
  'author.default_hint': 'Look again at what the playground shows for this layer: the engine computes {quantity} from it.',
  'author.engine_computed': 'The engine computes {quantity} = {expected} for this layer.',
  'author.argument_outside_layer': '{id} asks about {arg} {value}, outside this layer (0…{max}: {bound} is {count})',
  'author.lesson_refused': 'Your lesson file is not used: {message}',
});
