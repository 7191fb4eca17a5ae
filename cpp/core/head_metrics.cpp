// Head comparison: per-head statistics of the attention maps, the pairwise Jensen–Shannon
// divergence of rows, and ablation by head_mask.
#include "head_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "error.h"

namespace attn {
namespace {

// −p·ln p, with 0·ln 0 = 0.
double plogp(double p) { return p > 0 ? p * std::log(p) : 0.0; }

// Jensen–Shannon divergence of two rows, in nats.
double jensen_shannon(const float* p, const float* q, int n) {
  double s = 0.0;
  for (int j = 0; j < n; ++j) {
    const double a = p[j], b = q[j], m = 0.5 * (a + b);
    if (m > 0) s += 0.5 * (plogp(a) + plogp(b)) - plogp(m);
  }
  return std::max(s, 0.0);  // rounding can leave −1e-17
}

// A row of weights that is no distribution, said once found: built for every weight, the message cost a
// comparison of heads about 100 forward passes.
[[noreturn]] __attribute__((noinline)) void bad_row(int h, int b, int i, const std::string& problem) {
  throw Error("weights: head " + std::to_string(h) + ", batch item " + std::to_string(b) + ", row " + std::to_string(i) + problem);
}

}  // namespace

HeadMetrics head_metrics(const float* w, std::size_t length, int batch, int n_heads, int n_q, int n_k) {
  require_positive("batch", batch);
  require_positive("n_heads", n_heads);
  require_positive("n_q", n_q);
  require_positive("n_k", n_k);
  const std::uint64_t rows = static_cast<std::uint64_t>(batch) * n_q, per_head = static_cast<std::uint64_t>(n_q) * n_k;
  const std::uint64_t want = rows * n_heads * n_k;
  require_length("weights", length, want, "[batch, n_heads, n_q, n_k] = [" + std::to_string(batch) + ", " +
                                              std::to_string(n_heads) + ", " + std::to_string(n_q) + ", " +
                                              std::to_string(n_k) + "]");
  // The divergence compares every pair of heads on every row: keep it interactive.
  require(static_cast<double>(n_heads) * n_heads * static_cast<double>(rows) * n_k <= 4e9,
          "comparing " + std::to_string(n_heads) + " heads over " + group_digits(rows) + " rows of " +
              group_digits(n_k) + " keys is too much work (n_heads²·batch·n_q·n_k at most 4e9)");
  require_finite("weights", w, length, n_k);
  auto row = [&](int b, int h, int i) { return w + ((static_cast<std::size_t>(b) * n_heads + h) * per_head + static_cast<std::size_t>(i) * n_k); };

  HeadMetrics m;
  m.n_heads = n_heads;
  m.max_entropy = std::log(static_cast<double>(n_k));
  m.heads.assign(n_heads, HeadStats{0, 0, 0, 0, 0});
  // live[(b·n_q + i)·n_heads + h]: the row is a distribution (not all zeros), so it takes part.
  std::vector<char> live(rows * n_heads, 0);
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < n_heads; ++h)
      for (int i = 0; i < n_q; ++i) {
        const float* a = row(b, h, i);
        double sum = 0.0, entropy = 0.0, distance = 0.0, top = 0.0;
        for (int j = 0; j < n_k; ++j) {
          if (!(a[j] >= 0.0f)) bad_row(h, b, i, " has a negative entry (" + std::to_string(a[j]) + ")");
          sum += a[j];
          entropy -= plogp(a[j]);
          distance += a[j] * std::fabs(static_cast<double>(i - j));
          top = std::max(top, static_cast<double>(a[j]));
        }
        if (sum == 0.0) continue;
        if (!(std::fabs(sum - 1.0) <= 1e-3))
          bad_row(h, b, i, " sums to " + std::to_string(sum) + "; attention weights sum to 1 (or 0 for a fully masked row)");
        HeadStats& s = m.heads[h];
        s.entropy += entropy;
        s.distance += distance;
        s.mean_max_weight += top;
        s.max_weight = std::max(s.max_weight, top);
        ++s.rows;
        live[(static_cast<std::size_t>(b) * n_q + i) * n_heads + h] = 1;
      }
  for (HeadStats& s : m.heads)
    if (s.rows > 0) {
      s.entropy /= s.rows;
      s.distance /= s.rows;
      s.mean_max_weight /= s.rows;
    }
  m.divergence.assign(static_cast<std::size_t>(n_heads) * n_heads, 0.0);
  for (int h = 0; h < n_heads; ++h)
    for (int g = h + 1; g < n_heads; ++g) {
      double total = 0.0;
      std::int64_t count = 0;
      for (int b = 0; b < batch; ++b)
        for (int i = 0; i < n_q; ++i) {
          const std::size_t r = (static_cast<std::size_t>(b) * n_q + i) * n_heads;
          if (!live[r + h] || !live[r + g]) continue;
          total += jensen_shannon(row(b, h, i), row(b, g, i), n_k);
          ++count;
        }
      const double d = count ? total / count : 0.0;
      m.divergence[static_cast<std::size_t>(h) * n_heads + g] = m.divergence[static_cast<std::size_t>(g) * n_heads + h] = d;
    }
  m.similarity.resize(m.divergence.size());
  for (std::size_t i = 0; i < m.divergence.size(); ++i) m.similarity[i] = 1.0 - m.divergence[i] / std::log(2.0);
  return m;
}

HeadComparison compare_heads(const MultiHeadAttention& layer, const MhaInput& input, ForwardOptions options) {
  const int H = layer.dims().n_heads;
  options.training = false;
  options.need_weights = true;
  if (options.head_mask.empty()) options.head_mask.assign(H, 1.0f);
  const MhaResult base = layer.forward(input, options);  // validates everything first
  HeadComparison c;
  c.metrics = head_metrics(base.weights.data(), base.weights.size(), input.batch, H, input.n_q, input.n_k);
  double norm2 = 0.0;
  for (float y : base.output) norm2 += static_cast<double>(y) * y;
  c.ablation.output_norm = std::sqrt(norm2);
  // The ablation runs take the same path as the base run (weights on), so a head that the
  // given mask has switched off already changes nothing, not even the rounding.
  const std::vector<float> mask = options.head_mask;
  for (int h = 0; h < H; ++h) {
    options.head_mask = mask;
    options.head_mask[h] = 0.0f;
    const MhaResult off = layer.forward(input, options);
    double diff2 = 0.0;
    for (std::size_t i = 0; i < off.output.size(); ++i) {
      const double d = static_cast<double>(base.output[i]) - off.output[i];
      diff2 += d * d;
    }
    c.ablation.change.push_back(c.ablation.output_norm > 0 ? std::sqrt(diff2) / c.ablation.output_norm : std::sqrt(diff2));
  }
  c.ablation.order.resize(H);
  std::iota(c.ablation.order.begin(), c.ablation.order.end(), 0);
  std::stable_sort(c.ablation.order.begin(), c.ablation.order.end(),
                   [&](int a, int b) { return c.ablation.change[a] > c.ablation.change[b]; });
  return c;
}

}  // namespace attn
