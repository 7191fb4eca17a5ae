// The words of more_exercises.js beside this file, by id (lesson/text.js serves them; an author's table
// may replace any of them). Loaded with the exercises, not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.heads.head-shape':
    'One head is single-head attention on its own projections: its rows are the tokens, its columns d_v = d_model/h.',
  'exercise.hint.heads.per-head-params':
    'W_iᴽ maps d_model to this head\'s d_k = d_model/h columns: rows × columns.',
  'exercise.hint.heads.wo-shape':
    'Wᴼ takes the concatenated heads (h·d_v columns) back to d_model.',
  'exercise.hint.heads.subspace':
    'Compare two heads of one layer on the same query: what lets them put their weight on different keys?',
  'exercise.hint.heads.sketch-previous':
    'A previous-token head looks one position back from the query, whatever the words are.',
  'exercise.heads.sketch_sentence': 'every head reads its own slice of the vector',
  'exercise.heads.sketch_prompt':
    'A head built to look at the previous token reads “{sentence}”. Draw the weights you expect query {word} to give each key (drag the bars, or use the arrow keys), then check: within a distance of {threshold} counts.',
  'exercise.heads.sketch_reveal':
    'The engine\'s row for query {word}: {value} of the weight is on {best}, one position back. Usual mistake: spreading the weight over all earlier words; this head\'s projections make one key stand out. ',
  'exercise.heads.head_shape_prompt':
    'A layer with d_model = {d_model} and {n_heads} heads reads a sequence of {n} tokens. What is the shape of one head\'s output, head_i = Attention(Q·W_iᴽ, K·W_iᴷ, V·W_iⱽ), for one sequence?',
  'exercise.heads.head_shape_reveal':
    'The core: head_i is {dims}. Each head is single-head attention on its own projections, n = {n} rows of d_v = {d_model}/{n_heads} = {d_k} columns; Concat lays the heads side by side. Usual mistake: n×d_model, which is the concatenation, not one head.',
  'exercise.heads.per_head_prompt':
    'In a layer with d_model = {d_model} and {n_heads} heads (d_k = d_model/h), how many weights does one head\'s W_iᴽ hold?',
  'exercise.heads.per_head_reveal':
    'The core: W_iᴽ is d_model×d_k = {d_model}×{d_k} = {value} weights. Usual mistake: d_model×d_model; that is all heads\' Wᴽ together.',
  'exercise.heads.wo_prompt':
    'In a layer with d_model = {d_model} and {n_heads} heads, how many weights does the output projection Wᴼ hold?',
  'exercise.heads.wo_reveal':
    'The core: Wᴼ is (h·d_v)×d_model = ({n_heads}·{d_v})×{d_model} = {value} weights: it mixes the concatenated heads back into d_model columns. Usual mistake: d_v×d_model, one head\'s share only.',
  'exercise.heads.subspace_prompt':
    'This layer splits d_model = {d_model} into {n_heads} heads of d_k = {d_k}. What do several heads give that one head of d_model cannot?',
  'exercise.heads.subspace_more_params': 'More parameters, so the layer can store more',
  'exercise.heads.subspace_right':
    'Each head compares queries and keys in its own d_k-dimensional subspace, so different heads can attend to different keys at once',
  'exercise.heads.subspace_fewer_flops': 'Fewer FLOPs than one big head',
  'exercise.heads.subspace_average': 'The heads compute the same weights and their average is less noisy',
  'exercise.heads.subspace_reveal':
    'The engine built two heads on this sentence: for query {word} one puts its largest weight on {a}, the other on {b}. One softmax row can only make one mixture; with several heads, each projection picks its own subspace and its own row. The parameters and FLOPs stay the same whatever h. Usual mistake: more parameters; h heads of d_k = d_model/h hold exactly what one head of d_model holds.',
});
