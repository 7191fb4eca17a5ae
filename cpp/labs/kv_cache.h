// Autoregressive decoding with a key/value cache: a decoder generates one token at a time, and
// each new token's query attends to the keys and values of every token before it and its own.
// Those K and V rows never change once computed, so the cache keeps them (n_kv_heads of each per
// token: grouped-query attention shrinks it) and a step projects only the new token. Running
// decode_step over a sequence gives the rows of the causal forward pass (self-attention, one
// batch item), by the forward pass's own attention routine. Inference only: no dropout.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/mha.h"

namespace attn {

class KVCache;
struct DecodeResult {
  std::vector<float> output;   // d_model: the new token's output row, after Wᴼ
  std::vector<float> weights;  // [n_heads, t]: each query head's weights over the t keys so far
};

/// How a step attends: scale as forward's (divide the logits by √d_k), and the positional
/// method on the logits (positional.h) with the new token at position length(): RoPE rotates its
/// q and k (k before it is cached), ALiBi subtracts slope_h·(position − j) from key j's logit.
/// Every step of one cache must use the same positional method and rope_base.
struct DecodeOptions {
  bool scale = true;
  Positional positional = Positional::none;
  std::optional<double> rope_base;  // as AttentionOptions::rope_base: only with positional rope
};

/// One decoding step of `layer` for the new token x (d_model floats): projects its q, k and v,
/// appends k and v to `cache` (made for this layer), and attends from q to all t = length + 1
/// keys. On error the cache is unchanged: a full cache, x of the wrong length or not finite, a
/// cache of another layer, another positional method than the cache's first step, an overflow.
DecodeResult decode_step(const MultiHeadAttention& layer, KVCache& cache, const float* x, std::size_t x_len,
                         const DecodeOptions& options = {});

/// K and V of the tokens seen so far, for one layer and one sequence. The storage for max_len
/// tokens is allocated up front (as a static cache is), laid out per key/value head like
/// PyTorch's [n_kv_heads, seq, d_k]: keys [n_kv_heads, max_len, d_k], values [n_kv_heads,
/// max_len, d_v]; the first length() rows of each head are filled. It belongs to the layer it
/// was made for, which must outlive it, and to that layer's weights when it was filled.
class KVCache {
 public:
  /// Checks max_len (1 … kMaxDim) and that the cache fits `memory_budget` before allocating.
  KVCache(const MultiHeadAttention& layer, int max_len, std::uint64_t memory_budget = kDefaultMemoryBudget);
  const MultiHeadAttention& layer() const { return *layer_; }
  int length() const { return length_; }
  int max_len() const { return max_len_; }
  /// Bytes per cached token: n_kv_heads·(d_k + d_v)·4.
  std::uint64_t bytes_per_token() const;
  /// Bytes held (allocated for max_len tokens) and in use (length() tokens).
  std::uint64_t bytes() const { return bytes_per_token() * static_cast<std::uint64_t>(max_len_); }
  std::uint64_t bytes_used() const { return bytes_per_token() * static_cast<std::uint64_t>(length_); }
  /// Key/value head g's rows: length() × d_k (keys) and length() × d_v (values), contiguous.
  const float* keys(int g) const;
  const float* values(int g) const;
  /// Forgets every token (the storage stays).
  void clear();

 private:
  friend DecodeResult decode_step(const MultiHeadAttention&, KVCache&, const float*, std::size_t, const DecodeOptions&);
  const MultiHeadAttention* layer_;
  int max_len_, length_ = 0;
  std::vector<float> k_, v_;
  std::vector<double> k_norm2_, v_norm2_;  // per key/value head: the largest squared row norm so far
  DecodeOptions filled_with_;              // the positional method of the cached keys (length_ > 0)
};

/// What the t-th decoding step costs (t = 1 for the first token: it sees t keys), for one layer
/// and for n_layers such layers (attention only: no feed-forward, embedding or read-out).
struct DecodeCost {
  int t, n_layers;
  std::int64_t cache_bytes_per_token;  // per layer: n_kv_heads·(d_k + d_v)·4
  std::int64_t cache_bytes;            // per layer, after the step: t tokens
  std::int64_t model_cache_bytes;      // every layer: cache_bytes·n_layers
  std::int64_t mha_model_cache_bytes;  // the same with n_heads key/value heads (multi-head)
  /// FLOPs of the step with the cache, per layer: the new token's q, k, v and output projections
  /// (2 per multiply-add, plus the biases) and its one query row against t keys (scores, scale,
  /// softmax at 5 per logit, weighted sum), as flop_counts counts a stage.
  std::int64_t step_flops, step_projection_flops, step_attention_flops;
  /// Without a cache the step runs the causal forward pass over all t tokens again: every
  /// token's projections, and the t·(t + 1)/2 visible (query, key) pairs of every head.
  std::int64_t recompute_flops, recompute_projection_flops, recompute_attention_flops;
  double speedup;                       // recompute_flops / step_flops
  /// Generating tokens 1 … t, per layer: Σ of the steps with the cache, and without one.
  std::int64_t total_flops, total_recompute_flops;
  /// Every layer: the step's and the recomputation's FLOPs times n_layers.
  std::int64_t model_step_flops, model_recompute_flops;
};
/// Sizes only, nothing allocated. Throws when t or n_layers is not in 1 … kMaxDim or a count would
/// not be exact as a double (2^53).
DecodeCost decode_cost(const MhaDims& d, int t, int n_layers = 1, bool scale = true);

}  // namespace attn
