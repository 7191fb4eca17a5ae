// The words of the derivation panel (features/derive/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'derive.stage.one-head': 'One head',
  'derive.stage.side-by-side': 'h heads side by side',
  'derive.stage.concat': 'Concat: the heads laid side by side',
  'derive.stage.output': 'Wᴼ: back to d_model',
  'derive.words.one-head':
    'A head is single-head attention on its own projections. Each product below keeps the rows (the tokens) and swaps the columns: d_model columns in, d_k (or d_v) out.',
  'derive.words.side-by-side':
    'Every head repeats the same computation with its own three weight matrices, so each draws its own map A_i and makes its own n_q × d_v output.',
  'derive.words.concat':
    'Concat puts the h outputs next to each other, row by row: the rows stay the tokens, the columns add up to h·d_v.',
  'derive.words.output':
    'Wᴼ mixes the heads’ columns and brings every token back to d_model numbers, the width the next layer expects.',
  'derive.now': 'now:',
  'derive.waiting': 'The sizes appear once the engine has checked the form.',
  'derive.typeset_failed': 'The formulas are shown as TeX source: the typesetter could not load ({message}).',
  'derive.box': '{name}: {rows} × {cols}',
  'derive.more_heads': '… {count} more',
  'derive.map_caption': 'head {head}{job}',
  'derive.map_size': 'A_{head}: {rows} × {cols}',
  'derive.maps_waiting': 'Each head’s map appears after a run.',
  'derive.maps_first': 'The first {shown} of {n_heads} heads.',
  'derive.first_row':
    'Head {head} looks one token back, and the first word, “{first}”, has none. Its weights must still add up to 1, so the softmax puts them on the key whose position looks most like “one before the start” to this head: {weight} on “{word}”. With a causal mask the first word could only look at itself.',
  'derive.job.previous': 'previous token',
  'derive.job.same_word': 'same word',
  'derive.job.first_token': 'first token',
  'derive.job.uniform': 'uniform',
  'derive.job.trained': 'trained',
});
