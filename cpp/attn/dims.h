// The sizes of a multi-head attention layer, resolved and checked once: the same rules for
// the engine, the analysis and every caller (C++, JavaScript, the page).
#pragma once
#include <cstdint>
#include <optional>

namespace attn {

struct MhaConfig {
  int d_model = 512;
  int n_heads = 8;
  int d_k = 0;  // 0: d_model / n_heads
  int d_v = 0;  // 0: d_model / n_heads
  bool bias = true;
  std::uint64_t seed = 1;  // seed of the default (Xavier/Glorot uniform) weights
  /// Key/value heads (grouped-query attention): a divisor of n_heads; 1 is multi-query
  /// attention. Not given: n_heads, plain multi-head attention.
  std::optional<int> n_kv_heads;
};

struct MhaDims {
  int d_model, n_heads, d_k, d_v;
  bool bias;
  int n_kv_heads;  // divides n_heads; query head h reads key/value head kv_head(h)
  std::int64_t qk_width() const { return static_cast<std::int64_t>(n_heads) * d_k; }  // h·d_k: Q
  std::int64_t v_width() const { return static_cast<std::int64_t>(n_heads) * d_v; }   // h·d_v: Concat
  std::int64_t kv_k_width() const { return static_cast<std::int64_t>(n_kv_heads) * d_k; }  // K
  std::int64_t kv_v_width() const { return static_cast<std::int64_t>(n_kv_heads) * d_v; }  // V
  /// Query heads per key/value head.
  int group() const { return n_heads / n_kv_heads; }
  /// The key/value head of query head h: ⌊h / (n_heads / n_kv_heads)⌋, as PyTorch's
  /// repeat_interleave and the LLaMA code lay the groups out (consecutive query heads share).
  int kv_head(int h) const { return h / group(); }
};

/// Checks the config and fills in d_k = d_v = d_model / n_heads and n_kv_heads = n_heads where
/// not given. Throws Error, e.g. "d_model (510) is not divisible by n_heads (8)".
MhaDims resolve_dims(const MhaConfig& config);

/// Checks a number of key/value heads against n_heads: 1 ≤ n_kv_heads ≤ n_heads and a divisor.
void require_kv_heads(int n_heads, int n_kv_heads);

/// Largest size accepted for any one dimension (keeps every index inside 32 bits).
constexpr int kMaxDim = 1 << 20;

}  // namespace attn
