// The words of more_exercises.js beside this file, by id (lesson/text.js serves them; an author's table
// may replace any of them). Loaded with the exercises, not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.attention.weights-shape':
    'One row per query and one column per key: which sequence gives the queries in cross-attention, and which the keys?',
  'exercise.hint.attention.single-head-shape':
    'The weights are n×n, but the question is about their product with V: how many columns does V have when h = 1?',
  'exercise.hint.attention.sketch-same-word':
    'Look for the query\'s word elsewhere in the sentence: that is where this head\'s scores stand out. The query itself is not where it looks.',
  'exercise.hint.attention.design-last':
    'The score of key j is (a + b·j)/√2: which of a and b makes later keys score higher than earlier ones, and how steep must that be?',
  'exercise.hint.attention.design-first':
    'The score of key j is (a + b·j)/√2: to favour key 0, the scores must fall along the keys. What does a do to all of them?',
  'exercise.hint.attention.design-even':
    'Equal weights need equal scores (a + b·j)/√2 for every j. Which of a and b makes the scores differ from key to key?',
  'exercise.attention.design_last_prompt':
    'A 2-d head (d_k = 2) has {n_k} keys k_j = (1, j), j = 0…{last}. Choose its query q = (a, b), whole numbers from −{range} to {range}, so that the last key gets at least 0.9 of the weight.',
  'exercise.attention.design_first_prompt':
    'The same keys k_j = (1, j), j = 0…{last}. Choose q = (a, b), whole numbers from −{range} to {range}, so that the first key, (1, 0), gets at least 0.9 of the weight.',
  'exercise.attention.design_even_prompt':
    'The same keys k_j = (1, j), j = 0…{last}. Choose q = (a, b), whole numbers from −{range} to {range}, so that every key gets the same weight, 1/{n_k} (within 0.01).',
  'exercise.attention.design_last_reveal':
    'The engine ran all {n} queries: {count} do it, {answers}. The score q·k_j/√2 = (a + b·j)/√2 grows by b/√2 per key, so only the steepest b puts 0.9 on the last key; a adds the same to every score and changes nothing. Usual mistake: a large a, which shifts all the scores together. ',
  'exercise.attention.design_first_reveal':
    'The engine ran all {n} queries: {count} do it, {answers}. With b negative the scores fall along the keys, and only the steepest slope leaves 0.9 on key 0. Usual mistake: b = 0 with a large a; equal scores share the weight, whatever their size. ',
  'exercise.attention.design_even_reveal':
    'The engine ran all {n} queries: {count} do it, {answers}: b = 0, any a. Equal scores give equal weights; a only adds the same amount to every score, which the softmax ignores. Usual mistake: q = (0, 0) only; any a works. ',
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
