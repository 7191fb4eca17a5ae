// Multi-head attention: head_i = Attention(Q·W_iᴽ, K·W_iᴷ, V·W_iⱽ), output = Concat(head_1..head_h)·Wᴼ.
// The per-head projections run as one matmul for all heads (the lesson's efficient form);
// heads are addressed as strided column slices, so the split and concat cost no copies.
#pragma once
#include <cstdint>
#include <vector>

#include "attention.h"
#include "dims.h"
#include "error.h"
#include "linear.h"

namespace attn {

/// All weights in the lesson's convention y = x·W + b, W is d_in×d_out row-major:
/// wq, wk: d_model×(h·d_k); wv: d_model×(h·d_v); wo: (h·d_v)×d_model. Biases empty when bias is off.
struct MhaWeights {
  std::vector<float> wq, wk, wv, wo, bq, bk, bv, bo;
};

/// The three inputs, row-major [batch, n_q, d_model] and [batch, n_k, d_model].
/// For self-attention pass the same pointer three times.
struct MhaInput {
  const float* query; std::size_t query_len;
  const float* key;   std::size_t key_len;
  const float* value; std::size_t value_len;
  int batch, n_q, n_k;
};

struct ForwardOptions : AttentionOptions {
  /// Return the per-head weights [batch, n_heads, n_q, n_k]. Off: the streaming path, O(n) memory.
  bool need_weights = false;
  std::uint64_t memory_budget = kDefaultMemoryBudget;
};

struct MhaResult {
  std::vector<float> output;   // [batch, n_q, d_model]
  std::vector<float> weights;  // [batch, n_heads, n_q, n_k] when need_weights
  std::vector<MaskedRow> masked_rows;
};

class MultiHeadAttention {
 public:
  /// Resolves and checks the sizes, then draws the default weights from config.seed.
  explicit MultiHeadAttention(const MhaConfig& config);
  const MhaDims& dims() const { return dims_; }
  /// Replaces every weight; lengths and finiteness are checked, nothing changes on error.
  void set_weights(const MhaWeights& weights);
  MhaWeights weights() const;
  /// Checks the input and the budget, then runs the forward pass into new buffers.
  MhaResult forward(const MhaInput& input, const ForwardOptions& options) const;
  /// The same into caller buffers: output [batch, n_q, d_model] may be the query buffer itself
  /// (each block of query rows is projected before its output rows are written); weights may be
  /// null unless need_weights. Returns the fully masked rows.
  std::vector<MaskedRow> forward_into(const MhaInput& input, const ForwardOptions& options, float* output,
                                      float* weights) const;
  /// forward_into for a caller that has just called validate() with the same input and options
  /// (to size its buffers first): the checks, a pass over every input, are not run twice.
  std::vector<MaskedRow> forward_validated(const MhaInput& input, const ForwardOptions& options, float* output,
                                           float* weights) const;
  /// Checks sizes, mask, budget and finiteness of an input without running it.
  void validate(const MhaInput& input, const ForwardOptions& options) const;
  /// The projections Wq, Wk, Wv, Wo, read by the backward pass (backward.h).
  struct Projections { const Linear &q, &k, &v, &o; };
  Projections projections() const { return {w_q_, w_k_, w_v_, w_o_}; }

 private:
  MhaDims dims_;
  Linear w_q_, w_k_, w_v_, w_o_;
};

/// Default weights like PyTorch's nn.MultiheadAttention: Xavier/Glorot uniform on the input
/// projections (one (3·d_model)×d_model matrix when all widths equal d_model, as PyTorch's
/// in_proj_weight; otherwise one per matrix), U(−1/√(h·d_v), 1/√(h·d_v)) on Wᴼ (nn.Linear's
/// default), biases 0. Drawn in the order Wq, Wk, Wv, Wo from one stream seeded by seed.
MhaWeights default_weights(const MhaDims& dims, std::uint64_t seed);

}  // namespace attn
