// The √d_k lab with gradients (see sqrt_dk_lab.h): random problems at each d_k, run through
// the backward pass of scaled dot-product attention with the scale on and off.
#include "sqrt_dk_lab.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/backward.h"
#include "core/error.h"
#include "core/rng.h"

namespace attn {
namespace {

constexpr std::uint64_t kWorkLimit = 50'000'000;
constexpr std::size_t kMaxValues = 32;
constexpr std::size_t kChunkFloats = std::size_t{1} << 20;  // keys of one call: bounds its memory
constexpr int kRowsPerItem = 16;

double row_norm(const float* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += static_cast<double>(x[i]) * x[i];
  return std::sqrt(s);
}

// Sums over rows, turned into SqrtDkGradientSide by finish().
struct SideSums {
  double saturated = 0.0, entropy = 0.0, max_weight = 0.0;
  std::vector<double> score_norms, query_norms;
  void add(const SdpaBackwardResult& r, int rows, int n_k, int d_k) {
    for (int i = 0; i < rows; ++i) {
      const float* a = r.weights.data() + static_cast<std::size_t>(i) * n_k;
      score_norms.push_back(row_norm(r.score_grads.data() + static_cast<std::size_t>(i) * n_k, n_k));
      query_norms.push_back(row_norm(r.dq.data() + static_cast<std::size_t>(i) * d_k, d_k));
      double h = 0.0, top = 0.0;
      for (int j = 0; j < n_k; ++j) {
        if (a[j] > 0) h -= a[j] * std::log(static_cast<double>(a[j]));
        top = std::max(top, static_cast<double>(a[j]));
      }
      entropy += h;
      max_weight += top;
      saturated += top > 0.99;
    }
  }
  SqrtDkGradientSide finish(int samples) {
    const double n = samples;
    return {median(score_norms), mean(score_norms), median(query_norms), mean(query_norms), saturated / n,
            entropy / n, max_weight / n};
  }
  static double mean(const std::vector<double>& x) {
    double s = 0.0;
    for (double v : x) s += v;
    return s / static_cast<double>(x.size());
  }
  static double median(std::vector<double> x) {
    std::sort(x.begin(), x.end());
    const std::size_t mid = x.size() / 2;
    return x.size() % 2 ? x[mid] : 0.5 * (x[mid - 1] + x[mid]);
  }
};

}  // namespace

SqrtDkGradients sqrt_dk_gradients(const std::vector<int>& d_k_values, int n_k, int samples, std::uint64_t seed) {
  require(!d_k_values.empty() && d_k_values.size() <= kMaxValues,
          "d_k_values must hold 1 to " + std::to_string(kMaxValues) + " values (got " +
              std::to_string(d_k_values.size()) + ")");
  require_positive("n_k", n_k);
  // One key: its weight is 1 whatever the scores, so ∂L/∂S is exactly 0 at every d_k and the
  // spread would be 0/0 (it came out as Infinity). There is nothing to measure: refused.
  require(n_k >= 2, "n_k must be at least 2 for the √d_k gradients (got " + std::to_string(n_k) +
                        "): with a single key its softmax weight is always 1, so no gradient reaches the scores "
                        "at any d_k and there is nothing to compare");
  require_positive("samples", samples);
  double work = 0;  // in double: d_k·n_k·samples of three ints can pass 2^64
  for (int d_k : d_k_values) {
    require_positive("every d_k", d_k);
    work += static_cast<double>(d_k) * n_k * samples;
    require(work <= static_cast<double>(kWorkLimit), "√d_k gradients: the sum of d_k·n_k·samples over d_k_values must be at most " +
                                    group_digits(kWorkLimit) + " to stay interactive (reduce n_k, samples or d_k)");
  }
  SqrtDkGradients out;
  out.n_k = n_k;
  out.samples = samples;
  out.max_entropy = std::log(static_cast<double>(n_k));
  for (int d_k : d_k_values) {
    Rng rng(mix64(seed ^ mix64(static_cast<std::uint64_t>(d_k))));
    const std::size_t item_floats = static_cast<std::size_t>(n_k) * d_k;  // one item's keys
    const int max_items = static_cast<int>(std::max<std::size_t>(1, kChunkFloats / item_floats));
    const float g_scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_k)));
    SideSums sides[2];
    for (int left = samples; left > 0;) {
      // Batch items of up to kRowsPerItem query rows sharing their keys: the backward pass packs
      // an item's keys four ways, which a single row would not repay.
      const int n_q = std::min(kRowsPerItem, left);
      const int batch = std::min(max_items, left / n_q);
      const int rows = batch * n_q;
      left -= rows;
      const std::size_t qn = static_cast<std::size_t>(rows) * d_k, kn = batch * item_floats;
      std::vector<float> q(qn), k(kn), v(kn), g(qn);
      for (float& x : q) x = static_cast<float>(rng.normal());
      for (float& x : k) x = static_cast<float>(rng.normal());
      for (float& x : v) x = static_cast<float>(rng.normal());
      for (float& x : g) x = static_cast<float>(rng.normal()) * g_scale;
      for (int s = 0; s < 2; ++s) {
        AttentionOptions opt;
        opt.scale = s == 0;
        const SdpaBackwardResult r = scaled_dot_product_attention_backward(
            q.data(), qn, k.data(), kn, v.data(), kn, g.data(), qn, batch, n_q, n_k, d_k, d_k, opt, true,
            kDefaultMemoryBudget);
        sides[s].add(r, rows, n_k, d_k);
      }
    }
    out.rows.push_back({d_k, sides[0].finish(samples), sides[1].finish(samples)});
  }
  auto spread = [&](SqrtDkGradientSide SqrtDkGradientRow::*side) {
    double lo = INFINITY, hi = 0.0;
    for (const SqrtDkGradientRow& r : out.rows) {
      lo = std::min(lo, (r.*side).score_grad_median);
      hi = std::max(hi, (r.*side).score_grad_median);
    }
    return lo > 0 ? hi / lo : INFINITY;
  };
  out.scaled_spread = spread(&SqrtDkGradientRow::scaled);
  out.unscaled_spread = spread(&SqrtDkGradientRow::unscaled);
  return out;
}

}  // namespace attn
