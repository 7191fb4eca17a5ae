// Exact FLOP counts used for GFLOP/s: 2 FLOPs per multiply-add, matmuls only (bias adds, the
// 1/√d_k scale and softmax are left out, as they are O(n·d) or O(h·n²), not O(n·d²) or O(n²·d)).

/**
 * Multi-head self-attention with h·d_k = h·d_v = d_model = d and n tokens:
 *   projections Q, K, V: 2·n·d·(3·d);  output projection: 2·n·d·d;
 *   Q·Kᵀ over all heads: 2·n·n·d;  weights·V over all heads: 2·n·n·d.
 */
export function mhaFlops({ d_model: d, n, batch = 1 }) {
  return batch * (2 * n * d * (3 * d) + 2 * n * d * d + 2 * 2 * n * n * d);
}

/** One m×k by k×n matmul. */
export function matmulFlops({ m, k, n }) {
  return 2 * m * k * n;
}
