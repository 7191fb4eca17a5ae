// The words of the chapter “training”'s exercises (exercises.js beside this file), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace
// any of them. Loaded with the exercises (the lazy panels' bundle), not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.training.fresh_lab_model_task':
    'A fresh lab model (task “{task}”, d_model {d_model}, {n_heads} heads, 16 possible tokens, no training yet) predicts each token. About what cross-entropy loss (in nats) will it show?',
  'exercise.training.core_evaluates_untrained_model':
    'The core evaluates the untrained model at {loss} nats with {accuracy} accuracy: it guesses nearly uniformly among {classes} tokens, ',
  'exercise.training.whose_loss_ln_2':
    'whose loss is ln {classes} ≈ 2.77. Usual mistake: expecting a loss of 0 or 1 before training; 0 is a perfect model, and a loss is not a probability.',
  'exercise.training.train_lab_copy_token':
    'Train the lab on the task “{task}” for 150 steps. Where will the heads put most of their weight?',
  'exercise.training.previous_token': 'On the previous token',
  'exercise.training.first_token': 'On the first token',
  'exercise.training.token_itself': 'On the token itself',
  'exercise.training.spread_evenly_one_layer': 'Spread evenly: one layer cannot learn positions',
  'exercise.training.core_trained_150_steps':
    'The core trained 150 steps: the heads\' mean weight on the {relation} token went from {before} to {after}, and accuracy from {accuracy} to {accuracy2}. ',
  'exercise.training.task_can_solved_only':
    'The task can be solved only by reading that position, and the positional encoding lets a head find it. Usual mistake: expecting attention to need words in common; it learns positions too.',
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.training.start-loss':
    'An untrained model guesses about evenly among the 16 possible tokens; the cross-entropy is −ln of the probability it gives the right one.',
  'exercise.hint.training.focus':
    'The target can only be read from one position of the input; a head that helps must learn to put its weight there, words or no words.',
});
