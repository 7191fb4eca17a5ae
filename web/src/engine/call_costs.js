// What a call of the engine costs in forward passes of its layer, for a caller that sets a deadline or
// says how long a call will take from a pass's measured time: the engine's knowledge of its own calls.

/**
 * Forward passes of layer.compareHeads on a layer of `n_heads` heads: the whole layer once, then once per head
 * switched off (compare_heads in cpp/core/head_metrics.cpp).
 */
export function compareHeadsPasses({ n_heads }) {
  return n_heads + 1;
}
