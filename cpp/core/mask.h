// Which attention logits are masked (set to −∞ before the softmax). The parts combine by
// OR, so a mask composer can stack causal, padding and an explicit matrix.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attn {

struct Mask {
  /// Query i may not see key j > i (aligned at the first key, as in PyTorch's is_causal).
  bool causal = false;
  /// Padding: for batch item b, keys j ≥ key_lengths[b] are masked. Empty = no padding.
  std::vector<int> key_lengths;
  /// Explicit n_q×n_k matrix shared by every batch item and head, 1 = masked. Empty = none.
  std::vector<std::uint8_t> matrix;
  /// Sliding window w > 0: query i sees key j iff i − w < j ≤ i. 0 = off.
  int window = 0;
  /// Strided s > 0 (Child et al.'s two heads merged): j ≤ i and (i − j < s or (i − j) mod s = 0). 0 = off.
  int stride = 0;

  bool any() const { return causal || !key_lengths.empty() || !matrix.empty() || window > 0 || stride > 0; }
  /// Bytes the mask holds (its matrix and its key lengths): counted in a call's memory budget, as its inputs are.
  std::uint64_t bytes() const { return matrix.size() + sizeof(int) * static_cast<std::uint64_t>(key_lengths.size()); }
  /// Sets to −∞ the logits row[0 .. count) of keys j0 … that the window or the stride hides from query i.
  void hide_sparse(float* row, int i, int j0, int count) const;
  /// Keys before this index are masked for query row i (the sliding window's start; else 0).
  int row_start(int i) const { return window > 0 && i - window + 1 > 0 ? i - window + 1 : 0; }
  /// Checks the mask against the problem's sizes; throws Error naming what does not fit.
  void validate(int batch, int n_q, int n_k) const;
  /// Keys at and past this index are masked for query row i of batch item b.
  int row_limit(int b, int i, int n_k) const;
  /// True when (b, i, j) is masked: the plain definition, used by tests and the reference.
  bool masked(int b, int i, int j, int n_k) const;
  /// "none", "causal", "sliding window 4", "strided 3", "padding [16, 9]", "matrix", or a combination joined by " + ".
  std::string describe() const;
};

/// The mask of batch item b drawn on a heatmap whose cells average row_step × col_step weights:
/// [⌈n_q / row_step⌉ × ⌈n_k / col_step⌉], 1 where every weight of the cell is masked (so a
/// cell that shows any weight is never painted over). Throws Error for sizes that do not fit.
std::vector<std::uint8_t> mask_grid(const Mask& mask, int b, int n_q, int n_k, int row_step, int col_step);

/// The (query, key) pairs batch item b can see: the pairs whose logits and weights·V a sparse
/// kernel computes (Σ_i visible keys of row i), counted per row in closed form for causal,
/// sliding and padding, key by key for strided and a matrix.
std::uint64_t visible_pairs(const Mask& mask, int b, int n_q, int n_k);

}  // namespace attn
