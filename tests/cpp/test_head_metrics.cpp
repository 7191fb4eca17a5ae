// Head comparison: the metrics against a naive float64 reference and closed forms on hand-made
// maps (one-hot rows, uniform rows, a masked row), bad maps refused, and compare_heads on
// constructed heads: identical heads have divergence 0, ablation matches the float64 layer.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "core/embedding.h"
#include "core/head_metrics.h"
#include "mha_fixtures.h"
#include "reference.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_head_metrics {

namespace {

// Naive float64 statistics of one row, straight from the definitions (natural logarithms).
struct RowRef {
  double entropy = 0, distance = 0, top = 0;
};
RowRef row_ref(const std::vector<double>& a, int i) {
  RowRef r;
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (a[j] > 0) r.entropy += -a[j] * std::log(a[j]);
    r.distance += a[j] * std::abs(static_cast<double>(i) - static_cast<double>(j));
    r.top = std::max(r.top, a[j]);
  }
  return r;
}
// KL(p‖m) + KL(q‖m) over 2, m the midpoint: the textbook form of Jensen–Shannon.
double js_ref(const std::vector<double>& p, const std::vector<double>& q) {
  double kl_p = 0, kl_q = 0;
  for (std::size_t j = 0; j < p.size(); ++j) {
    const double m = (p[j] + q[j]) / 2;
    if (p[j] > 0) kl_p += p[j] * std::log(p[j] / m);
    if (q[j] > 0) kl_q += q[j] * std::log(q[j] / m);
  }
  return (kl_p + kl_q) / 2;
}

}  // namespace

TEST_CASE("head metrics match float64 and closed forms on hand-made maps", "[head_metrics]") {
  const int batch = 2, H = 4, n_q = 3, n_k = 5;
  // Rows in double, then stored as float (the values are exact in float except 1/5, 0.3, 0.7).
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(batch) * H * n_q, std::vector<double>(n_k, 0.0));
  auto at = [&](int b, int h, int i) -> std::vector<double>& { return rows[(static_cast<std::size_t>(b) * H + h) * n_q + i]; };
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < n_q; ++i) {
      at(b, 0, i)[i] = 1;                                   // one-hot on itself
      at(b, 1, i)[0] = 1;                                   // one-hot on the first key
      for (double& x : at(b, 2, i)) x = static_cast<double>(0.2f);  // uniform (as float stores it)
      at(b, 3, i)[i] = static_cast<double>(0.3f);           // two keys
      at(b, 3, i)[i + 2] = static_cast<double>(0.7f);
    }
  at(1, 3, 2) = std::vector<double>(n_k, 0.0);              // a fully masked row: left out
  std::vector<float> w;
  for (const auto& r : rows) w.insert(w.end(), r.begin(), r.end());
  const attn::HeadMetrics m = attn::head_metrics(w.data(), w.size(), batch, H, n_q, n_k);
  CHECK(m.max_entropy == Approx(std::log(5.0)).epsilon(1e-15));

  for (int h = 0; h < H; ++h) {
    RowRef sum;
    double top = 0;
    int count = 0;
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n_q; ++i) {
        double total = 0;
        for (double x : at(b, h, i)) total += x;
        if (total == 0) continue;
        const RowRef r = row_ref(at(b, h, i), i);
        sum.entropy += r.entropy;
        sum.distance += r.distance;
        sum.top += r.top;
        top = std::max(top, r.top);
        ++count;
      }
    INFO("head " << h);
    CHECK(m.heads[h].rows == count);
    CHECK(m.heads[h].entropy == Approx(sum.entropy / count).margin(1e-12));
    CHECK(m.heads[h].distance == Approx(sum.distance / count).margin(1e-12));
    CHECK(m.heads[h].mean_max_weight == Approx(sum.top / count).margin(1e-12));
    CHECK(m.heads[h].max_weight == top);
  }
  // Closed forms: one-hot rows have entropy 0; uniform ones ln n_k; distances by hand.
  CHECK(m.heads[0].entropy == 0.0);
  CHECK(m.heads[0].distance == 0.0);
  CHECK(m.heads[1].distance == Approx(1.0).margin(1e-15));  // mean of i over 0, 1, 2
  CHECK(m.heads[2].entropy == Approx(std::log(5.0)).epsilon(1e-6));
  CHECK(m.heads[3].rows == 5);
  CHECK(m.heads[3].distance == Approx(0.7 * 2).epsilon(1e-6));

  for (int h = 0; h < H; ++h)
    for (int g = 0; g < H; ++g) {
      double total = 0;
      int count = 0;
      for (int b = 0; b < batch; ++b)
        for (int i = 0; i < n_q; ++i) {
          double sh = 0, sg = 0;
          for (int j = 0; j < n_k; ++j) sh += at(b, h, i)[j], sg += at(b, g, i)[j];
          if (sh == 0 || sg == 0) continue;
          total += js_ref(at(b, h, i), at(b, g, i));
          ++count;
        }
      INFO("heads " << h << " and " << g);
      CHECK(m.divergence[h * H + g] == Approx(total / count).margin(1e-12));
      CHECK(m.similarity[h * H + g] == Approx(1 - total / count / std::log(2.0)).margin(1e-12));
    }
  // One-hot rows on the same key: 0; on different keys: ln 2. Heads 0 and 1 agree on row 0 only.
  CHECK(m.divergence[0 * H + 0] == 0.0);
  CHECK(m.divergence[0 * H + 1] == Approx(2.0 / 3.0 * std::log(2.0)).margin(1e-12));
}

