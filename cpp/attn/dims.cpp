// Resolution and validation of multi-head attention sizes.
#include "dims.h"

#include <initializer_list>
#include <string>
#include <utility>

#include "error.h"

namespace attn {

MhaDims resolve_dims(const MhaConfig& c) {
  require_positive("d_model", c.d_model);
  require_positive("n_heads", c.n_heads);
  require(c.d_k >= 0, "d_k must be a positive integer, or 0 to derive it from d_model / n_heads (got " +
                          std::to_string(c.d_k) + ")");
  require(c.d_v >= 0, "d_v must be a positive integer, or 0 to derive it from d_model / n_heads (got " +
                          std::to_string(c.d_v) + ")");
  require(c.n_heads <= c.d_model || (c.d_k > 0 && c.d_v > 0),
          "n_heads (" + std::to_string(c.n_heads) + ") is larger than d_model (" + std::to_string(c.d_model) +
              "): each head needs at least one dimension");
  if (c.d_k == 0 || c.d_v == 0)
    require(c.d_model % c.n_heads == 0,
            "d_model (" + std::to_string(c.d_model) + ") is not divisible by n_heads (" +
                std::to_string(c.n_heads) + "); choose another n_heads or give d_k and d_v explicitly");
  const int n_kv_heads = c.n_kv_heads.value_or(c.n_heads);
  require_kv_heads(c.n_heads, n_kv_heads);
  MhaDims d{c.d_model, c.n_heads, c.d_k ? c.d_k : c.d_model / c.n_heads, c.d_v ? c.d_v : c.d_model / c.n_heads,
            c.bias, n_kv_heads};
  for (auto [name, value] : {std::pair<const char*, std::int64_t>{"d_model", d.d_model},
                             {"h·d_k", d.qk_width()},
                             {"h·d_v", d.v_width()}})
    require(value <= kMaxDim, std::string(name) + " (" + group_digits(value) + ") is larger than the " +
                                  group_digits(kMaxDim) + " this engine accepts");
  return d;
}

void require_kv_heads(int n_heads, int n_kv_heads) {
  const std::string kv = std::to_string(n_kv_heads), h = std::to_string(n_heads);
  require(n_kv_heads >= 1, "n_kv_heads must be at least 1 (got " + kv +
                               "): 1 key/value head is multi-query attention, n_heads (" + h + ") is multi-head attention");
  require(n_kv_heads <= n_heads, "n_kv_heads (" + kv + ") is larger than n_heads (" + h +
                                     "): every key/value head must serve at least one query head");
  if (n_heads % n_kv_heads != 0) {
    std::string divisors;
    for (int x = 1; x <= n_heads && divisors.size() < 60; ++x)
      if (n_heads % x == 0) divisors += (divisors.empty() ? "" : ", ") + std::to_string(x);
    throw Error("n_heads (" + h + ") is not divisible by n_kv_heads (" + kv +
                "): each key/value head serves the same number of query heads; choose one of " + divisors +
                (divisors.size() >= 60 ? ", ..." : ""));
  }
}

}  // namespace attn
