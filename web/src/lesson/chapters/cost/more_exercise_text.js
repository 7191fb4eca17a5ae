// The words of more_exercises.js beside this file, by id (lesson/text.js serves them; an author's table
// may replace any of them). Loaded with the exercises, not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.cost.heads-params':
    'Each head gets d_model/h columns of Wᴽ, Wᴷ and Wⱽ: what happens to h·d_k when h changes?',
  'exercise.hint.cost.heads-flops':
    'The scores cost h·n²·d_k and the projections n·d² per matrix: put d_k = d_model/h in and see what h does.',
  'exercise.hint.cost.dominant-long':
    'Compare n with d again: which of n·d² and n²·d is larger once n is several times d?',
  'exercise.hint.cost.projection-macs':
    'Four projections, each n×d times d×d: n·d² multiply-adds each.',
  'exercise.cost.heads_more': '{h} heads have about {h}/{other} times more',
  'exercise.cost.heads_same': 'The same number',
  'exercise.cost.heads_fewer': '{h} heads have about {h}/{other} times fewer',
  'exercise.cost.heads_params_prompt':
    'Two layers with d_model = {d_model} and d_k = d_v = d_model/h, no biases: one with {h} heads, one with {other}. How do their parameter counts compare?',
  'exercise.cost.heads_params_reveal':
    'The core: {many} parameters with {h} heads (d_k = {d_k}), {few} with {other} (d_k = {d_k2}). More heads means narrower heads: h·d_k stays d_model, so Wᴽ, Wᴷ, Wⱽ and Wᴼ keep their size. Usual mistake: multiplying by the head count.',
  'exercise.cost.heads_flops_prompt':
    'The same two layers (d_model = {d_model}; {h} heads or {other}) on a sequence of n = {n} tokens: how do their multiply-adds compare?',
  'exercise.cost.heads_flops_reveal':
    'The core: {many} multiply-adds with {h} heads, {few} with {other}. The scores cost h·n²·d_k = n²·d_model whatever h, and the projections do not see the heads at all. Only the softmax\'s few operations per weight grow with h. Usual mistake: h times the work, as if each head saw all of d_model.',
  'exercise.cost.dominant_long_prompt':
    'A long document: n = {n} tokens with d = {d}. Which term dominates the lesson\'s FLOP count of one attention layer?',
  'exercise.cost.dominant_long_reveal':
    'The core: projections {projections}, scores and weighted sum {attention}. {reason}. Once n passes d the n²·d terms win, and they keep growing with the square of the length. Usual mistake: the projections, true only while n < d.',
  'exercise.cost.projection_macs_prompt':
    'With n = {n} tokens and d_model = {d}, how many multiply-adds do the four projections (Wᴽ, Wᴷ, Wⱽ, Wᴼ) take together, counted exactly?',
  'exercise.cost.projection_macs_reveal':
    'The core: 4·n·d² = 4·{n}·{d}² = {macs} multiply-adds. The lesson\'s figure counts one projection (n·d²); the exact count has four. Usual mistake: n²·d, the attention matrix\'s term.',
});
