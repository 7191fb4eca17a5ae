// Resolution and validation of multi-head attention sizes.
#include "dims.h"

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>

#include "analysis.h"
#include "error.h"

namespace attn {

void require_dim(const char* name, int value) {
  require_positive(name, value);
  require(value <= kMaxDim, std::string(name) + " (" + group_digits(value) + ") is larger than the " +
                                group_digits(kMaxDim) + " this engine accepts");
}

MhaDims resolve_dims(const MhaConfig& c) {
  // The engine's limits first: the search for nearby head counts below loops up to d_model, and
  // 4·n_heads must not overflow an int (a fuzzer found both with d_model and n_heads near 2^31).
  require_dim("d_model", c.d_model);
  require_dim("n_heads", c.n_heads);
  require(c.d_k >= 0, "d_k must be a positive integer, or 0 to derive it from d_model / n_heads (got " +
                          std::to_string(c.d_k) + ")");
  require(c.d_v >= 0, "d_v must be a positive integer, or 0 to derive it from d_model / n_heads (got " +
                          std::to_string(c.d_v) + ")");
  require(c.n_heads <= c.d_model || (c.d_k > 0 && c.d_v > 0),
          "n_heads (" + std::to_string(c.n_heads) + ") is larger than d_model (" + std::to_string(c.d_model) +
              "): each head needs at least one dimension");
  if ((c.d_k == 0 || c.d_v == 0) && c.d_model % c.n_heads != 0) {
    // The nearest head counts that divide d_model, one below and one above (up to 4·n_heads).
    std::string near;
    for (int h = c.n_heads - 1; h >= 1 && near.empty(); --h)
      if (c.d_model % h == 0) near = group_digits(h);
    for (int h = c.n_heads + 1; h <= std::min(c.d_model, 4 * c.n_heads); ++h)  // both ≤ kMaxDim (2^20)
      if (c.d_model % h == 0) {
        near += (near.empty() ? "" : " or ") + group_digits(h);
        break;
      }
    throw Error("d_model (" + std::to_string(c.d_model) + ") is not divisible by n_heads (" + std::to_string(c.n_heads) +
                "): d_k = d_model / n_heads would not be whole. Try n_heads = " + near +
                ", or give d_k and d_v explicitly");
  }
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

int dim_of(const char* name, double value) {
  // Fine values (nearly every call) return at once: the messages, and printf, only for a bad one.
  if (std::isfinite(value) && value == std::floor(value) && value >= 1 && value <= kMaxDim) return static_cast<int>(value);
  char got[40];
  std::snprintf(got, sizeof got, "%.17g", value);  // exact for any whole double, never cast
  require(std::isfinite(value) && value == std::floor(value), std::string(name) + " must be a whole number (got " + got + ")");  // NaN, ±∞, fractions
  require(value >= 1, std::string(name) + " must be a positive integer (got " + got + ")");
  // Above 2^31 (checked in double): it does not fit an int.
  throw Error(std::string(name) + " (" + (value < 1e15 ? group_digits(static_cast<std::uint64_t>(value)) : got) +
              ") is larger than the " + group_digits(kMaxDim) + " this engine accepts");
}

ViewResult resolve_view(const ViewRequest& r) {
  ViewResult out;
  const char* field = "d_model";  // the field being checked: an Error names it
  try {
    MhaConfig c;
    c.d_model = dim_of(field, r.d_model);
    field = "n_heads";
    c.n_heads = dim_of(field, r.n_heads);
    field = "d_k";
    if (r.d_k) c.d_k = dim_of(field, *r.d_k);
    field = "d_v";
    if (r.d_v) c.d_v = dim_of(field, *r.d_v);
    // n_heads against d_model: the head count is what a learner changes to make them divide.
    field = "n_heads";
    resolve_dims(c);  // n_kv_heads not set yet: the head sizes alone
    field = "n_kv_heads";
    if (r.n_kv_heads) {
      const double kv = *r.n_kv_heads;
      // A whole number in int range gets the lesson's messages (at least 1, at most n_heads, a
      // divisor); anything else dim_of's (not whole, too large).
      if (kv == std::floor(kv) && std::fabs(kv) < 2147483648.0) require_kv_heads(c.n_heads, static_cast<int>(kv));
      c.n_kv_heads = dim_of(field, kv);
    }
    out.dims = resolve_dims(c);
    field = "batch";
    out.batch = dim_of(field, r.batch);
    field = "n_q";
    out.n_q = dim_of(field, r.n_q);
    field = "n_k";
    out.n_k = dim_of(field, r.n_k);
    field = "n_q";  // every count of the problem must stay exact
    require_countable(out.dims, out.batch, out.n_q, out.n_k);
    field = "mask";
    r.mask.validate(out.batch, out.n_q, out.n_k);
  } catch (const Error& e) {
    ViewResult failed;
    failed.field = field;
    failed.message = e.what();
    return failed;
  }
  out.kv_head_of.resize(static_cast<std::size_t>(out.dims.n_heads));
  for (int h = 0; h < out.dims.n_heads; ++h) out.kv_head_of[static_cast<std::size_t>(h)] = out.dims.kv_head(h);
  out.ok = true;
  return out;
}

}  // namespace attn
