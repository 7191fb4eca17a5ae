// The words of the linear panel (features/linear/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'linear.how_it_computes': 'How linear attention computes',
  'linear.flops_term_by_term': 'The FLOPs term by term',
  'linear.waiting_engine': 'Waiting for the engine…',
  'linear.softmax_linear_attention_output': 'Softmax and linear attention output rows',
  'linear.linear_attention_katharopoulos_et':
    'Linear attention (Katharopoulos et al., 2020) replaces exp(q·k/√d_k) by φ(q)·φ(k) with φ(x) = elu(x) + 1 > 0. ',
  'linear.then_sums_over_keys':
    'Then the sums over keys can be taken once, S = Σ_j φ(k_j)·v_jᵀ (d_k × d_v) and z = Σ_j φ(k_j), and each row costs φ(q_i)ᵀ·S / φ(q_i)ᵀ·z: ',
  'linear.o_n_d_k':
    'O(n·d_k·d_v) instead of O(n²·d). It is another attention, not an approximation of the softmax: compare the rows below.',
  'linear.causal_sums_over_j': 'causal (sums over j ≤ i: prefix sums of S and z)',
  'linear.engine_refused_these_sizes': 'The engine refused these sizes: {message}',
  'linear.output_rows_n_d': 'Output rows, n = {n}, d_k = {d_k}, d_v = {d_v}',
  'linear.largest_difference_over_all': 'Largest difference over all {n} rows: {max_difference} ',
  'linear.largest_softmax_output': '(the largest softmax output is {max_softmax}). ',
  'linear.row_0_sees_only':
    'Row 0 sees only key 0 in both, so both give v_0 there; later rows weigh the keys differently. ',
  'linear.each_output_weighted_mean':
    'Each output is a weighted mean of the values in both, with other weights: φ(q)·φ(k) instead of exp(q·k/√d_k).',
  'linear.flops_one_head_n': 'FLOPs of one head at n = {n} ({pairs})',
  'linear.flops_one_head_step': 'FLOPs of one head by step',
  'linear.linear_attention_costs_less': 'Linear attention costs less from n = {crossover_n} on ',
  'linear.2_d_causal_mask': '2·d, the causal mask halving the pairs',
  'linear.softmax_attention_grows_n2':
    '(softmax attention grows as n²·(d_k + d_v), linear attention as n·d_k·d_v: they meet near n ≈ {part}). ',
  'linear.n_softmax_attention_takes': 'At n = {n} softmax attention takes ',
  'linear.flops_linear_attention': '{ratio}× the FLOPs of linear attention.',
  'linear.fewer_flops_than_linear': '{value}× fewer FLOPs than linear attention.',
  'linear.comparison_appears_once_inputs': 'The comparison appears once the inputs are valid.',
  'linear.row': 'row',
  'linear.softmax_attention': 'softmax attention',
  'linear.linear_attention': 'linear attention',
  'linear.softmax_flops': 'softmax FLOPs',
  'linear.linear_flops': 'linear FLOPs',
  'linear.cheaper': 'cheaper',
});
