// Resolution and validation of multi-head attention sizes.
#include "dims.h"

#include <initializer_list>
#include <string>
#include <utility>

#include "error.h"

namespace attn {

void require_dim(const char* name, int value) {
  require_positive(name, value);
  require(value <= kMaxDim, std::string(name) + " (" + group_digits(value) + ") is larger than the " +
                                group_digits(kMaxDim) + " this engine accepts");
}

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
  MhaDims d{c.d_model, c.n_heads, c.d_k ? c.d_k : c.d_model / c.n_heads, c.d_v ? c.d_v : c.d_model / c.n_heads,
            c.bias};
  for (auto [name, value] : {std::pair<const char*, std::int64_t>{"d_model", d.d_model},
                             {"h·d_k", d.qk_width()},
                             {"h·d_v", d.v_width()}})
    require(value <= kMaxDim, std::string(name) + " (" + group_digits(value) + ") is larger than the " +
                                  group_digits(kMaxDim) + " this engine accepts");
  return d;
}

}  // namespace attn
