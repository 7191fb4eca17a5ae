// Mask checks and the per-row rule shared by the materialised and streaming attention.
#include "mask.h"

#include <algorithm>

#include "count.h"
#include "error.h"

namespace attn {

void Mask::validate(int batch, int n_q, int n_k) const {
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

int Mask::row_limit(int b, int i, int n_k) const {
  int limit = n_k;
  if (causal) limit = std::min(limit, i + 1);
  if (!key_lengths.empty()) limit = std::min(limit, key_lengths[b]);
  return std::max(limit, 0);
}

bool Mask::masked(int b, int i, int j, int n_k) const {
  if (causal && j > i) return true;
  if (!key_lengths.empty() && j >= key_lengths[b]) return true;
  if (!matrix.empty() && matrix[static_cast<std::size_t>(i) * n_k + j]) return true;
  return false;
}

std::string Mask::describe() const {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : " + ") + part; };
  if (causal) add("causal");
  if (!key_lengths.empty()) {
    std::string lengths;
    for (int len : key_lengths) lengths += (lengths.empty() ? "" : ", ") + std::to_string(len);
    add("padding [" + lengths + "]");
  }
  if (!matrix.empty()) add("matrix");
  return out.empty() ? "none" : out;
}

}  // namespace attn
