// The lesson as chapters, in the lesson's order: per chapter its name (the `chapter` key), its title, a
// short text of its own, the form fields that matter to it and the panels it shows (feature names of
// features/index.js; a name not in that table yet is skipped, so a chapter can list a feature before it
// lands) with the role of each: the panels in `open` are the chapter's core, shown expanded; its other
// panels are shown collapsed (a heading that opens them, playground/folds.js), so a chapter fits in about
// two screens at first sight. Pure data and functions, no DOM: the playground, the form and the chapter list read it.
// `reference` is the old long page: every panel and the full form.

import { CHAPTER_NAMES, FIRST_CHAPTER } from './chapter_names.js';

export { CHAPTER_NAMES, FIRST_CHAPTER };

/** The feature every chapter but `reference` carries when it exists: the predict-then-reveal exercises. */
export const EXERCISES_FEATURE = 'exercises';

/** The preset menu is not a schema field: a chapter lists it under this name among its fields. */
export const PRESET_FIELD = 'preset';

/**
 * The heads a fresh playground starts with (the page with no hash, an element with no view attribute):
 * three heads with a recognisable job and one left random to compare with. Links and attributes that
 * give any view key keep the schema's defaults (random heads), so an old link still means what it did.
 */
export const LESSON_START = Object.freeze({ heads: 'previous,same_word,first_token' });

/** Keys that do not make a view of their own: an element given only these still gets LESSON_START. */
export const NEUTRAL_KEYS = Object.freeze(['chapter', 'lock', 'hide', 'label', 'exercises', 'theme', 'embed']);

