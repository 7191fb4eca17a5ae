// The words of the gqa panel (features/gqa/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'gqa.sharing_key_value_heads':
    'Sharing key/value heads keeps every query, so the maps can still differ, while Wᴷ, Wⱽ and above all the key/value cache a text-writing model keeps for every past token shrink.',
  'gqa.comparison_appears_once_inputs': 'The comparison appears once the inputs are valid.',
  'gqa.current_sizes_d_model': 'At the current sizes (d_model {d_model}, {n_heads} query heads)',
  'gqa.memory_one_pass': 'memory of one pass',
  'gqa.k_v_cache_per': 'K/V cache per token',
  'gqa.saved_against_mha': 'saved against MHA',
  'gqa.cache_holds_k_v':
    'The cache holds K and V of every past token: n_kv_heads·(d_k + d_v)·4 bytes per token and layer, for batch·n_k = {tokens} tokens here. ',
  'gqa.flops_fall_only_k':
    'FLOPs fall only by the K and V projections: every query head still computes its own scores against all keys.',
  'gqa.model_table_each_model': 'The model table: each model’s K/V cache at {MODEL_TOKENS} tokens',
  'gqa.query_k_v_heads': 'query / K/V heads',
  'gqa.same_with_mha': 'same with MHA',
  'gqa.whole_model_s_cache':
    'The whole model\'s cache (every layer) for one sequence of {MODEL_TOKENS} tokens. LLaMA-70B\'s 64 query heads share 8 key/value heads, so it keeps 8× less than the same model with multi-head attention.',
  'gqa.this_layer': '{kind} (this layer)',
  'gqa.for_tokens': 'for {tokens} tokens',
  'gqa.saved_less': '{saved} ({ratio}× less)',
});
