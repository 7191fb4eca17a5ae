// Mask checks and the per-row rule shared by the materialised and streaming attention.
#include "mask.h"

#include <algorithm>
#include <limits>

#include "count.h"
#include "error.h"

namespace attn {

void Mask::validate(int batch, int n_q, int n_k) const {
  require(window >= 0, "mask 'sliding': window must be at least 1 (got " + std::to_string(window) + ")");
  require(stride >= 0, "mask 'strided': stride must be at least 1 (got " + std::to_string(stride) + ")");
  require(!(window > 0 && stride > 0), "give either window (mask 'sliding') or stride (mask 'strided'), not both");
  if (!key_lengths.empty()) {
    require(static_cast<int>(key_lengths.size()) == batch,
            "padding mask has " + std::to_string(key_lengths.size()) + " key lengths but batch is " +
                std::to_string(batch) + " (one length per batch item)");
    for (std::size_t b = 0; b < key_lengths.size(); ++b)
      require(key_lengths[b] >= 0 && key_lengths[b] <= n_k,
              "padding mask: key length of batch item " + std::to_string(b) + " is " +
                  std::to_string(key_lengths[b]) + ", outside 0.." + std::to_string(n_k) + " (n_k)");
  }
  if (!matrix.empty()) {
    // In 64 bits: a 32-bit size_t (wasm) wrapped 65,537 × 65,536 to 65,536 and let a short matrix through.
    const std::uint64_t want = (Count(n_q) * n_k).value();
    require(matrix.size() == want, "mask matrix has " + group_digits(matrix.size()) +
                                       " entries but n_q×n_k = " + std::to_string(n_q) + "×" +
                                       std::to_string(n_k) + " = " + group_digits(want));
  }
}

void Mask::hide_sparse(float* row, int i, int j0, int count) const {
  const float hidden = -std::numeric_limits<float>::infinity();
  for (int j = 0; j < count; ++j) {
    const int d = i - (j0 + j);  // how far back the key is (keys ahead are the row limit's)
    if ((window > 0 && d >= window) || (stride > 0 && d >= stride && d % stride != 0)) row[j] = hidden;
  }
}

int Mask::row_limit(int b, int i, int n_k) const {
  int limit = n_k;
  if (causal || window > 0 || stride > 0) limit = std::min(limit, i + 1);
  if (!key_lengths.empty()) limit = std::min(limit, key_lengths[b]);
  return std::max(limit, 0);
}

bool Mask::masked(int b, int i, int j, int n_k) const {
  if ((causal || window > 0 || stride > 0) && j > i) return true;
  if (j < row_start(i)) return true;
  if (stride > 0 && i - j >= stride && (i - j) % stride != 0) return true;
  if (!key_lengths.empty() && j >= key_lengths[b]) return true;
  if (!matrix.empty() && matrix[static_cast<std::size_t>(i) * n_k + j]) return true;
  return false;
}

std::string Mask::describe() const {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : " + ") + part; };
  if (causal) add("causal");
  if (window > 0) add("sliding window " + std::to_string(window));
  if (stride > 0) add("strided " + std::to_string(stride));
  if (!key_lengths.empty()) {
    std::string lengths;
    for (int len : key_lengths) lengths += (lengths.empty() ? "" : ", ") + std::to_string(len);
    add("padding [" + lengths + "]");
  }
  if (!matrix.empty()) add("matrix");
  return out.empty() ? "none" : out;
}

std::vector<std::uint8_t> mask_grid(const Mask& m, int b, int n_q, int n_k, int row_step, int col_step) {
  require_positive("n_q", n_q);
  require_positive("n_k", n_k);
  require_positive("row_step", row_step);
  require_positive("col_step", col_step);
  require(b >= 0 && (m.key_lengths.empty() || b < static_cast<int>(m.key_lengths.size())),
          "item " + std::to_string(b) + " has no key length in the padding mask");
  const int rows = (n_q - 1) / row_step + 1, cols = (n_k - 1) / col_step + 1;
  require((Count(rows) * cols).value() <= (1u << 26), "the mask grid would have more than 2^26 cells");
  std::vector<std::uint8_t> grid(static_cast<std::size_t>(rows) * cols, 0);
  if (!m.any()) return grid;
  for (int r = 0; r < rows; ++r) {
    const int i1 = std::min(n_q, (r + 1) * row_step);
    for (int c = 0; c < cols; ++c) {
      const int j1 = std::min(n_k, (c + 1) * col_step);
      bool all = true;
      if (m.matrix.empty() && m.window == 0 && m.stride == 0) {
        // Causal and padding mask a suffix of each row (row_limit): the cell's first key decides.
        for (int i = r * row_step; all && i < i1; ++i) all = m.row_limit(b, i, n_k) <= c * col_step;
      } else {
        for (int i = r * row_step; all && i < i1; ++i)
          for (int j = c * col_step; all && j < j1; ++j) all = m.masked(b, i, j, n_k);
      }
      grid[static_cast<std::size_t>(r) * cols + c] = all ? 1 : 0;
    }
  }
  return grid;
}

std::uint64_t visible_pairs(const Mask& m, int b, int n_q, int n_k) {
  std::uint64_t pairs = 0;
  for (int i = 0; i < n_q; ++i) {
    const int end = m.row_limit(b, i, n_k), start = std::min(m.row_start(i), end);
    if (!m.matrix.empty()) {
      for (int j = start; j < end; ++j) pairs += m.masked(b, i, j, n_k) ? 0 : 1;
    } else if (m.stride == 0) {
      pairs += static_cast<std::uint64_t>(end - start);
    } else {
      // The last stride − 1 keys before i and i itself, then keys i − s·t (t ≥ 1) below `end`.
      const std::int64_t s = m.stride, near = std::max<std::int64_t>(0, i - s + 1);
      pairs += static_cast<std::uint64_t>(std::max<std::int64_t>(0, end - near));
      // t ranges over max(1, ⌊(i − end)/s⌋ + 1) .. ⌊i/s⌋ (floor division: i − end may be −1).
      const std::int64_t d = i - static_cast<std::int64_t>(end);
      const std::int64_t lo = std::max<std::int64_t>(1, (d >= 0 ? d / s : -1) + 1), hi = i / s;
      if (hi >= lo) pairs += static_cast<std::uint64_t>(hi - lo + 1);
    }
  }
  return pairs;
}

}  // namespace attn
