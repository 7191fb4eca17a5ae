// The words of the chapter “heads”'s exercises (exercises.js beside this file), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace
// any of them. Loaded with the exercises (the lazy panels' bundle), not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.heads.d_model_h_heads':
    'd_model = {d_model} and h = {n_heads} heads, with d_k left to its default. What is d_k?',
  'exercise.heads.core_resolves_d_k':
    'The core resolves d_k = {d_k}: the {n_heads} heads split the model\'s width, and {n_heads} heads of {d_k} columns fill d_model = {d_model} again when concatenated. ',
  'exercise.heads.usual_mistake_giving_each':
    'Usual mistake: giving each head the full d_model, which would multiply the parameters and FLOPs by h.',
  'exercise.heads.this_layer_batch_n':
    'This layer (n_q = {n_q}, {n_heads} heads of d_v = {d_v}) runs a batch of {batch} sentences at once. What is the shape of Concat(head_1, …, head_h), as batch × n_q × width?',
  'exercise.heads.core_s_shape_trace':
    'The core\'s shape trace: the heads are {dims} (batch × h × n_q × d_v) and Concat is {dims2}: ',
  'exercise.heads.heads_are_laid_side':
    'the heads are laid side by side along the feature axis, which Wᴼ then maps back to d_model. Usual mistake: stacking the heads as a new axis of length h.',
  'exercise.heads.head_built_look_previous':
    'A head is built to look at the previous token (on this sentence). Which key will query {words} attend to most?',
  'exercise.heads.core_s_row_query':
    'The core\'s row for query {i}: {value} of the weight is on key {words}. ',
  'exercise.heads.previous_token_head_matches':
    'A previous-token head matches each query with the key one position back, whatever the words are. Usual mistakes: picking the query itself, or the next token (attention has no direction of its own; the head was built to look back).',
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.heads.d_k':
    'The heads share out the model\'s width: with d_k left to its default, the h heads side by side fill d_model exactly.',
  'exercise.hint.heads.concat-shape':
    'Concatenation lays the heads side by side along the feature axis: batch and n_q stay as they are, and the width is every head\'s d_v together.',
  'exercise.hint.heads.previous-token':
    'A previous-token head looks one position back from the query, whatever the words are; neither the query itself nor the token after it.',
});
