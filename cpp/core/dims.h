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
/// A size of a problem (batch, n_q, d_k, ...): a positive integer no larger than kMaxDim.
/// "n_q must be a positive integer (got 0)", "d_k (2,097,152) is larger than the 1,048,576 this engine accepts".
void require_dim(const char* name, int value);

}  // namespace attn

#include <string>
#include <vector>

#include "mask.h"

namespace attn {

/// A size as a caller typed it (JavaScript numbers arrive as doubles): a positive whole number
/// no larger than kMaxDim, else Error naming `name`: "d_model must be a whole number (got 1.5)".
int dim_of(const char* name, double value);

/// What a view of the playground asks for: the layer's sizes and one problem's. Absent d_k, d_v:
/// d_model / n_heads; absent n_kv_heads: n_heads (multi-head attention). The mask is checked
/// against batch and n_k (a padding length per batch item, each in 0..n_k).
struct ViewRequest {
  double d_model = 0, n_heads = 0;
  std::optional<double> n_kv_heads, d_k, d_v;
  double batch = 1, n_q = 0, n_k = 0;
  Mask mask;
};

/// The resolved view, or the first field that breaks a rule and why (`field` names the request's
/// field: d_model, n_heads, n_kv_heads, d_k, d_v, batch, n_q, n_k or mask).
struct ViewResult {
  bool ok = false;
  std::string field, message;  // when !ok
  MhaDims dims{};              // when ok
  int batch = 0, n_q = 0, n_k = 0;
  std::vector<int> kv_head_of;  // [n_heads]: query head h reads key/value head kv_head_of[h]
};

/// The one place the page's dimension rules live: each field is checked in the order a learner
/// fills them in, with the rules of resolve_dims, require_kv_heads and require_dim.
ViewResult resolve_view(const ViewRequest& request);

}  // namespace attn
