// Test helpers shared by the suite: a seeded input generator of the tests' own, and comparisons
// that find the worst element so a failing check prints its index, both values and the max error.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/dims.h"

namespace check {

/// A layer configuration in one call (d_k, d_v 0: derived from d_model / n_heads).
inline attn::MhaConfig mha_config(int d_model, int n_heads, int d_k = 0, int d_v = 0, bool bias = true,
                                  std::uint64_t seed = 1) {
  attn::MhaConfig c;
  c.d_model = d_model;
  c.n_heads = n_heads;
  c.d_k = d_k;
  c.d_v = d_v;
  c.bias = bias;
  c.seed = seed;
  return c;
}

/// xorshift64* with a fixed seed: test inputs that are the same on every platform and do not
/// depend on the engine's own generator (so a bug there cannot hide in the inputs).
class TestRng {
 public:
  explicit TestRng(std::uint64_t seed) : s_(seed * 2654435761ull + 0x9E3779B97F4A7C15ull) {
    if (s_ == 0) s_ = 1;
  }
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 2685821657736338717ull;
  }
  /// Uniform in [lo, hi), 24 random bits.
  float uniform(float lo, float hi) {
    const float u = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  std::vector<float> vec(std::size_t n, float lo, float hi) {
    std::vector<float> v(n);
    for (float& x : v) x = uniform(lo, hi);
    return v;
  }

 private:
  std::uint64_t s_;
};

/// The worst element of a comparison: what a failing check prints.
struct Worst {
  double err = 0.0;       // the measured error (its meaning depends on the comparison)
  std::size_t index = 0;  // flat index of the worst element
  double got = 0.0, want = 0.0;
  double scale = 0.0;     // max |want| for normwise comparisons
  std::size_t count = 0;
  std::string describe() const {
    std::ostringstream out;
    out.precision(9);
    out << "worst at index " << index << " of " << count << ": got " << got << ", want " << want
        << ", error " << err;
    if (scale > 0) out << " (max |reference| " << scale << ")";
    return out.str();
  }
};

/// Normwise relative error max|got − want| / max|want| (the MHA criterion). NaN counts as ∞.
template <typename A, typename B>
Worst normwise(const A* got, const B* want, std::size_t n) {
  Worst w;
  w.count = n;
  double max_abs = 0.0, max_ref = 0.0;
  for (std::size_t i = 0; i < n; ++i) max_ref = std::fmax(max_ref, std::fabs(static_cast<double>(want[i])));
  for (std::size_t i = 0; i < n; ++i) {
    double d = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    if (d != d) d = INFINITY;
    if (d > max_abs || i == 0) {
      max_abs = d;
      w.index = i;
      w.got = got[i];
      w.want = want[i];
    }
  }
  w.scale = max_ref;
  w.err = max_ref > 0 ? max_abs / max_ref : max_abs;
  return w;
}
template <typename A, typename B>
Worst normwise(const std::vector<A>& got, const std::vector<B>& want) {
  return normwise(got.data(), want.data(), got.size() < want.size() ? got.size() : want.size());
}

/// Largest absolute difference.
template <typename A, typename B>
Worst max_abs(const A* got, const B* want, std::size_t n) {
  Worst w;
  w.count = n;
  for (std::size_t i = 0; i < n; ++i) {
    double d = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    if (d != d) d = INFINITY;
    if (d > w.err || i == 0) {
      w.err = d;
      w.index = i;
      w.got = got[i];
      w.want = want[i];
    }
  }
  return w;
}
template <typename A, typename B>
Worst max_abs(const std::vector<A>& got, const std::vector<B>& want) {
  return max_abs(got.data(), want.data(), got.size() < want.size() ? got.size() : want.size());
}

/// Componentwise: err is the worst ratio |got − want| / (rel·|want| + abs_floor); ≤ 1 passes.
template <typename A, typename B>
Worst ratio(const A* got, const B* want, std::size_t n, double rel, double abs_floor) {
  Worst w;
  w.count = n;
  for (std::size_t i = 0; i < n; ++i) {
    const double g = static_cast<double>(got[i]), t = static_cast<double>(want[i]);
    double r = std::fabs(g - t) / (rel * std::fabs(t) + abs_floor);
    if (r != r) r = INFINITY;
    if (r > w.err || i == 0) {
      w.err = r;
      w.index = i;
      w.got = g;
      w.want = t;
    }
  }
  return w;
}

/// Number of non-finite values (NaN or ±∞).
template <typename T>
std::size_t count_non_finite(const std::vector<T>& v) {
  std::size_t n = 0;
  for (T x : v) n += std::isfinite(static_cast<double>(x)) ? 0 : 1;
  return n;
}

}  // namespace check
