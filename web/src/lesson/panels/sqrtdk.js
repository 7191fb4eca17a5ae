// The words of the sqrtdk panel (features/sqrtdk/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'sqrtdk.nearly_one_hot_one':
    'nearly one-hot: one key takes almost the whole row, and the softmax’s gradients nearly vanish',
  'sqrtdk.peaked_one_key_takes': 'peaked: one key takes most of the row',
  'sqrtdk.somewhat_peaked_largest_weight':
    'somewhat peaked: the largest weight is {value}× the uniform 1/{keys}',
  'sqrtdk.close_uniform_1_each': 'close to uniform (1/{keys} = {uniform} each)',
  'sqrtdk.waiting_engine': 'Waiting for the engine…',
  'sqrtdk.lab_appears_once_inputs': 'The lab appears once the inputs are valid.',
  'sqrtdk.lab_cannot_sample_d':
    'The lab cannot sample d_k = {d_k}: {message}. Choose a smaller d_k (a smaller d_model, or more heads) to see it.',
  'sqrtdk.keys_rather_than_d': ' ({keys} keys rather than {n_k}: at d_k = {d_k} more would not be instant)',
  'sqrtdk.with_d_k_1': 'With d_k = 1, √d_k = 1: dividing changes nothing, so both columns are the same.',
  'sqrtdk.over_keys_without_scale':
    'Over {keys} keys, without the scale one key takes {max_weight_unscaled} of a row on average: {unscaled}. ',
  'sqrtdk.draw_q_k_with':
    'Draw q and k with {d_k} independent N(0, 1) components each. Their dot product is a sum of {d_k} terms of variance 1, so its variance is d_k; dividing by √d_k = {d_k2} brings it back to 1.',
  'sqrtdk.unscaled_q_k': 'unscaled q·k',
  'sqrtdk.scaled_q_k_d': 'scaled q·k / √d_k',
  'sqrtdk.largest_weight_row_mean': 'largest weight in a row (mean)',
  'sqrtdk.softmax_entropy_uniform': 'softmax entropy (uniform = {max_entropy})',
  'sqrtdk.untick_divide_scores_d':
    ' Untick “divide the scores by √d_k” in the inputs to see the row above sharpen.',
  'sqrtdk.row_title_scaled': 'One query against {keys} keys, d_k = {d_k}, scores divided by √d_k (as the inputs say now)',
  'sqrtdk.row_title_unscaled': 'One query against {keys} keys, d_k = {d_k}, scores NOT divided by √d_k (as the inputs say now)',
  'sqrtdk.row_spoken': 'The row’s weights, key by key: {weights}',
  'sqrtdk.row_scores': 'Solid bars: the weights as the inputs compute them; dashed outlines: the same row with the box the other way. The raw scores q·k run from {low} to {high} at d_k = {d_k}. ',
  'sqrtdk.row_now_scaled': 'Divided by √d_k, the largest weight is key {key}’s, {weight}: ',
  'sqrtdk.row_now_unscaled': 'Without the scale, key {key} takes {weight} of the row: ',
  'sqrtdk.row_other_unscaled': 'untick the box and key {key} would take {weight}.',
  'sqrtdk.row_other_scaled': 'tick the box and the largest weight would be {weight} (key {key}).',
  'sqrtdk.row_not_computed': 'The row could not be computed: {message}',
  'sqrtdk.with_it': 'With it, {max_weight_scaled}: {scaled}.',
  'sqrtdk.measure': 'measure',
  'sqrtdk.variance_samples': 'variance ({samples} × {keys} samples)',
});