TEST_CASE("head metrics refuse maps that are not attention weights", "[head_metrics][errors]") {
  using Catch::Contains;
  std::vector<float> w(2 * 3, 0.0f);
  w[0] = 1;
  w[3] = 0.5f;  // head 1 row 0 sums to 0.5
  w[5] = 0.25f;
  CHECK_THROWS_WITH(attn::head_metrics(w.data(), w.size(), 1, 2, 1, 3),
                    Contains("weights: head 1, batch item 0, row 0 sums to 0.75") && Contains("sum to 1 (or 0"));
  w[3] = -0.25f;
  CHECK_THROWS_WITH(attn::head_metrics(w.data(), w.size(), 1, 2, 1, 3), Contains("has a negative entry"));
  w[3] = NAN;
  CHECK_THROWS_WITH(attn::head_metrics(w.data(), w.size(), 1, 2, 1, 3), Contains("weights contains NaN at index 3"));
  CHECK_THROWS_WITH(attn::head_metrics(w.data(), 5, 1, 2, 1, 3), Contains("[batch, n_heads, n_q, n_k] = [1, 2, 1, 3]"));
  CHECK_THROWS_WITH(attn::head_metrics(w.data(), w.size(), 1, 0, 1, 3), Contains("n_heads must be a positive integer"));
}

TEST_CASE("compare_heads: constructed heads differ, twins do not, ablation matches float64", "[head_metrics][heads]") {
  const std::vector<std::string> sentence = {"the", "cat", "sat", "on", "the", "mat", "because", "it", "was", "warm"};
  const int D = 64, H = 4, n = 10;
  attn::MhaConfig cfg = check::mha_config(D, H);
  attn::MultiHeadAttention layer(cfg);
  const attn::PatternInputs in{{sentence}, {}, 7};
  auto spec = [](int h, attn::HeadPattern p) {
    attn::HeadSpec s;
    s.head = h;
    s.pattern = p;
    return s;
  };
  layer.set_head_patterns({spec(0, attn::HeadPattern::previous), spec(1, attn::HeadPattern::previous),
                           spec(2, attn::HeadPattern::first_token), spec(3, attn::HeadPattern::uniform)},
                          in);
  const std::vector<float> x = attn::embed_tokens(in.query_words, D, 7);
  const attn::MhaInput input{x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 1, n, n};
  attn::ForwardOptions opt;
  opt.dropout = 0.5f;  // compare_heads runs inference: ignored
  opt.training = true;
  const attn::HeadComparison c = attn::compare_heads(layer, input, opt);
  const attn::HeadMetrics& m = c.metrics;
  CHECK(m.divergence[0 * H + 1] == 0.0);  // the same construction twice: the same maps
  CHECK(m.similarity[0 * H + 1] == 1.0);
  CHECK(m.divergence[0 * H + 2] > 0.3);
  CHECK(m.heads[3].entropy == Approx(std::log(10.0)).epsilon(1e-6));
  // One step back on rows 1..9; row 0 has no previous token and spreads: between 0.9 and 1.5.
  CHECK(m.heads[0].distance >= 0.9);
  CHECK(m.heads[0].distance <= 1.5);
  CHECK(m.heads[2].distance == Approx(4.5).margin(0.2));   // the first token, from rows 0..9
  CHECK(m.heads[0].mean_max_weight > 0.9);
  WARN("previous: entropy " << m.heads[0].entropy << ", distance " << m.heads[0].distance << "; first_token: entropy "
                            << m.heads[2].entropy << ", distance " << m.heads[2].distance << "; uniform entropy "
                            << m.heads[3].entropy << " (ln 10 = " << std::log(10.0) << "); JS(previous, first) "
                            << m.divergence[2]);

  // Ablation against the float64 layer with that head's rows of Wᴼ zeroed.
  const attn::MhaWeights w = layer.weights();
  attn::AttentionOptions plain;
  const reference::MhaRef full = reference::mha(w, D, H, 16, 16, x.data(), x.data(), x.data(), 1, n, n, plain);
  double norm = 0;
  for (double y : full.output) norm += y * y;
  norm = std::sqrt(norm);
  CHECK(c.ablation.output_norm == Approx(norm).epsilon(1e-5));
  for (int h = 0; h < H; ++h) {
    attn::MhaWeights cut = w;
    std::fill(cut.wo.begin() + h * 16 * D, cut.wo.begin() + (h + 1) * 16 * D, 0.0f);
    const reference::MhaRef off = reference::mha(cut, D, H, 16, 16, x.data(), x.data(), x.data(), 1, n, n, plain);
    double diff = 0;
    for (std::size_t i = 0; i < off.output.size(); ++i) diff += (full.output[i] - off.output[i]) * (full.output[i] - off.output[i]);
    INFO("head " << h);
    CHECK(c.ablation.change[h] == Approx(std::sqrt(diff) / norm).epsilon(1e-4));
  }
  for (int r = 0; r + 1 < H; ++r) CHECK(c.ablation.change[c.ablation.order[r]] >= c.ablation.change[c.ablation.order[r + 1]]);

  // On top of a given head_mask: a head already off changes nothing when switched off again.
  opt.head_mask = {1.0f, 0.0f, 1.0f, 1.0f};
  const attn::HeadComparison masked = attn::compare_heads(layer, input, opt);
  CHECK(masked.ablation.change[1] == 0.0);
  CHECK(masked.ablation.order.back() == 1);
}

}  // namespace test_head_metrics
