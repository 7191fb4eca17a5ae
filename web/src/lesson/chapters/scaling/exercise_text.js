// The words of the chapter “scaling”'s exercises (exercises.js beside this file), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace
// any of them. Loaded with the exercises (the lazy panels' bundle), not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.scaling.q_k_have_d':
    'q and k have d_k = {d_k} independent components, each of mean 0 and variance 1. What is the variance of q·k (no scale)?',
  'exercise.scaling.over_sampled_pairs_core':
    'Over {samples} sampled pairs the core measures a variance of {dot_variance}: about d_k = {d_k}, because q·k adds {d_k} products of variance 1. ',
  'exercise.scaling.rows_such_scores_are':
    'Rows of such scores are sharp: the largest weight averages {max_weight_unscaled} unscaled against {max_weight_scaled} scaled. ',
  'exercise.scaling.usual_mistake_answering_1':
    'Usual mistake: answering 1 (the variance of one component) or √d_k (the standard deviation).',
  'exercise.scaling.same_q_k_with':
    'The same q·k with d_k = {d_k}, divided by d_k instead of √d_k: what would its variance be?',
  'exercise.scaling.core_measures_unscaled_dividing':
    'The core measures {dot_variance} unscaled and {scaled_variance} divided by √d_k, so divided by d_k it is {value}, about 1/{d_k}: a factor inside a variance counts squared. Such scores are nearly equal, the softmax nearly flat; √d_k is the one scale that keeps the variance at 1 whatever d_k is, ',
  'exercise.scaling.softmax_keeps_entropy_nats':
    'and the softmax keeps an entropy of {entropy_scaled} nats (unscaled: {entropy_unscaled}; uniform: {max_entropy}). ',
  'exercise.scaling.usual_mistake_thinking_scale':
    'Usual mistake: 1/√{d_k}, forgetting that a factor inside a variance counts squared.',
  'exercise.scaling.d_k_512_without':
    'At d_k = 512, without dividing by √d_k, what happens to the gradient that reaches the scores at initialisation?',
  'exercise.scaling.becomes_tiny_most_rows':
    'It becomes tiny: most rows saturate and let almost nothing through',
  'exercise.scaling.grows_with_d_k': 'It grows with d_k, as the scores do',
  'exercise.scaling.stays_about_large_with': 'It stays about as large as with the scale',
  'exercise.scaling.becomes_nan': 'It becomes NaN',
  'exercise.scaling.core_s_backward_pass':
    'The core\'s backward pass: the typical row\'s ‖∂L/∂S‖ is {u} unscaled at d_k = 512 against {s} scaled ',
  'exercise.scaling.d_k_unscaled_unscaled':
    '(at d_k = {small}: {score_grad_median} unscaled). {saturated_share} of the unscaled rows are nearly one-hot, ',
  'exercise.scaling.softmax_row_that_one':
    'and a softmax row that is one-hot passes almost no gradient back. Usual mistake: expecting larger scores to give larger gradients; the softmax saturates instead.',
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.scaling.variance-unscaled':
    'q·k is a sum of d_k products q_i·k_i. What is the variance of one such product of two independent unit-variance numbers, and how do variances of independent terms add?',
  'exercise.hint.scaling.variance-scaled':
    'Dividing a quantity by a constant c divides its variance by c², not by c.',
  'exercise.hint.scaling.gradient':
    'Think about what large scores do to a softmax row: is it spread out or nearly one-hot, and how much does a one-hot row change when a score moves a little?',
});
