// The words of the positional panel (features/positional/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'positional.identical_tokens_no_position':
    'identical tokens, no position: every visible key gets the same weight',
  'positional.q_k_turned_their': 'q and k turned by their positions: the weight depends on i − j only',
  'positional.penalty_slope_i_j': 'a penalty slope × (i − j) on the logits: near keys win',
  'positional.attention_weights_head_1':
    'attention weights of head 1 with {value}: queries down, keys across',
  'positional.computing_with_engine': 'Computing with the engine…',
  'positional.positions_logits_rope_alibi': 'Positions on the logits: RoPE and ALiBi',
  'positional.rope_turns_each_pair':
    'RoPE turns each pair (2t, 2t+1) of a head’s q and k by the angle pos·base^(−2t/d_k), so q·k sees only how far apart two tokens are; ',
  'positional.alibi_adds_m_i':
    'ALiBi adds −m·(i − j) to each head’s scaled logits. Below, a small causal head reads the same token at every position: only position tells the keys apart.',
  'positional.alibi_s_slope_per': 'ALiBi’s slope per head, RoPE’s logit per offset',
  'positional.last_row_query_without':
    'Last row (query {value}): without a method every key gets {value2}; with ALiBi the nearest key gets ',
  'positional.first_with_rope_weights':
    '{value} and the first {value2}; with RoPE the weights run from {value3} ',
  'positional.set_distance_alone_head':
    'to {value}, set by the distance alone. Head 1’s slope here is {value2} ({heads} heads).',
  'positional.alibi_s_slopes_this':
    'ALiBi’s slopes for this layer’s {n_heads} heads (the paper’s rule: 2^(−8(h+1)/H) for H a power of two; ',
  'positional.otherwise_slopes_power_two':
    'otherwise the slopes of the power of two below H, then every other slope of the one above):',
  'positional.penalty_10_tokens_back': 'penalty 10 tokens back',
  'positional.first_64_heads': 'The first 64 of {length} heads.',
  'positional.rope_s_logit_q':
    'RoPE’s logit q·k/√d_k of one q and one k (d_k = {rope_d_k}), the query at position i and the key at i − offset: ',
  'positional.each_row_holds_one':
    'each row holds one offset, and its numbers agree however far along the sequence the pair sits.',
  'positional.offset_i_j': 'offset i − j',
  'positional.positional_encoding_positions_down': 'positional encoding: positions down, dimensions across',
  'positional.point_cell_read_pe': 'Point at a cell to read PE(pos, i).',
  'positional.shuffled_tokens_get_same':
    'Shuffled tokens get the same weights, just shuffled; so each position adds sines and cosines of different wavelengths, as the sentence inputs do.',
  'positional.pos_dimensions_mean': 'pos {r}, dimensions {c_colStep}–{value} (mean): {v}',
  'positional.pe_pos_dimension': 'PE(pos {r}, dimension {c}) = {v} ({part})',
  'positional.d_model_too_wide':
    'd_model = {d_model} is too wide to draw here (up to {MAX_D_MODEL}); the encoding is the same formula at any width.',
  'positional.columns_averaged_blocks': ' (columns averaged in blocks of {colStep})',
  'positional.pe_positions_d_model':
    'PE for {n} positions × d_model = {d_model}{part}; colour from −1 to 1.',
  'positional.every_value_lies_1': 'The largest |PE| over these positions is {max_abs}.',
  'positional.pe_positions_asked':
    'PE for {n} positions × d_model = {d_model}{part}; the colour scale’s ends are given once you have answered the exercise on the range.',
  'positional.largest_after_you_answer': 'The largest |PE| over these positions: shown after you answer the exercise on the range.',
  'positional.each_position_distinct_closest':
    'Each position is distinct: the closest two (positions {value} and {value2}) are still {min_distance} apart.',
  'positional.pe_pos_pe_pos':
    'PE(pos + {offset_k}) is PE(pos) rotated, pair by pair, by a fixed angle: applying that rotation reproduces it to within {value}.',
  'positional.no_encoding_these_sizes': 'No encoding for these sizes: {message}',
  'positional.chosen_slopes':
    'The map is head 1 of a small {heads}-head layer. With ALiBi, your layer’s {n_heads} heads would get slopes m_h from {first} (head 1, the steepest) down to {last} (head {n_heads}).',
  'positional.all_three_side_by_side': 'The three methods side by side',
  'positional.chosen_title': 'The method chosen in the inputs (“positions on the logits”): {value}.',
  'positional.chosen_row_none':
    'Its last row (query {query}): every key gets {own}. With nothing but position to tell the keys apart and no method, the head cannot tell them apart at all: order is invisible.',
  'positional.chosen_row_rope':
    'Its last row (query {query}): the weights run from {low} to {high}, and they change with the distance i − j, the same pattern wherever the query stands.',
  'positional.chosen_row_alibi':
    'Its last row (query {query}): the query’s own token gets {own}, the first token {first}. Every step back costs the same slope on the score, so the weights fall off with distance.',
  'positional.name_none': 'no method',
  'positional.name_rope': 'RoPE',
  'positional.name_alibi': 'ALiBi',
  'positional.head': 'head',
  'positional.slope_m': 'slope m',
  'positional.pair_n': 'pair {n}',
  'positional.not_computed': 'Not computed: {message}',
});
