// Comparing heads: what each head's attention maps look like (entropy, distance, peak), how
// alike two heads are (Jensen–Shannon divergence of their rows), and how much the output
// changes when a head is switched off (ablation through head_mask).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "mha.h"

namespace attn {

struct HeadStats {
  double entropy;          // mean over rows of −Σ_j a_ij·ln a_ij, in nats (0: one-hot, ln n_k: uniform)
  double distance;         // mean over rows of Σ_j a_ij·|i − j|: how far back or ahead the head looks
  double max_weight;       // the largest weight of the head's maps
  double mean_max_weight;  // mean over rows of the row's largest weight
  std::int64_t rows;       // rows counted: every (batch item, query) except fully masked ones
};

struct HeadMetrics {
  int n_heads;
  double max_entropy;              // ln n_k, the entropy of a uniform row
  std::vector<HeadStats> heads;
  /// n_heads × n_heads, row-major: the mean over rows (i, batch item) of the Jensen–Shannon
  /// divergence between the two heads' rows, in nats: 0 for identical maps, at most ln 2.
  std::vector<double> divergence;
  /// 1 − divergence / ln 2: 1 for identical heads, 0 for rows with no key in common.
  std::vector<double> similarity;
};

/// Metrics of attention weights [batch, n_heads, n_q, n_k] (as forward returns them). Every row
/// must be a distribution (entries ≥ 0 summing to 1 within 1e-3) or all 0 (a fully masked row,
/// left out). Computed in double.
HeadMetrics head_metrics(const float* weights, std::size_t length, int batch, int n_heads, int n_q, int n_k);

struct HeadAblation {
  double output_norm;          // ‖y‖ (Frobenius, over the whole output) with every head on
  std::vector<double> change;  // per head: ‖y − y with head h off‖ / ‖y‖ (‖Δy‖ itself when ‖y‖ = 0)
  std::vector<int> order;      // heads by change, largest first (ties: lower head first)
};

struct HeadComparison {
  HeadMetrics metrics;
  HeadAblation ablation;
};

/// Runs the layer once with need_weights for the metrics, then once per head with that head's
/// head_mask entry set to 0 (on top of options.head_mask, if given). Inference: dropout is off.
HeadComparison compare_heads(const MultiHeadAttention& layer, const MhaInput& input, ForwardOptions options);

}  // namespace attn
