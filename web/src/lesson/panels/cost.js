// The words of the cost panel (features/cost/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'cost.bias_names': 'b_Q, b_K, b_V, b_O',
  'cost.cost_appears_once_inputs': 'The cost appears once the inputs are valid.',
  'cost.heads_of_weights': '{n_heads} heads of {per_head} weights each',
  'cost.one_head_of_weights': 'one head of {per_head} weights',
  'cost.key_heads_shared': '{kvh} key heads of {per_head_k} weights each, shared',
  'cost.w_all_heads': 'Wᴽ (all heads)',
  'cost.w_all_heads_2': 'Wᴷ (all heads)',
  'cost.w_key_value_heads': 'Wᴷ (key/value heads)',
  'cost.w_all_heads_3': 'Wⱽ (all heads)',
  'cost.w_key_value_heads_2': 'Wⱽ (key/value heads)',
  'cost.value_heads_shared': '{kvh} value heads of {per_head_v} weights each, shared',
  'cost.mixes_heads': 'mixes the heads',
  'cost.plus_4_d_model': ', plus 4·d_model = {value} biases',
  'cost.that_4_d_model2':
    'That is 4·d_model² = 4 × {d_model}² = {value} weights{part}, whatever n_heads is: heads split the same matrices into slices, they do not add weights.',
  'cost.w_w_have_one':
    'Wᴷ and Wⱽ have one slice per key/value head, not per query head, so the total is less than 4·d_model².',
  'cost.with_d_k_or':
    'With d_k or d_v set by hand the matrices are no longer square, so the total is not 4·d_model².',
  'cost.with_key_value_heads':
    'With {kvh} key/value heads shared by the {n_heads} query heads (grouped-query attention), ',
  'cost.w_w_are_layer':
    'Wᴷ and Wⱽ are {d_model} × {value}: the layer has {params_gqa} parameters against {params_mha} with one key/value head per query head. ',
  'cost.forward_pass_heatmaps_runs':
    'The forward pass (and the heatmaps) runs this grouped layer: every {value} query heads read the same keys and values.',
  'cost.parameters_one_attention_layer': 'Parameters of one attention layer',
  'cost.weighted_sum_av': 'weighted sum AV',
  'cost.without_softmax': 'without the softmax',
  'cost.flops_which_term_dominates': 'FLOPs: which term dominates',
  'cost.stage_macs': '{macs} multiply-adds',
  'cost.which_dominates_here': 'Which term dominates at this n? Predict, then open the counts',
  'cost.lesson_counts_one_projection': 'As the lesson counts (one projection, a multiply-add = 1 operation)',
  'cost.lesson_writes_n2_n':
    'The lesson writes n² for n queries against n keys; here {n_q} queries (n_q) meet {n_k} keys (n_k), so n² becomes n_q·n_k.',
  'cost.exactly_stage_stage_flops': 'Exactly, stage by stage: {exact_flops} FLOPs',
  'cost.whole_batch_2_flops': 'Whole batch, 2 FLOPs per multiply-add.',
  'cost.exact_count_lesson_s':
    'The exact count is {ratio}× the lesson\'s: it has all four projections (Q, K, V and the output), ',
  'cost.counts_multiply_add_two':
    'counts a multiply-add as two FLOPs, multiplies by batch = {batch}, and includes the scaling and the softmax. ',
  'cost.both_counts_agree_which': 'Both counts agree on which term dominates.',
  'cost.here_two_counts_disagree':
    'Here the two counts disagree on which term dominates: the four projections tip the balance.',
  'cost.mask_leaves_query_key':
    'The mask ({mask}) leaves {visible_pairs} of the {total_pairs} (query, key) pairs visible ({fraction}): ',
  'cost.kernel_that_skips_hidden':
    'a kernel that skips the hidden ones does {score_flops_weighted_sum_flops} FLOPs for Q·Kᵀ and A·V instead of ',
  'cost.counts_above_are_dense':
    '{dense_score_flops_dense_weighted_sum_flops}. The counts above are the dense ones: this engine computes every logit and sets the hidden ones to −∞.',
  'cost.attention_weights_alone_h':
    'The attention weights alone: h × batch = {n_heads} × {batch} = {matrices} matrices of ',
  'cost.they_grow_with_n2': '. They grow with n², the reason long contexts are expensive.',
  'cost.one_forward_pass_part': 'One forward pass: {total}, part by part',
  'cost.one_forward_pass': 'one forward pass',
  'cost.tab_s_budget': '{value} of the tab\'s budget',
  'cost.too_large_run_here': ': too large to run here',
  'cost.this_tab_s_budget': '{value} of this tab\'s budget of {budget}{part}.',
  'cost.last_run_previous_inputs': 'Last run (previous inputs)',
  'cost.wall_time_forward_pass': 'wall time of the forward pass',
  'cost.per_pass_timed_over': ' per pass, timed over {repeats} passes',
  'cost.weights_inputs': 'weights and inputs',
  'cost.scores_qkt': 'scores QKᵀ',
  'cost.here_reason': 'Here {reason}.',
  'cost.memory': 'Memory',
  'cost.part_inputs': 'inputs',
  'cost.part_outputs': 'outputs',
  'cost.part_attention_weights': 'attention weights',
  'cost.part_working_buffers': 'working buffers',
  'cost.part_parameters': 'parameters',
  'cost.weights_floats_bytes': '{n_q} × {n_k} floats, {matrices} · {n_q} · {n_k} · 4 B = ',
  'cost.this_run': 'This run',
  'cost.speed': 'speed',
  'cost.module': 'module',
  'cost.symbol_h_d_k': 'h·d_k', // the lesson's symbols of a width (features/cost/terms.js)
  'cost.symbol_h_d_v': 'h·d_v',
});
