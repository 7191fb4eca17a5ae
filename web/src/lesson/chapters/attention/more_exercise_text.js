// The words of more_exercises.js beside this file, by id (lesson/text.js serves them; an author's table
// may replace any of them). Loaded with the exercises, not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.attention.sketch_sentence': 'a bird saw a cat and a dog',
  'exercise.attention.sketch_prompt':
    'A head built to look at other occurrences of the same word reads “{sentence}”. Draw the weights you expect query {word} to give each key (drag the bars, or use the arrow keys), then check: within a distance of {threshold} counts.',
  'exercise.attention.sketch_reveal':
    'The engine\'s row for query {word}: its largest weight, {value}, is on {best}, another occurrence of the same word. Usual mistake: putting the weight on the query itself; the head was built to find the word elsewhere in the sentence, and its scores there stand far above the rest. ',
  'exercise.attention.weights_shape_prompt':
    'One head of cross-attention reads {n_k} encoder tokens for {n_q} decoder tokens (d_model = {d_model}). What is the shape of its weights softmax(Q·Kᵀ/√d_k)?',
  'exercise.attention.weights_shape_reveal':
    'The core\'s weights are {A}: one row per query ({n_q}), one column per key ({n_k}); each row sums to 1. Usual mistake: a square matrix, as in self-attention, or the keys first.',
  'exercise.attention.single_head_prompt':
    'Single-head attention (h = 1, so d_k = d_v = d_model) on a sequence of {n} tokens with d_model = {d_model}: what is the shape of softmax(Q·Kᵀ/√d_k)·V?',
  'exercise.attention.single_head_reveal':
    'The core\'s head output is {out}: each of the {n} queries gets a weighted mix of the value rows, d_v = {d_model} wide. Multi-head attention runs h such heads on d_model/h columns each and concatenates them. Usual mistake: n×n, the shape of the weights, not of their product with V.',
});
