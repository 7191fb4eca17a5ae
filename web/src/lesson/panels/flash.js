// The words of the flash panel (features/flash/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'flash.waiting_engine': 'Waiting for the engine…',
  'flash.traced_row_this_key': 'The traced row at this key block',
  'flash.slow_memory_traffic_elements': 'Slow-memory traffic (elements read and written)',
  'flash.how_tiles_walk': 'How the tiles walk through the matrix',
  'flash.n_q_n_k':
    'The n_q × n_k matrix never reaches slow memory: B_r query rows at a time meet the keys and values in blocks of B_c, ',
  'flash.each_row_keeping_running':
    'each row keeping a running maximum m, a running sum ℓ of exp(logit − m) and an unnormalised output. When a block raises m, ',
  'flash.sums_far_are_multiplied':
    'the sums so far are multiplied by exp(m_old − m_new) (the online softmax); after the last block o is exactly the softmax output row. ',
  'flash.q_k_v_are': 'Q, K and V are the core’s seeded N(0, 1) draws at the current sizes.',
  'flash.b_r_block_q': 'B_r (block_q)',
  'flash.b_c_block_k': 'B_c (block_k)',
  'flash.chip_memory_m_elements': 'on-chip memory M (elements)',
  'flash.engine_refused_these_settings': 'The engine refused these settings: {message}',
  'flash.skipped_no_row_this': ' (skipped: no row of this query block sees them)',
  'flash.keys_this_block': 'keys of this block',
  'flash.visible_row':
    '{key_start} … {value} ({visible} of {key_end_key_start} visible to row {query_index})',
  'flash.logits_block': 'logits of the block',
  'flash.block_s_largest_logit': 'block’s largest logit',
  'flash.m_old_new': 'm: old → new',
  'flash.rescale_exp_m_old': 'rescale exp(m_old − m_new)',
  'flash.0_nothing_summed_before': '0 (nothing summed before)',
  'flash.l_rescale_l_old': 'ℓ = rescale·ℓ_old + Σ exp(logit − m)',
  'flash.this_block_adds': '{l} (this block adds {block_sum})',
  'flash.o_after_keys_0': 'o after keys 0 … ',
  'flash.causal_mask_hides_these':
    'the causal mask hides these keys from every row of the query block, so they are never loaded',
  'flash.softmax_attention_s_row': 'softmax attention’s row',
  'flash.key_block': 'Key block {value} of {length}',
  'flash.slow_memory_traffic_elements_2':
    'Slow-memory traffic: {total} elements for standard attention, {total2} tiled',
  'flash.b_r_b_c':
    'B_r = {block_q}, B_c = {block_k}: {query_blocks} query blocks × {key_blocks} key blocks; ',
  'flash.chip_q_o_k':
    'on chip the Q, O, K and V blocks take (B_r + B_c)·(d_k + d_v) = {sram_needed} elements of M = {sram}',
  'flash.they_do_not_fit': ' — they do not fit: choose smaller blocks or a larger M.',
  'flash.paper_blocks':
    'For M = {sram} the paper’s blocks are B_c = ⌊M/4d⌋ = {paper_block_k} and B_r = min(B_c, d) = {paper_block_q} (d = max(d_k, d_v)). ',
  'flash.paper_blocks_cut':
    'A block holds at most the whole sequence (n_q = {n_q}, n_k = {n_k}), so here they are cut to B_c = {default_block_k} and B_r = {default_block_q}: a larger M only helps a longer sequence. ',
  'flash.blocks_in_use': 'In use: B_r = {block_q}, B_c = {block_k} (the sliders).',
  'flash.block_seen': ' ({visible} seen)',
  'flash.slow_memory_traffic_step': 'Slow-memory traffic by step',
  'flash.standard_attention_here_elements':
    'Standard attention: {order}, here {total} elements; tiled: {order2}, here {total2} ',
  'flash.orders_n_max_n': '({part}). The orders at n = max(n_q, n_k), d = max(d_k, d_v): ',
  'flash.n_d_n2_n2':
    'n·d + n² = {order_value}, n²·d²/M = {order_value2}. A larger M means larger blocks, fewer passes over K and V.',
  'flash.tiles_appear_once_inputs': 'The tiles appear once the inputs are valid.',
  'flash.tiling_wins_here':
    'Tiling moves less here: K and V are read {query_blocks} time(s), once per query block, and the n_q × n_k matrices are never written nor read back. ',
  'flash.tiling_loses_here':
    'Tiling moves MORE here: K and V are read {query_blocks} times, once per query block, and at these sizes the n_q × n_k matrices it avoids are smaller than those repeated reads. ',
  'flash.when_tiling_loses':
    'Tiling stops winning when the sequence is short next to d (the matrix is small) or when B_r is small (many query blocks, so K and V are read many times, for instance when M is too small for large blocks). Move B_r to 1 to see it lose.',
  'flash.previous_block': '◀ block',
  'flash.play': '▶ play',
  'flash.pause': '❚❚ pause',
  'flash.next_block': 'block ▶',
  'flash.query_row': 'query row',
  'flash.causal_mask': 'causal mask',
  'flash.skipped': 'skipped',
  'flash.quantity': 'quantity',
  'flash.value': 'value',
  'flash.keys_range': 'keys {first}…{last}{part}',
  'flash.reads_writes': '{reads} reads + {writes} writes',
  'flash.they_fit': ' (they fit).',
  'flash.times_less': '{ratio}× less',
  'flash.times_more': '{ratio}× more',
});
