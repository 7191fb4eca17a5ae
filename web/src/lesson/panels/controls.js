// The words of the controls panel (features/controls/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'controls.choose_worked_example_or': 'An example or a model…',
  'controls.use_seeded_weights': 'Use seeded weights',
  'controls.sentence_each_word_token': 'Sentence: each word is a token, each line a batch item',
  'controls.start_from_preset': 'Start from a preset',
  'controls.field.d_k': 'query/key size',
  'controls.field.bias': 'biases in the projections',
  'controls.field.n_kv_heads': 'key/value heads (grouped-query attention: query heads share them)',
  'controls.empty_one_per_query': 'empty: one per query head',
  'controls.empty_engine_default': 'empty: the engine’s default',
  'controls.field.attention': 'kind of attention',
  'controls.source.task': 'a task sample',
  'controls.encoder_sentence_keys_values': 'Encoder sentence: the keys and values',
  'controls.mask_positions_scale_dropout': 'Mask, positions, scale and dropout',
  'controls.mask.causal': 'causal (no looking ahead)',
  'controls.mask.padding': 'padding (key lengths)',
  'controls.mask.strided': 'strided (local + every s-th)',
  'controls.field.padding': 'key length per batch item',
  // Added as a second, shorter sentence when a padding mask is chosen over one sentence (features/controls/panel.js).
  'controls.padding_example_sentence': 'the dog slept',
  'controls.field.window': 'keys each query sees (itself and the ones before)',
  'controls.field.stride': 'stride s: the s − 1 keys before, then every s-th',
  'controls.field.positional': 'positions on the logits',
  'controls.positional.none': 'none (only the input encoding)',
  'controls.positional.rope': 'RoPE (rotate q and k)',
  'controls.positional.alibi': 'ALiBi (distance penalty)',
  'controls.field.scale': 'divide the scores by √d_k',
  'controls.worked_examples_lesson': 'Worked examples of the lesson',
  'controls.examples_failed': 'could not be computed ({message}): open the menu again to retry',
  'controls.weights_learnt_training_lab':
    'Weights: learnt in the training lab ({train_task}, {train_steps} steps), not drawn from the weight seed.',
  'controls.decoder_sentence_queries_each': 'Decoder sentence: the queries (each line a batch item)',
  'controls.each_heads_works_d':
    'Each of the {n_heads} heads works in d_k = d_v = {d_model} / {n_heads} = {d_k} dimensions; together they span d_model again.',
  'controls.heads_d_k_d':
    'Heads of d_k = {d_k}, d_v = {d_v}: n_heads·d_v = {n_heads_d_v} columns go into Wᴼ, which maps them back to d_model = {d_model}.',
  'controls.grouped_query_attention_every':
    ' Grouped-query attention: every {perGroup} query heads share one of {n_kv_heads} key/value heads.',
  'controls.sample_training_lab_s':
    'Sample {input_seed} of the training lab’s {task} task: {n_q} tokens, embedded by what the lab learnt (input seed picks the sample).',
  'controls.encoder_n_k': ', the encoder {n_k} (n_k)',
  'controls.shorter_lines_are_filled': ' Shorter lines are filled with <pad> tokens.',
  'controls.longest_query_line_has':
    'The longest query line has {n_q} tokens (n_q){kv}; {batch} line{part} = batch {batch}.{pad}',
  'controls.cross_attention_decoder_queries':
    'Cross-attention: {n_q} decoder queries attend to {n_k} encoder keys and values.',
  'controls.self_attention_every_token':
    'Self-attention: every token is a query and a key, so n_k = n_q = {n_q}.',
  'controls.sharing_key_value_heads': ' sharing {n_kv_heads} key/value heads',
  'controls.runs_d_model': ' (runs at d_model {d_model})',
  'controls.d_model_heads': '{label}: d_model {d_model}, {n_heads} heads{kv}{scaled}',
  'controls.auto_value': 'auto: {value}',
  'controls.auto': 'auto',
  'controls.layer': 'Layer',
  'controls.tokens': 'Tokens',
  'controls.field.d_model': 'model width',
  'controls.field.n_heads': 'heads h',
  'controls.field.d_v': 'value size',
  'controls.field.seed': 'weight seed',
  'controls.field.source': 'input source',
  'controls.field.n_q': 'queries',
  'controls.field.n_k': 'keys',
  'controls.field.batch': 'sequences',
  'controls.field.input_seed': 'input seed',
  'controls.field.mask': 'mask',
  'controls.field.rope_base': 'RoPE base',
  'controls.field.dropout': 'dropout ',
  'controls.field.dropout_seed': 'dropout seed',
  'controls.attention.self': 'self-attention',
  'controls.attention.cross': 'cross-attention',
  'controls.source.text': 'a sentence',
  'controls.source.random': 'seeded random',
  'controls.mask.none': 'none',
  'controls.mask.causal+padding': 'causal + padding',
  'controls.mask.sliding': 'sliding window',
});
