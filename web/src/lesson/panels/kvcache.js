// The words of the kvcache panel (features/kvcache/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'kvcache.how_cache_works': 'How the cache works',
  'kvcache.step_and_models_cost': 'What a step costs, and whole models’ caches',
  'kvcache.waiting_engine': 'Waiting for the engine…',
  'kvcache.decoder_generates_one_token':
    'A decoder generates one token at a time, and token t’s query attends to the keys and values of tokens 1 … t. ',
  'kvcache.those_k_v_rows':
    'Those K and V rows never change once computed, so a KV cache keeps them: each step projects only the new token, appends its k and v ',
  'kvcache.one_per_key_value':
    '(one per key/value head, so grouped-query attention keeps fewer) and attends over the cache. The rows it gives are the causal forward pass’s. ',
  'kvcache.inference_only_no_dropout': 'Inference only: no dropout.',
  'kvcache.decoding_sentence_token_token': 'Decoding the sentence token by token…',
  'kvcache.decoding_did_not_run': 'The decoding did not run: {message}',
  'kvcache.k_v': 'k and v of “{j}”',
  'kvcache.not_generated_yet': 'not generated yet',
  'kvcache.cache_after_step_entries':
    'The cache after step {step}: {step2} entr{part3} in each of {n_kv_heads} key/value head{part}',
  'kvcache.k_v_head': 'K/V head {g}',
  'kvcache.this_layer_s_cache': 'This layer’s cache holds {bytes_used} after {step} token{part}: ',
  'kvcache.n_kv_heads_d':
    'n_kv_heads·(d_k + d_v)·4 = {n_kv_heads}·({d_k} + {d_v})·4 = {bytes_per_token} bytes per token ',
  'kvcache.allocated_max_len': '({bytes} allocated for max_len = {n}).',
  'kvcache.step_attends_key': 'Step {step}: “{value}” attends to {step2} key{part}',
  'kvcache.weights_new_query_row': 'Weights of the new query row',
  'kvcache.k_v_head_2': 'K/V head',
  'kvcache.last_keys_are_shown': 'The last {SHOWN_KEYS} keys are shown. ',
  'kvcache.0_same_numbers': '0, the same numbers',
  'kvcache.largest_difference_from_row':
    'Largest difference from row {step} of the causal forward pass (weights and output): {part}.',
  'kvcache.positional_method_new_token':
    ' Positional method {positional}: the new token sits at position {value}, the cache’s length.',
  'kvcache.flops_step_this_layer': 'FLOPs of step {step}, this layer',
  'kvcache.with_kv_cache_one': 'with the KV cache (one new row)',
  'kvcache.recomputing_prefix_causal_pass': 'recomputing the prefix (the causal pass over {step} tokens)',
  'kvcache.cache_saves_this_step':
    'The cache saves {speedup}× at this step: the new token is projected once (its q, k, v and output rows) and ',
  'kvcache.one_query_row_meets':
    'its one query row meets t keys, O(t·d) work, where recomputing projects all t tokens again and fills t·(t + 1)/2 (query, key) pairs, O(t²·d). ',
  'kvcache.generating_t_tokens_with':
    'Generating t tokens with the cache costs what one causal pass over them costs.',
  'kvcache.whole_models_attention_layers': 'Whole models (attention layers only)',
  'kvcache.whole_models_cache_flops': 'Whole models: cache and FLOPs',
  'kvcache.query_k_v_heads': 'query / K/V heads',
  'kvcache.cache_after_tokens': 'cache after {step} tokens',
  'kvcache.same_with_mha': 'same with MHA, {long_context}',
  'kvcache.flops_step_cached': 'FLOPs of step {step}: cached',
  'kvcache.every_layer_keeps_own':
    'Every layer keeps its own cache, so a model holds n_layers times one layer’s, for every sequence it serves: at long prompts the cache, ',
  'kvcache.not_weights_what_fills':
    'not the weights, is what fills a GPU’s memory, which is why LLaMA-70B shares 8 key/value heads among 64 query heads.',
  'kvcache.decoding_appears_once_inputs': 'The decoding appears once the inputs have run.',
  'kvcache.decode_sentence_token_token': 'Decode the sentence token by token (about {seconds} s)',
  'kvcache.previous_token': '◀ previous token',
  'kvcache.next_token': 'next token ▶',
  'kvcache.step': 'step',
  'kvcache.step_of': 'step {step} of {n}: “{token}”',
  'kvcache.head_n': 'head {n}',
  'kvcache.query_head': 'query head',
  'kvcache.largest': 'largest',
  'kvcache.how': 'how',
  'kvcache.this_step': 'this step',
  'kvcache.tokens_1_to': 'tokens 1 … {step}',
});