// Titles and short names are shown as plain text (buttons, headings, the pager), so √dₖ is written with the
// subscript letter ₖ; the texts are shown through dom.math(), which sets d_k, d_model and W_iᴽ as the lesson does.
const rows = [
  {
    name: 'attention', short: 'Attention', title: 'Scaled dot-product attention',
    text: [
      'Every token carries a query q, a key k and a value v. Query i scores each key j with q·k / √d_k; a softmax turns the row of scores '
        + 'into positive weights that sum to 1, and token i’s output is the weighted mean of the values.',
      'Each map below holds one head’s weights, a row per query. Heads 1 to 3 were built for a job, head 4 is random, as in an untrained layer. '
        + 'Click a cell of the large map to follow that query step by step; with a causal mask, row i loses every key after i.',
    ],
    fields: ['text', 'attention', 'text_kv', 'mask', 'padding', 'dropout', 'dropout_seed'], // n_q, n_k and batch: the sentences' counts
    panels: ['controls', 'heatmaps', 'query'],
    open: ['heatmaps', 'query'],
  },
  {
    name: 'scaling', short: 'Why √dₖ', title: 'Why divide by √dₖ',
    text: [
      'With independent components of mean 0 and variance 1, q·k sums d_k products: its variance is d_k, so at d_k = 64 the scores spread 8 times wider than at d_k = 1. '
        + 'Wide scores make the softmax nearly one-hot, and its gradient, a ⊙ (g − Σ a·g), nearly zero: the layer barely learns.',
      'Dividing by √d_k brings the variance back to 1 at any width. Switch the scale off and raise d_k to see both effects, measured by the engine.',
    ],
    fields: ['d_model', 'n_heads', 'd_k', 'scale', 'seed'],
    panels: ['controls', 'sqrtdk', 'gradients'],
    open: ['sqrtdk', 'gradients'],
  },
  {
    name: 'heads', short: 'Multi-head', title: 'Multi-head attention',
    text: [
      'A layer with h heads projects the input h times (W_iᴽ, W_iᴷ of d_model × d_k, W_iⱽ of d_model × d_v), runs attention in each head, concatenates the h outputs '
        + '(n × h·d_v) and map them back to d_model with Wᴼ. With d_k = d_v = d_model / h, h heads cost what one wide head would; '
        + 'in practice one d_model × h·d_k matrix projects them all and the result is reshaped to (h, n, d_k).',
      'Give each head a job, compare what they do and trace every tensor’s shape below; the lesson’s E1 (d_model 768, 12 heads, n = 128) is in the preset menu.',
    ],
    fields: ['d_model', 'n_heads', 'd_k', 'seed', 'text', PRESET_FIELD],
    panels: ['controls', 'heatmaps', 'patterns', 'compare', 'shapes'],
    open: ['heatmaps'],
  },
  {
    name: 'cost', short: 'Cost', title: 'What attention costs',
    text: [
      'Each of the four projections costs about n·d² multiply-adds; Q·Kᵀ and A·V about n²·d each, the softmax n². The projections dominate while n < d, '
        + 'the n × n matrix once n > d. The number of heads changes neither the FLOPs nor the 4·d² weights (4·d more with biases).',
      'Memory is the other limit: batch·h matrices of n_q × n_k weights at 4 bytes each. The preset menu loads the worked examples (E2, E3, P1, P4) and real models.',
    ],
    fields: ['d_model', 'n_heads', 'd_k', 'd_v', 'bias', 'n_q', 'n_k', PRESET_FIELD],
    panels: ['controls', 'cost', 'examples', 'models', 'performance'],
    open: ['cost'],
  },
  {
    name: 'gqa', short: 'GQA & KV cache', title: 'MHA, GQA, MQA and the KV cache',
    text: [
      'While generating, a model keeps every earlier token’s keys and values (the KV cache): 2·n_kv_heads·d_k numbers per token and layer. '
        + 'Multi-head attention has a key/value head per query head, multi-query attention (MQA) one for all, and grouped-query attention (GQA) '
        + 'n_kv_heads, each read by a consecutive group of query heads.',
      'LLaMA-70B reads 8 key/value heads with 64 query heads: 8 times less cache than with 64. Set n_kv_heads and compare.',
    ],
    fields: ['d_model', 'n_heads', 'n_kv_heads', 'd_k', PRESET_FIELD],
    panels: ['controls', 'gqa', 'kvmap', 'heatmaps'],
    open: ['gqa', 'kvmap'],
  },
  {
    name: 'positions', short: 'Positions', title: 'Where a token is',
    text: [
      'Attention alone ignores order: shuffle the keys and every query gets the same output. The sinusoidal encoding adds sines and cosines '
        + 'of the position at d_model / 2 frequencies, all in [−1, 1], distinct per position.',
      'k positions on is a fixed rotation of each pair, so a head can look a fixed offset back. RoPE rotates q and k by their positions instead '
        + '(q_i·k_j then depends on i − j only); ALiBi subtracts a per-head slope times the distance from the scores.',
    ],
    fields: ['d_model', 'n_heads', 'text', 'positional', 'rope_base'],
    panels: ['controls', 'positional'],
    open: ['positional'],
  },
  {
    name: 'training', short: 'Training', title: 'Watch heads learn',
    text: [
      'So far the heads were built or random. Here a tiny attention model learns a task that needs two relations: watch the loss fall and the heads share the work, '
        + 'then load the learnt layer into the playground to inspect it in the other chapters.',
    ],
    fields: [],
    panels: ['training'],
    open: ['training'],
  },
  {
    name: 'efficient', short: 'Efficient attention', title: 'Attention that scales',
    text: [
      'Exact attention holds an n × n matrix. FlashAttention gets the same result tile by tile with a running maximum and sum (the online softmax), never storing it. '
        + 'A KV cache makes a generated token cost O(t·d) instead of recomputing the prefix; sparse patterns let each query see fewer keys; '
        + 'linear attention swaps the softmax for a feature map, so cost grows with n, not n², but computes something else.',
    ],
    fields: ['d_model', 'n_heads', 'n_kv_heads', 'mask', 'window', 'stride'],
    panels: ['controls', 'flash', 'linear', 'kvcache', 'sparse'],
    open: ['flash'],
  },
  {
    name: 'reference', short: 'Reference', title: 'Everything at once',
    text: ['Every panel of the playground on one page, with the whole form: the reference view for looking things up.'],
    fields: null, // the full form
    panels: null, // every panel
    open: null, // every panel expanded
  },
];

