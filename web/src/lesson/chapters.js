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
import { NEUTRAL_KEYS } from '../model/schema.js'; // keys that do not make a view of their own (the schema's `neutral`)

// Titles and short names are shown as plain text (buttons, headings, the pager), so √dₖ is written with the
// subscript letter ₖ; the texts are shown through dom.math(), which sets d_k, d_model and W_iᴽ as the lesson does.
const rows = [
  {
    name: 'attention', short: 'Attention', title: 'Scaled dot-product attention',
    text: [
      'Each token has a query q, a key k and a value v. Query i scores key j with q·k / √d_k; a softmax turns the row into positive '
        + 'weights summing to 1, and token i’s output is the weighted mean of the values.',
      'Each map is one head’s weights, a row per query: heads 1 to 3 were built for a job, head 4 is random (untrained). '
        + 'Click a cell of the large map to follow that query; a causal mask removes every key after i from row i.',
    ],
    fields: ['text', 'attention', 'text_kv', 'mask', 'padding', 'dropout', 'dropout_seed'], // n_q, n_k and batch: the sentences' counts
    panels: ['controls', 'heatmaps', 'query'],
    open: ['heatmaps', 'query'],
  },
  {
    name: 'scaling', short: 'Why √dₖ', title: 'Why divide by √dₖ',
    text: [
      'With components of mean 0 and variance 1, q·k sums d_k products, so its variance is d_k: at d_k = 64 scores spread 8 times wider than at d_k = 1. '
        + 'The softmax then turns nearly one-hot and its gradient, a ⊙ (g − Σ a·g), nearly zero: the layer barely learns.',
      'Dividing by √d_k brings the variance back to 1. Turn the scale off and raise d_k to see both effects.',
    ],
    fields: ['d_model', 'n_heads', 'd_k', 'scale', 'seed'],
    panels: ['controls', 'sqrtdk', 'gradients'],
    open: ['sqrtdk', 'gradients'],
  },
  {
    name: 'heads', short: 'Multi-head', title: 'Multi-head attention',
    text: [
      'h heads project the input h times (W_iᴽ, W_iᴷ: d_model × d_k, W_iⱽ: d_model × d_v), attend separately, and Wᴼ maps their concatenated '
        + 'outputs (n × h·d_v) back to d_model. With d_k = d_v = d_model / h they cost what one wide head would; one d_model × h·d_k matrix '
        + 'projects them all, reshaped to (h, n, d_k).',
      'Give each head a job, compare them and trace every shape; the lesson’s E1 (d_model 768, 12 heads, n = 128) is a preset.',
    ],
    fields: ['d_model', 'n_heads', 'd_k', 'seed', 'text', PRESET_FIELD],
    panels: ['controls', 'heatmaps', 'patterns', 'compare', 'shapes'],
    open: ['heatmaps'],
  },
  {
    name: 'cost', short: 'Cost', title: 'What attention costs',
    text: [
      'Each of the four projections costs about n·d² multiply-adds, Q·Kᵀ and A·V about n²·d each: the projections dominate while n < d, '
        + 'the n × n matrix once n > d. The head count changes neither the FLOPs nor the 4·d² weights (+4·d with biases).',
      'Memory: batch·h matrices of n_q × n_k weights, 4 bytes each. The presets load the worked examples (E2, E3, P1, P4) and real models.',
    ],
    fields: ['d_model', 'n_heads', 'd_k', 'd_v', 'bias', 'n_q', 'n_k', PRESET_FIELD],
    panels: ['controls', 'cost', 'examples', 'models', 'performance'],
    open: ['cost'],
  },
  {
    name: 'gqa', short: 'GQA & KV cache', title: 'MHA, GQA, MQA and the KV cache',
    text: [
      'A generating model caches every earlier token’s keys and values: 2·n_kv_heads·d_k numbers per token and layer. '
        + 'Multi-head attention has one key/value head per query head, MQA one for all, GQA n_kv_heads, each shared by a consecutive group of query heads.',
      'LLaMA-70B: 8 key/value heads for 64 query heads, 8 times less cache. Set n_kv_heads and compare.',
    ],
    fields: ['d_model', 'n_heads', 'n_kv_heads', 'd_k', PRESET_FIELD],
    panels: ['controls', 'gqa', 'kvmap', 'heatmaps'],
    open: ['gqa', 'kvmap'],
  },
  {
    name: 'positions', short: 'Positions', title: 'Where a token is',
    text: [
      'Attention ignores order: shuffle the keys and every query’s output is the same. The sinusoidal encoding adds sines and cosines '
        + 'of the position at d_model / 2 frequencies, in [−1, 1], distinct per position; k positions on is a fixed rotation of each pair.',
      'RoPE rotates q and k by their positions (q_i·k_j depends on i − j only); ALiBi subtracts a per-head slope times the distance from the scores.',
    ],
    fields: ['d_model', 'n_heads', 'text', 'positional', 'rope_base'],
    panels: ['controls', 'positional'],
    open: ['positional'],
  },
  {
    name: 'training', short: 'Training', title: 'Watch heads learn',
    text: [
      'So far the heads were built or random. Here a tiny attention model learns a task needing two relations: watch the loss fall and the heads share the work, '
        + 'then load the learnt layer to inspect it in the other chapters.',
    ],
    fields: [],
    panels: ['training'],
    open: ['training'],
  },
  {
    name: 'efficient', short: 'Efficient attention', title: 'Attention that scales',
    text: [
      'Exact attention holds an n × n matrix; FlashAttention gets the same result tile by tile with a running maximum and sum (online softmax), never storing it. '
        + 'A KV cache makes a new token cost O(t·d), not a recomputed prefix; sparse patterns show each query fewer keys; '
        + 'linear attention swaps the softmax for a feature map: cost grows with n, not n², but it computes something else.',
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
