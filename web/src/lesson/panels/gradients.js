// The words of the gradients panel (features/gradients/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'gradients.table_label': 'The gradient reaching the scores and the rows’ sharpness, by d_k',
  'gradients.from_d_k_d': 'from {u0} at d_k = {d_k} to {u1} at d_k = {d_k2}',
  'gradients.without_scale_typical_row':
    'Without the scale, the typical row’s gradient (the median of ‖∂L/∂S‖ over {samples} rows) falls {span}: ',
  'gradients.times_smaller_orders_magnitude': '{fall} times smaller, {fall2} orders of magnitude.',
  'gradients.without_scale_typical_row_2':
    'Without the scale, the typical row’s gradient falls {span}: {fall}× smaller.',
  'gradients.without_scale_typical_row_3':
    'Without the scale, the typical row’s gradient goes {span}: at these sizes it hardly moves.',
  'gradients.with_scale_stays_between': 'With the scale it stays between {value} and {value2} ',
  'gradients.spread_because_scores_keep':
    '({part}a spread of {scaled_spread}×), because the scores keep unit variance at every d_k.',
  'gradients.without_rows_d_k':
    'Without it, {saturated_share} of the rows at d_k = {d_k} are nearly one-hot ',
  'gradients.largest_weight_above_0':
    '(largest weight above 0.99; {saturated_share} at d_k = {d_k}) and the entropy falls from ',
  'gradients.nats_with': '{entropy} to {entropy2} nats; with it, ',
  'gradients.no_row_saturates': 'no row saturates',
  'gradients.most_rows_saturate': 'at most {satScaled} of rows saturate',
  'gradients.entropy_stays_near': '{part} and the entropy stays near ',
  'gradients.mean_over_rows_falls':
    'The mean over rows falls far less ({meanFall}×): the rows not yet saturated keep sizeable gradients, ',
  'gradients.few_rows_still_learn': 'so a few rows still learn while the typical row has all but stopped.',
  'gradients.waiting_engine': 'Waiting for the engine…',
  'gradients.entropy_uniform': '{entropy} (uniform: ln {n_k} = {max_entropy}).',
  'gradients.after_you_answer':
    'The plot of the measured gradients is shown after you answer the exercise on them: predict first what happens without the scale.',
  'gradients.numbers_fold': 'The numbers behind the plot',
  'gradients.backward_pass_initialisation_q':
    'The backward pass at initialisation: q, k and v with independent N(0, 1) components, {n_k} keys, ',
  'gradients.loss_that_random_linear':
    'and a loss that is a random linear read-out of the output (scaled so that ∂L/∂A has unit-variance entries at every d_v = d_k). ',
  'gradients.s_softmax_s_input':
    'S is the softmax’s input (the scores); ‖∂L/∂S‖ is what the softmax lets through to the queries and keys.',
  'gradients.gradient_reaching_scores_against':
    'Gradient reaching the scores against d_k, with and without 1/√d_k',
  'gradients.measuring_d_k_with': 'Measuring d_k = {value} with and without the scale…',
  'gradients.median_l_s_scaled': 'median ‖∂L/∂S‖, scaled',
  'gradients.rows_near_one_hot': 'rows near one-hot, unscaled',
  'gradients.entropy_unscaled_nats': 'entropy, unscaled (nats)',
  'gradients.measurement_did_not_finish': 'The measurement did not finish: {message}.',
  'gradients.l_s_per_row': '‖∂L/∂S‖ per row',
  'gradients.scaled_median': 'scaled, median',
  'gradients.unscaled_median': 'unscaled, median',
  'gradients.scaled_mean': 'scaled, mean',
  'gradients.unscaled_mean': 'unscaled, mean',
});