/** The chapters, in the lesson's order (the names are CHAPTER_NAMES, in that order). */
export const CHAPTERS = Object.freeze(rows.map((row) => Object.freeze({
  ...row,
  text: Object.freeze(row.text),
  fields: row.fields && Object.freeze(row.fields),
  panels: row.panels && Object.freeze(row.panels),
  open: row.open && Object.freeze(row.open),
})));

const BY_NAME = new Map(CHAPTERS.map((c) => [c.name, c]));

/** The chapter a state shows (an unknown name shows the first chapter). */
export function chapterOf(state) {
  return BY_NAME.get(String(state?.chapter ?? '')) ?? BY_NAME.get(FIRST_CHAPTER);
}

/** The chapters before and after `name` (null at either end). */
export function neighbours(name) {
  const i = CHAPTER_NAMES.indexOf(name);
  return { previous: i > 0 ? BY_NAME.get(CHAPTER_NAMES[i - 1]) : null, next: i >= 0 && i < CHAPTER_NAMES.length - 1 ? BY_NAME.get(CHAPTER_NAMES[i + 1]) : null };
}

/** "a, b ,c" → ['a', 'b', 'c'] (the comma lists of lock, hide, panels). */
export function keyList(text) {
  return String(text ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** True when the author chose panels themselves (`panels=`): their choice wins over the chapter. */
export const authorPanels = (state, featureNames) => keyList(state?.panels).some((name) => featureNames.includes(name));

/**
 * The panels of the state's chapter, among `featureNames` (the features' table), in the chapter's
 * list; null for reference (every panel). The exercises feature joins every other chapter.
 */
export function chapterPanels(state, featureNames) {
  const chapter = chapterOf(state);
  if (!chapter.panels) return null;
  const names = [...chapter.panels, EXERCISES_FEATURE];
  return names.filter((name, i) => featureNames.includes(name) && names.indexOf(name) === i);
}

/**
 * The panels of the state's chapter shown collapsed (a Set of feature names): the chapter's panels
 * outside its `open` core, less the form and the exercises (always expanded). None in reference, nor
 * when the author chose panels (`panels=`: every panel they chose is expanded).
 */
export function foldedPanels(state, featureNames) {
  const chapter = chapterOf(state);
  if (!chapter.panels || authorPanels(state, featureNames)) return new Set();
  return new Set(chapter.panels.filter((name) => name !== 'controls' && name !== EXERCISES_FEATURE && !chapter.open.includes(name)));
}

/**
 * The form fields a state shows: the chapter's (every field in reference, or when the author chose
 * panels), less the author's `hide` list. Returns a predicate on a field key (PRESET_FIELD included).
 */
export function formShows(state, featureNames) {
  const chapter = chapterOf(state);
  const hidden = new Set(keyList(state?.hide));
  const all = !chapter.fields || authorPanels(state, featureNames);
  const fields = all ? null : new Set(chapter.fields);
  return (key) => !hidden.has(key) && (!fields || fields.has(key));
}

/** The keys the author locked (`lock`): the form shows them disabled and no learner edit changes them. */
export function lockedKeys(state) {
  return new Set(keyList(state?.lock));
}

/**
 * The state a fresh playground starts from: LESSON_START over `state` when no key other than the
 * NEUTRAL_KEYS was given (`given`: the keys the link or the attributes set).
 */
export function startState(state, given) {
  const own = [...given].filter((key) => !NEUTRAL_KEYS.includes(key));
  return own.length ? state : { ...state, ...LESSON_START };
}
