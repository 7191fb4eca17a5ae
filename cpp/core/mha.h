// Multi-head attention: head_i = Attention(Q·W_iᴽ, K·W_iᴷ, V·W_iⱽ), output = Concat(head_1..head_h)·Wᴼ.
// The per-head projections run as one matmul for all heads (the lesson's efficient form);
// heads are addressed as strided column slices, so the split and concat cost no copies.
// Grouped-query attention: n_kv_heads key/value heads, each read by n_heads / n_kv_heads
// consecutive query heads; n_kv_heads = 1 is multi-query attention.
#pragma once
#include <cstdint>
#include <vector>

#include "attention.h"
#include "dims.h"
#include "error.h"
#include "head_patterns.h"
#include "linear.h"
#include "weights.h"

namespace attn {

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
  /// n_heads multipliers of the head outputs before Wᴼ (0 switches a head off); empty: all 1.
  /// The attention weights returned are not affected.
  std::vector<float> head_mask;
};

struct MhaTrace;  // trace.h

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
  /// The trace of query `query` of batch item `item` through head `head` and the whole layer
  /// (trace.h, mha_trace.cpp): the forward pass's numbers for that row, computed for it alone.
  MhaTrace trace(const MhaInput& input, const ForwardOptions& options, int item, int head, int query) const;

  /// Sets the named patterns of the heads in `specs` (head_patterns.h) and rebuilds every head
  /// that has a pattern against these inputs, so the heads sharing a key/value head stay
  /// consistent; heads set by hand (custom) keep their W_Q. Nothing changes on error. Returns
  /// what each head with a pattern is now, with the numbers that explain it.
  std::vector<HeadPatternInfo> set_head_patterns(const std::vector<HeadSpec>& specs, const PatternInputs& inputs);
  /// The pattern of every head: random (the default initialisation) until set, custom after set_weights.
  const std::vector<HeadSpec>& head_patterns() const { return patterns_; }
  /// The projections Wq, Wk, Wv, Wo, read by the backward pass (backward.h).
  struct Projections { const Linear &q, &k, &v, &o; };
  Projections projections() const { return {w_q_, w_k_, w_v_, w_o_}; }

 private:
  void store_weights(const MhaWeights& weights);

  MhaDims dims_;
  std::uint64_t seed_;
  Linear w_q_, w_k_, w_v_, w_o_;
  std::vector<HeadSpec> patterns_;
};

/// ALiBi's slope of each of the n_heads heads under opt (positional.h; head_offset and
/// layer_heads place them in a larger layer); empty unless opt.positional is alibi.
std::vector<float> head_slopes(const AttentionOptions& opt, int n_heads);
/// Checks the positional options against the layer: RoPE's even d_k and base, ALiBi's head range.
void validate_positional(const AttentionOptions& opt, int n_heads, int d_k);

/// Multiplies head h's columns of a Concat block (rows × n_heads·d_v, row stride ld) by mask[h]:
/// head_mask before Wᴼ, for the forward pass, the trace of one query and the backward pass alike.
void apply_head_mask(const std::vector<float>& mask, int rows, int d_v, float* concat, int ld);

/// Default weights like PyTorch's nn.MultiheadAttention: Xavier/Glorot uniform on the input
/// projections (one (3·d_model)×d_model matrix when all widths equal d_model, as PyTorch's
/// in_proj_weight; otherwise one per matrix, as its separate q/k/v_proj_weight, which is also
/// the case of grouped-query attention), U(−1/√(h·d_v), 1/√(h·d_v)) on Wᴼ (nn.Linear's
/// default), biases 0. Drawn in the order Wq, Wk, Wv, Wo from one stream seeded by seed.
MhaWeights default_weights(const MhaDims& dims, std::uint64_t seed);

}  // namespace attn
