// The words of the query panel (features/query/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'query.logits_before_softmax': 'logits (before the softmax)',
  'query.weights_after': 'weights (after it)',
  'query.6_scores_before_softmax': 'Scores before the softmax, head {value}',
  'query.each_row_one_query':
    'Each row is one query’s logits (blue below 0, red above, each table to its own largest size) and its weights. ',
  'query.without_division_logits_are':
    'Without the division by √{d_k} the logits are {d_k2} times larger, and the softmax turns them into weights close to 0 or 1.',
  'query.this_layer_runs_without': ' This layer runs without the scale (the right-hand pair).',
  'query.without_scale': 'without the scale',
  'query.click_cell_i_j':
    'Choose a query i, a key j and a head here (or click a cell (i, j) of an attention map where one is shown) to follow that query through the layer with the engine’s numbers.',
  'query.panel_fills_once_layer': 'The panel fills once the layer has run.',
  'query.no_query_chosen_yet': 'No query chosen yet.',
  'query.choose': 'choose…',
  'query.not_0': '{name}={value} is not in 0…{value2}',
  'query.cannot_follow_this_query': 'Cannot follow this query: {value}.',
  'query.trace_failed': 'The trace failed: {message}',
  'query.query_head_imported_attention':
    'Query {query}{part}, head {value}{part2}: imported attention weights',
  'query.these_weights_are_imported':
    'These weights are imported attention maps. The query, key and value rows, the scores, the ',
  'query.logits_softmax_steps_head':
    'logits, the softmax steps and the head’s output need the layer that made them, which an import of maps alone does not carry: ',
  'query.import_inputs_parameters_query':
    'import the inputs and parameters (query, wq, wk, wv, wo…) to follow them here.',
  'query.imported_weights_query_head': 'Imported weights of query {query}, head {value}: one row per key',
  'query.1_query_key_head': 'Query {query}{wq} and key {key}{wk} (head {value}{part})',
  'query.query_numbers_d_model': 'x for query {query}: {length} numbers (d_model)',
  'query.numbers_d_k': '{part}: {d_k} numbers (d_k)',
  'query.kj_key_s_row': 'kⱼ: key {key}{wk}’s row of this head’s K',
  'query.q_cdot_k_sum': 'q_{{query}}\\cdot k_{{key}}=\\sum_{t=1}^{{d_k}} q_t k_t=',
  'query.key_masked_this_query':
    'Key {key}{wk} is masked for this query: its logit is −∞, so its weight is 0.',
  'query.score_q_k': 'score q·k',
  'query.logit_no_scaling': 'logit (no scaling)',
  'query.3_softmax_over_query': 'The softmax over query {query}’s row',
  'query.every_key_masked_this':
    'Every key is masked for this query: a softmax over nothing is undefined, so the engine gives weights 0 and reports the row.',
  'query.max_logits_exp_logit':
    'max of the logits = {max}; exp(logit − max) keeps every exponential ≤ 1; their sum = {sum}; weight = exp ÷ sum',
  'query.then_dropout_p_dropped':
    ', then dropout p = {dropout}: dropped keys 0, kept ones × 1/(1 − p) = {keep_scale}.',
  'query.softmax_query_head_one': 'Softmax of query {query}, head {value}: one row per key',
  'query.exp_logit_max': 'exp(logit − max)',
  'query.not_1_with_dropout': 'not 1 with dropout',
  'query.4_head_row_j': 'head{value} row {query} = Σⱼ aᵢⱼ vⱼ',
  'query.largest_non_zero_weights':
    'The {length} largest of the {length2} non-zero weights, with their value rows (d_v = {d_v}):',
  'query.no_key_has_non': 'No key has a non-zero weight: the head’s row is 0.',
  'query.value_row_key_weight': 'value row of key {j}, weight {value}',
  'query.head_s_output_query': 'head {value}\'s output for query {query}: {d_v} numbers',
  'query.5_concat_row_output': 'Concat row {query} and the output',
  'query.head_s_numbers_sit':
    'Head {value}’s {d_v} numbers sit at positions {value2}…{value3} (highlighted) of the {length} in the Concat row.',
  'query.same_numbers_row': ', the same numbers as row ',
  'query.output_table': ' of the output table',
  'query.output_row_concati_w': 'output row {query} = Concatᵢ·Wᴼ{part}: {length} numbers (d_model){part2}.',
  'query.view_whole_head_s':
    'The view of a whole head’s logits is drawn for small examples only (n_q × n_k up to {MAX_LOGIT_CELLS}; here {value}).',
  'query.scores_view_could_not': 'The scores view could not be computed: {message}',
  'query.corner_query_key': 'query \\ key',
  'query.pick_query': 'query i',
  'query.pick_key': 'key j',
  'query.pick_head': 'head',
  'query.tracing': 'Tracing…',
  'query.vector_numbers': '{name}: {length} numbers',
  'query.batch_item': ', batch item {item}',
  'query.col.key': 'key',
  'query.col.weight_imported': 'weight (imported)',
  'query.col.chart': 'chart',
  'query.col.sum': 'sum',
});
