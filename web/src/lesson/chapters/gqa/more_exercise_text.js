// The words of more_exercises.js beside this file, by id (lesson/text.js serves them; an author's table
// may replace any of them). Loaded with the exercises, not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.gqa.wk-params':
    'Wᴷ maps d_model to the key/value heads\' columns only (n_kv_heads·d_k), plus one bias per column.',
  'exercise.gqa.wk_prompt':
    'A layer with d_model = {d_model}, {n_heads} query heads of d_k = {d_k} and {n_kv_heads} key/value head(s): how many parameters do Wᴷ and its bias bᴷ hold together?',
  'exercise.gqa.wk_reveal':
    'The core: Wᴷ is d_model×(n_kv_heads·d_k) = {d_model}×({n_kv_heads}·{d_k}) = {w_k}, plus bᴷ\'s {b_k}: {value}. Only the key/value projections shrink when heads share them; Wᴽ and Wᴼ keep one slice per query head. Usual mistake: d_model×(n_heads·d_k).',
});
