// The sizes of a multi-head attention layer, resolved and checked once: the same rules for
// the engine, the analysis and every caller (C++, JavaScript, the page).
#pragma once
#include <cstdint>

namespace attn {

struct MhaConfig {
  int d_model = 512;
  int n_heads = 8;
  int d_k = 0;  // 0: d_model / n_heads
  int d_v = 0;  // 0: d_model / n_heads
  bool bias = true;
  std::uint64_t seed = 1;  // seed of the default (Xavier/Glorot uniform) weights
};

struct MhaDims {
  int d_model, n_heads, d_k, d_v;
  bool bias;
  std::int64_t qk_width() const { return static_cast<std::int64_t>(n_heads) * d_k; }  // h·d_k
  std::int64_t v_width() const { return static_cast<std::int64_t>(n_heads) * d_v; }   // h·d_v
};

/// Checks the config and fills in d_k = d_v = d_model / n_heads where not given.
/// Throws Error, e.g. "d_model (510) is not divisible by n_heads (8)".
MhaDims resolve_dims(const MhaConfig& config);

/// Largest size accepted for any one dimension (keeps every index inside 32 bits).
constexpr int kMaxDim = 1 << 20;
/// A size of a problem (batch, n_q, d_k, ...): a positive integer no larger than kMaxDim.
/// "n_q must be a positive integer (got 0)", "d_k (2,097,152) is larger than the 1,048,576 this engine accepts".
void require_dim(const char* name, int value);

}  // namespace attn
