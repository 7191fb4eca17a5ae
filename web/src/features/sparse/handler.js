// The compute side of the sparse-patterns panel: for full (causal) attention, a sliding window and
// the strided pattern at the playground's sizes, the engine's mask map (maskGrid) and its count of
// the visible pairs and their FLOPs (analyze().sparse), plus the same counts at a long sequence.

const MAP_N = 48;    // the maps show at most this many queries and keys
const LONG_N = 8192; // "and at a long sequence": where the savings show

const PATTERNS = (window, stride) => [
  { name: 'full', args: { mask: 'causal' } },
  { name: 'sliding', args: { mask: 'sliding', window } },
  { name: 'strided', args: { mask: 'strided', stride } },
];

export const handlers = {
  /**
   * The three patterns at the layer's sizes, and `mine`: the form's own mask (`form`: { mask, mask_arg (as
   * forward takes it), window, stride, item }) drawn for the shown batch item, with its pairs where the core
   * counts them (not for padding, which hides keys per batch item: cost null).
   */
  sparsePatterns({ d_model, n_heads, d_k, d_v, n, batch, window, stride, form }, side) {
    const attn = side.attn;
    const shown = Math.min(n, MAP_N);
    const layer = { d_model, n_heads, ...(d_k ? { d_k } : {}), ...(d_v ? { d_v } : {}) };
    return {
      shown, n, long_n: LONG_N, window, stride, mine: form && mineOf(attn, layer, { n, batch, shown, form }),
      patterns: PATTERNS(window, stride).map(({ name, args }) => ({
        name,
        grid: attn.maskGrid({ ...args, n_q: shown, n_k: shown }),
        cost: attn.analyze({ ...layer, n, batch, ...args }).sparse,
        // A long sequence at the same window and stride: the full pattern grows as n², the sliding one as n·window.
        long: attn.analyze({ ...layer, n: LONG_N, batch: 1, need_weights: false, ...args }).sparse,
      })),
    };
  },
};

/** The form's mask as a map of the first `shown` positions of batch item form.item and, but for padding, its pairs. */
function mineOf(attn, layer, { n, batch, shown, form }) {
  const { mask, mask_arg, window, stride, item } = form;
  const sparse = mask === 'sliding' ? { window } : mask === 'strided' ? { stride } : {};
  const counted = typeof mask_arg === 'string'; // none, causal, sliding, strided: analyze counts their pairs
  // The map needs the whole keys of a padded item, so padding is drawn only when the sequence fits one map.
  const drawable = counted || n === shown;
  return {
    mask, window, stride, item,
    grid: drawable ? attn.maskGrid({ mask: mask_arg, ...sparse, batch, item, n_q: shown, n_k: shown }) : null,
    cost: counted ? attn.analyze({ ...layer, n, batch, mask: mask_arg, ...sparse }).sparse : null,
  };
}
