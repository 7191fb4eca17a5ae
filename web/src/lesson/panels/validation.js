// The words of the form's validation (model/validate.js, model/parse.js), by id: what a learner reads beside a
// field that does not read, a note on a view key replaced, and why a valid view is not run here. The
// engine's own messages (the sizes' rules, from the C++ core through resolveView) stay the core's.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  // A field as typed (model/parse.js): {name} is the field's key.
  'validation.required': '{name} is required',
  'validation.whole_number': '{name} must be a whole number, not {typed}',
  'validation.whole_number_quoted': '{name} must be a whole number, not “{typed}”',
  'validation.at_least': '{name} must be at least {min}{why}',
  'validation.zero_leaves_nothing': ' (0 would leave nothing to compute)',
  'validation.at_most': '{name} can be at most {max}',
  'validation.number': '{name} must be a number, not “{typed}”',
  'validation.decimal_range': '{name} must be at least {min} and below {max}, not {typed}',
  'validation.padding_length_name': 'length {number}',
  // The fields of the view and the form (model/validate.js).
  'validation.workers_range': 'workers must be a whole number from 1 to {most} (this browser reports {most} logical {cores})',
  'validation.core_one': 'core',
  'validation.core_many': 'cores',
  'validation.workers_note': '{range}, not “{typed}”: using {value}.',
  'validation.dropout_rounds_to_1':
    'dropout {typed} rounds to 1 in float32, the precision the engine computes in, and p = 1 would drop every weight: use at most {largest}',
  'validation.not_a_choice': '{key} must be one of {choices}, not “{value}”',
  'validation.using_instead': '{problem}: using {value}.',
  'validation.the_default': 'the default',
  'validation.task_needs_trained':
    'a task sample is the training lab’s input, embedded by what the lab learnt: it needs weights=trained (the lab’s “use in the playground” button)',
  'validation.or_seeded': ', or go back to the seeded weights',
  'validation.trained_d_model': 'the trained weights are for d_model = {d_model} (the training lab’s): set d_model to {d_model}{back}',
  'validation.trained_n_heads': 'the trained weights are for n_heads = {n_heads}: set n_heads to {n_heads}{back}',
  'validation.trained_d_k': 'the trained heads have d_k = {d_k}: clear d_k{back}',
  'validation.trained_d_v': 'the trained heads have d_v = {d_v}: clear d_v{back}',
  'validation.trained_bias': 'the trained layer has biases: tick the biases{back}',
  'validation.trained_self': 'the trained layer does self-attention: choose self-attention{back}',
  'validation.trained_kv': 'the trained layer has one key/value head per query head: clear n_kv_heads{back}',
  'validation.trained_heads': 'constructed heads would replace the trained W_Q: set every head to random{back}',
  'validation.text_empty': 'type at least one word (each line is one batch item)',
  'validation.text_lines': 'at most {most} lines (one per batch item), got {lines}',
  'validation.tokens_per_line': 'at most {most} tokens per line',
  'validation.text_kv_empty': 'type the encoder sentence that the queries attend to',
  'validation.text_kv_lines': 'needs one line per query line: {lines} query {line_word}, {here} here',
  'validation.line_one': 'line',
  'validation.line_many': 'lines',
  'validation.item_unread': 'item={item} is not a batch item ({problem}): showing item 0.',
  'validation.item_outside': 'item={item} is not a batch item here (0 to {last}): showing item {last}.',
  'validation.head_unread': 'head={head} is not a head ({problem}): showing head 1 (head=0).',
  'validation.head_outside': 'head={head} is not a head of this layer (0 to {last}): showing head 1 (head=0).',
  'validation.heads_unknown': '“{name}” (head {number}) is not a head pattern: use {patterns}, or leave it empty for random',
  'validation.heads_left_out': '{n_heads} {heads_word}: the constructed heads use the first {n_heads} of the patterns{used}; {left} {need} more heads.',
  'validation.head_one': 'head',
  'validation.head_many': 'heads',
  'validation.heads_used': ' ({list})',
  'validation.need_one': 'needs',
  'validation.need_many': 'need',
  'validation.heads_need_text':
    'constructed heads are built for the words of the sentences: choose sentences as the input, or set every head to random',
  'validation.padding_needed': 'give one key length per batch item (batch = {batch}), e.g. {example}',
  // Why a valid view is not run here: { short } beside the field, { message } in the banner.
  'validation.weights_too_large_short': 'Too large to run here at any n: the layer\'s weights alone need {bytes}, over the {budget} budget.',
  'validation.weights_too_large':
    'Too large to run in this tab at any sequence length: the layer\'s weights alone need {bytes}, over the budget of {budget_bytes} B ({budget}); make d_model (or d_k, d_v) smaller to run it. The shapes, parameters, FLOPs and memory below are still computed.',
  'validation.too_large_short': 'Too large to run here: needs {bytes}, over the {budget} budget.',
  'validation.too_large':
    'Too large to run in this tab: one forward pass needs {bytes}, over the budget of {budget_bytes} B ({budget}). The shapes, parameters, FLOPs and memory below are still computed.',
  'validation.training_too_slow_short': 'Too slow to run here: training the model again takes an estimated {seconds} s (limit {limit} s).',
  'validation.training_too_slow':
    'Too slow to run here: the trained weights are made again from the seed, {steps} training steps of {step_macs} multiply-adds each, an estimated {seconds} s in all (the limit is {limit} s). Train the model in the training lab and use it from there, lower train_steps or the lab\'s sizes, or go back to the seeded weights.',
  'validation.too_slow_short': 'Too slow to run here: an estimated {seconds} s (limit {limit} s).',
  'validation.too_slow':
    'Too slow to run here: about {flops} FLOPs, an estimated {seconds} s (the limit is {limit} s). Make n_q, n_k, d_model or batch smaller; the analysis below is still computed.',
});
