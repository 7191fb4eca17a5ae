// The words of the sparse panel (features/sparse/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'sparse.pattern_full': 'causal: every key up to the query',
  'sparse.pattern_sliding': 'sliding window {window}',
  'sparse.pattern_strided': 'strided, stride {stride}',
  'sparse.attention_s_cost_grows':
    'Attention’s cost grows with the number of (query, key) pairs computed: n² for full attention. ',
  'sparse.sparse_pattern_computes_only':
    'A sparse pattern computes only some of them. A sliding window keeps the last w keys of each query (n·w pairs); ',
  'sparse.strided_pattern_adds_s':
    'the strided pattern adds to the s − 1 nearest keys every s-th key before them, so any key is reached in two steps of attention ',
  'sparse.with_about_n_2': 'with about n·2√n pairs when s ≈ √n.',
  'sparse.mask_queries_down_keys': '{name} mask: queries down, keys across; yellow cells are computed',
  'sparse.pairs': ': {fraction} of the pairs',
  'sparse.mine_label': 'your layer’s mask: queries down, keys across; yellow cells are computed',
  'sparse.legend': 'Each map: queries down, keys across. Yellow: a pair computed; grey: a pair skipped.',
  'sparse.mine_title': 'your layer’s mask: {name}',
  'sparse.mine_padding': ': batch item {item}, its filler keys hidden',
  'sparse.maps_first_positions': ', maps of the first {shown} positions',
  'sparse.this_layer_s_sizes': 'At this layer’s sizes (n = {n}{part}), ',
  'sparse.pairs_each_pattern_computes':
    'the pairs each pattern computes per head and batch item, and the FLOPs of Q·Kᵀ and weights·V over them, as the engine counts them:',
  'sparse.q_k_v_flops': 'Q·Kᵀ + A·V FLOPs',
  'sparse.n_with_same_window': 'At n = {long_n} with the same window and stride (one batch item):',
  'sparse.causal_attention_already_skips':
    'Causal attention already skips the keys ahead: it computes {fraction} of the n² pairs. ',
  'sparse.these_counts_are_what':
    'These counts are what a sparse kernel does; the engine’s dense kernels still form every logit and set the hidden ones to −∞, with the same result.',
  'sparse.not_computed': 'Not computed: {message}',
});
