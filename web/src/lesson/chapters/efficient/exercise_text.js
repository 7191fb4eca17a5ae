// The words of the chapter “efficient”'s exercises (exercises.js beside this file), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace
// any of them. Loaded with the exercises (the lazy panels' bundle), not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.efficient.this_layer_s_attention':
    'This layer\'s attention weights (batch {batch}, {n_heads} heads, float32) at n = {n} queries and keys. How many bytes do they take at n = {value}?',
  'exercise.efficient.core_n_n':
    'The core: {attention_weight_bytes} at n = {n}, {attention_weight_bytes2} at n = {value}. ',
  'exercise.efficient.each_matrix_n_n':
    'Each matrix is n×n, so doubling n makes it four times larger. Usual mistake: doubling the bytes; that is what K, V and the output do, not the attention matrix.',
  'exercise.efficient.n_with_need_weights':
    'At n = {n} with need_weights off (the engine streams over keys), how many bytes does one pass of this layer hold for the n×n attention weights?',
  'exercise.efficient.core_s_memory_plan':
    'The core\'s memory plan: {weights} for the weights with need_weights off (pass total {total}), ',
  'exercise.efficient.against_with_total_takes':
    'against {weights} with it on (total {total}). It takes a few rows of scores at a time and keeps a running softmax, so no n×n matrix exists. ',
  'exercise.efficient.usual_mistake_thinking_attention':
    'Usual mistake: thinking attention must materialise the whole matrix; only returning it does.',
  'exercise.efficient.flashattention_never_holds_matrix':
    'FlashAttention never holds the {n}×{n} matrix: it takes the keys in blocks of 4 and keeps a running softmax (a running maximum, sum and output). Compared with standard attention on the same q, k and v (d_k = {d_k}), its output is:',
  'exercise.efficient.same_up_float_rounding': 'The same, up to float rounding',
  'exercise.efficient.approximation_that_gets_better':
    'An approximation that gets better with larger blocks',
  'exercise.efficient.output_largest_weights_only': 'The output of the largest weights only',
  'exercise.efficient.core_ran_both_same':
    'The core ran both on the same random inputs: {key_blocks} key blocks per query block, and the outputs differ by at most {max_difference}. ',
  'exercise.efficient.each_new_block_rescales':
    'Each new block rescales what was summed so far by e^(m_old − m_new), so after the last block the result is exactly softmax(S)·V; only the order of the work changed. ',
  'exercise.efficient.usual_mistake_taking_flashattention':
    'Usual mistake: taking FlashAttention for an approximation, like sparse or linear attention; it saves memory traffic, not accuracy.',
  'exercise.efficient.linear_attention_q_k':
    'Linear attention (φ(q)ᵀ·Σ φ(k)·vᵀ) costs about n·d_k·d_v, softmax attention about n²·d. For n = {n_q}, d_k = {d_k} and d_v = {d_v}, which needs fewer FLOPs?',
  'exercise.efficient.core_counts_flops_softmax':
    'The core counts {total} FLOPs for softmax attention and {total2} for linear attention at n = {n}; ',
  'exercise.efficient.linear_attention_wins_from':
    'linear attention wins from n = {crossover_n} on. Usual mistake: taking linear attention as always cheaper; below about n = d it is not, and its output is not softmax attention\'s either.',
  'exercise.efficient.decoding_with_k_v':
    'Decoding with a K/V cache: {t} tokens are cached, and a new token arrives. Its query attends to how many keys?',
  'exercise.efficient.new_token_row_causal':
    'The new token is row {t} of a causal mask over {value} positions; the core\'s grid leaves {length} keys visible: the {t} cached ones and its own. ',
  'exercise.efficient.earlier_rows_are_not':
    'The earlier rows are not computed again: the core counts {step_flops} FLOPs for this step against {recompute_flops} to recompute the prefix ',
  'exercise.efficient.less_cache_holds_usual':
    '({speedup}× less), and the cache holds {cache_bytes}. Usual mistake: leaving out the new token\'s own key, or recomputing the whole prefix.',
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.efficient.memory-double':
    'Each attention matrix is n × n: when n doubles, both its rows and its columns double.',
  'exercise.hint.efficient.weights-off':
    'With need_weights off the engine streams over the keys with a running softmax: does any n × n matrix of weights exist at any moment?',
  'exercise.hint.efficient.flash-same':
    'The running softmax rescales what it has summed so far each time a larger maximum appears. After the last block, is anything left out or approximated?',
  'exercise.hint.efficient.linear-crossover':
    'Compare n with d: softmax attention grows like n²·d, linear attention like n·d_k·d_v. Which factor is larger at this n?',
  'exercise.hint.efficient.kv-step':
    'The new token\'s row of a causal mask sees every cached token and also itself.',
  'exercise.efficient.linear_attention': 'Linear attention',
  'exercise.efficient.softmax_attention': 'Softmax attention',
});
