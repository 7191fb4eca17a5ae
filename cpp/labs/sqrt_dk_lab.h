// The √d_k lab with gradients: at initialisation (q, k, v with i.i.d. N(0, 1) components), how
// large are the gradients that reach the attention scores, with and without the 1/√d_k scale,
// as d_k grows? Measured with the core's backward pass, not derived from a formula.
#pragma once
#include <cstdint>
#include <vector>

namespace attn {

/// One setting (scaled or not) at one d_k, averaged over the query rows.
struct SqrtDkGradientSide {
  // Row norms ‖∂L/∂S‖₂ (S the softmax's input: the scores) and ‖∂L/∂q‖₂ (what reaches the query,
  // and through it W_Q). The median is the typical row; the mean is carried by the rows that are
  // not saturated, so it falls far less than the median once most rows are.
  double score_grad_median, score_grad_mean;
  double query_grad_median, query_grad_mean;
  double saturated_share;    // share of rows whose largest weight is above 0.99
  double entropy;            // mean softmax entropy in nats (uniform: ln n_k)
  double max_weight;         // mean of the largest weight in a row
};

struct SqrtDkGradientRow {
  int d_k;
  SqrtDkGradientSide scaled, unscaled;
};

struct SqrtDkGradients {
  int n_k, samples;
  double max_entropy;  // ln n_k
  std::vector<SqrtDkGradientRow> rows;
  /// Largest over smallest median score-gradient norm across the d_k values, per setting: how
  /// far the typical row's gradient moves as d_k grows (1 = level).
  double scaled_spread, unscaled_spread;
};

/// For each d_k: `samples` query rows, in groups of up to 16 that share n_k keys and values
/// (d_v = d_k; every group draws its own), and the loss L = Σ G ⊙ output with G i.i.d. N(0, 1/d_v) (so ∂L/∂A has unit-variance entries
/// at every d_v); the same draws with and without the scale. The draws of one d_k depend only on
/// (seed, d_k), not on the other values in the list. Work is bounded up front: Σ d_k · n_k ·
/// samples at most 50,000,000 (as sqrt_dk_stats), at most 32 values of d_k. n_k must be at least
/// 2: with one key no gradient reaches the scores. A spread is Infinity only when some d_k's
/// median is exactly 0 (its typical row saturated to weights of exactly 1 and 0 in float).
SqrtDkGradients sqrt_dk_gradients(const std::vector<int>& d_k_values, int n_k, int samples, std::uint64_t seed);

}  // namespace attn
