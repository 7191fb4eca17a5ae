// The words of the chapter “gqa”'s exercises (exercises.js beside this file), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace
// any of them. Loaded with the exercises (the lazy panels' bundle), not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.gqa.query_heads_share_key':
    '{n_heads} query heads share {n_kv_heads} key/value heads, heads counted from 1. Which key/value head does query head {value} read?',
  'exercise.gqa.core_s_mapping_query':
    'The core\'s mapping: query heads 1, 2, … → key/value heads {value}. Query head {value2} reads key/value head {value3}: consecutive query heads form a group, ',
  'exercise.gqa.groups_all_usual_mistake':
    '{n_kv_heads} groups in all. Usual mistake: dealing the query heads out in turn (head mod n_kv_heads), which is not how the weights are laid out.',
  'exercise.gqa.decoder_keeps_k_v':
    'A model that writes text keeps K and V of every past token. For this layer with n_kv_heads = {n_kv_heads} instead (d_k = {d_k}, d_v = {d_v}, 4 bytes per number), how many bytes do {tokens} tokens add to the cache?',
  'exercise.gqa.core_numbers_per_token':
    'The core: {numbers_per_token} numbers per token (n_kv_heads·(d_k + d_v)), {bytes_per_token}',
  'exercise.gqa.with_one_key_value':
    '; with one key/value head per query head it would be {mha_bytes_per_token}',
  'exercise.gqa.usual_mistakes_caching_only':
    'Usual mistakes: caching only K (V is needed too), counting the query heads, or caching the queries, which are never reused.',
  'exercise.gqa.llama_70b_lets_64':
    'LLaMA-70B\'s 64 query heads (d_k = 128) share 8 key/value heads. If they all shared a single key/value head (multi-query attention), how many times smaller would the K/V cache be than with 64 key/value heads?',
  'exercise.gqa.core_numbers_per_token_2':
    'The core: with one key/value head a layer caches {numbers_per_token} numbers per token (2·1·128), against {mha_numbers} with 64: {ratio}× less; the model\'s own {n_kv_heads} heads give {gqa_ratio}× less. The saving is n_heads / n_kv_heads. ',
  'exercise.gqa.usual_mistake_expecting_flops':
    'Usual mistake: expecting the FLOPs or the maps to shrink as much; every query head still computes its own scores, only K, V and their cache are shared.',
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.gqa.kv-head-of':
    'The query heads are split into consecutive groups of equal size, one group per key/value head (not dealt out in turn). Find the group of the query head asked about, counting from 1.',
  'exercise.hint.gqa.cache-per-token':
    'Each new token stores one key of d_k numbers and one value of d_v numbers per key/value head (not per query head), at 4 bytes a number.',
  'exercise.hint.gqa.preset-saving':
    'The cache holds K and V per key/value head, so its size scales with the number of key/value heads alone; compare the two head counts.',
});
