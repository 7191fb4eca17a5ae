// The words of the heatmaps panel (features/heatmaps/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'heatmaps.output_label': 'The output rows of the shown batch item',
  'heatmaps.rows_are_queries_columns':
    'Rows are queries, columns keys; each row sums to 1. Click a small map to enlarge it, point at a cell (or use the arrow keys) to read it, click a cell to follow that query.',
  'heatmaps.batch_item_shown': 'batch item shown',
  'heatmaps.linear_0_max': 'linear, 0 to max',
  'heatmaps.each_row_max': 'each row to its max',
  'heatmaps.masked_before_softmax_weight': 'masked: −∞ before the softmax, so weight 0',
  'heatmaps.point_cell_read_weight': 'Point at a cell to read its weight.',
  'heatmaps.what_each_head_does': 'What each head does',
  'heatmaps.queries_keys_block_mean': 'queries {r} → keys {c} (block mean)',
  'heatmaps.head_attention_weights_press': 'head {value}: attention weights, press Enter to enlarge',
  'heatmaps.k_v_head': ' (K/V head {value})',
  'heatmaps.head_down_across': 'Head {value} of {n_heads}{part} · {q} down, {k} across',
  'heatmaps.batch_item_shown_0': 'batch item shown (0 to {value})',
  'heatmaps.not_run_this_size':
    'Not run: this size is analysed below but too large to compute in a browser tab.',
  'heatmaps.fix_highlighted_inputs_maps': 'Fix the highlighted inputs and the maps appear here.',
  'heatmaps.loading_engine': 'Loading the engine…',
  'heatmaps.press_run_compute_maps': 'Press Run to compute the maps (this size takes a moment).',
  'heatmaps.drawn_downsampled_each_cell':
    'Drawn downsampled: each cell is the mean of a {rowStep}×{colStep} block of the {n_q}×{n_k} matrix.',
  'heatmaps.every_key_masked': 'Every key is masked for {part} {value}{part2}: ',
  'heatmaps.softmax_over_nothing_undefined':
    'a softmax over nothing is undefined, so the engine returns zeros for those rows and reports them.',
  'heatmaps.grid_shows_first_heads':
    'The grid shows the first {MAX_SMALL} of {n_heads} heads; set head= in the address to enlarge any other.',
  'heatmaps.dropout_p_dropped_weights':
    'Dropout p = {dropout}: dropped weights are 0 and the kept ones are scaled by 1/(1 − p), so rows no longer sum to exactly 1.',
  'heatmaps.press_run_update_them': 'press Run to update them.',
  'heatmaps.current_inputs_cannot_run': 'the current inputs cannot run.',
  'heatmaps.these_maps_are_from': 'These maps are from the previous inputs; {part}',
  'heatmaps.other_heads_are_random': 'The other {length_length} heads are random projections.',
  'heatmaps.make_every_head_random': 'Make every head random',
  'heatmaps.give_three_heads_job': 'Give three heads a job (previous token, same word, first token)',
  'heatmaps.batch_item': ' of batch item {b}',
  'heatmaps.each_row_concat_head1':
    'Each row is Concat(head₁ … head_h)·Wᴼ for one query: a new {d_model}-vector that mixes the values it attended to. First {length} rows, first {cols} columns:',
  'heatmaps.sum_every_output_value': 'Sum of every output value in the batch: {output_sum}',
  'heatmaps.k_v_head_heads': 'K/V head {value}: heads {value2}–{value3}',
  'heatmaps.grouped_query_attention_key':
    'Grouped-query attention: {n_kv_heads} key/value heads, each shared by {per} query heads (query head i, counted from 1 as the maps are, reads key/value head ⌈i / {per}⌉). ',
  'heatmaps.heads_one_group_take':
    'Heads of one group take the same keys and values; only their queries differ. {value}{part}.',
  'heatmaps.first_row_previous':
    ' Its first query, “{first}”, has no token before it, yet its weights must add up to 1: {weight} go to “{word}”, the key whose position looks most like one before the start.',
  'heatmaps.built_look_token_just': 'built to look at the token just before each query (previous token).',
  'heatmaps.built_look_other_places':
    'built to look at the other places of the query’s word (same word); a word seen once has nowhere to look, so its row spreads out.',
  'heatmaps.built_look_first_token': 'built to look at the first token, whatever the query (first token).',
  'heatmaps.built_spread_every_row':
    'built to spread every row evenly over the keys it may see (uniform): the plain average of the values.',
  'heatmaps.random_projections_no_job':
    'random projections, no job, as in an untrained layer: its pattern comes from chance.',
  'heatmaps.learnt_training_lab_not':
    'learnt in the training lab, not built: its job is whatever training found useful.',
  'heatmaps.words_become_vectors_random':
    'The words become vectors at random (a word always gets the same one). ',
  'heatmaps.projection_weights_are_random':
    '{words}The projection weights are random too: this layer is untrained, so any pattern here comes from chance, not from what the words mean. A trained model learns its embeddings and weights from data.',
  'heatmaps.no_head_random': 'No head is random.',
  'heatmaps.other_heads_are_random_2':
    'The other heads are random projections: their patterns come from chance.',
  'heatmaps.constructed_whose_w_w':
    '{words}Constructed: {list}, whose Wᴽ and Wᴷ were built for that pattern, not learnt. {others}',
  // The words of the toolbar, the legend, the captions and the readout (words a sentence is built from).
  'heatmaps.log_decades': 'log, 3 decades',
  'heatmaps.colour_scale': 'colour scale',
  'heatmaps.legend_weight': 'weight',
  'heatmaps.legend_masked': 'masked',
  'heatmaps.axis_queries': 'queries',
  'heatmaps.axis_keys': 'keys',
  'heatmaps.axis_decoder_queries': 'decoder queries',
  'heatmaps.axis_encoder_keys': 'encoder keys',
  'heatmaps.job_head': 'Head {value}',
  'heatmaps.output_title': 'Output{item}: {n_q} × {d_model}',
  'heatmaps.output_row': 'query {value}',
  'heatmaps.job_name_previous': 'previous token',
  'heatmaps.job_name_same_word': 'same word',
  'heatmaps.job_name_first_token': 'first token',
  'heatmaps.job_name_uniform': 'uniform',
  'heatmaps.pattern_previous': 'previous',
  'heatmaps.pattern_same_word': 'same word',
  'heatmaps.pattern_first_token': 'first token',
  'heatmaps.pattern_uniform': 'uniform',
  'heatmaps.built_head': 'head {value} ({pattern})',
  'heatmaps.computing': 'Computing…',
  'heatmaps.query_to_key': 'query {r}{q_word} → key {c}{k_word}',
  'heatmaps.readout': 'head {value} · {where}: weight {weight}{masked}',
  'heatmaps.readout_masked': ' (masked)',
  'heatmaps.masked_query_one': 'query',
  'heatmaps.masked_query_many': 'queries',
  'heatmaps.small_caption': 'head {value}{job}',
  'heatmaps.small_job': ' · {job}',
  'heatmaps.small_kv': '{caption} · K/V {value}',
});
