// The sparse masks 'sliding' (window w: i − w < j ≤ i) and 'strided' (stride s: j ≤ i and
// (i − j < s or (i − j) mod s = 0)): the rule itself, scaled dot-product attention against a
// float64 loop on the whole-row and the streaming paths, the layer's forward and backward against
// the same pattern given as an explicit matrix, the heatmap's mask grid, the visible-pair count,
// and the errors. Edge cases: window 1 and ≥ n, stride 1 and > n, cross-attention, batch > 1.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/backward.h"
#include "core/mha.h"
#include "core/trace.h"
#include "check.h"
#include "mha_fixtures.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_sparse_masks {

namespace {

// The rule as the issue states it, for a window w or a stride s (one of them > 0).
bool sees(int w, int s, int i, int j) {
  if (j > i) return false;
  if (w > 0) return i - w < j;
  return i - j < s || (i - j) % s == 0;
}

attn::Mask sparse(int w, int s) {
  attn::Mask m;
  m.window = w;
  m.stride = s;
  return m;
}

// The same pattern as an explicit n_q×n_k matrix (1 = masked).
attn::Mask as_matrix(int w, int s, int n_q, int n_k) {
  attn::Mask m;
  for (int i = 0; i < n_q; ++i)
    for (int j = 0; j < n_k; ++j) m.matrix.push_back(sees(w, s, i, j) ? 0 : 1);
  return m;
}

// Plain attention in float64 with the rule above: output [batch, n_q, d_v], weights [batch, n_q, n_k].
void naive(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v, int batch, int n_q,
           int n_k, int d_k, int d_v, int w, int s, std::vector<double>& out, std::vector<double>& weights) {
  out.assign(static_cast<std::size_t>(batch) * n_q * d_v, 0.0);
  weights.assign(static_cast<std::size_t>(batch) * n_q * n_k, 0.0);
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < n_q; ++i) {
      std::vector<double> e(n_k, 0.0);
      double mx = -INFINITY, sum = 0.0;
      for (int j = 0; j < n_k; ++j) {
        if (!sees(w, s, i, j)) continue;
        double dot = 0.0;
        for (int t = 0; t < d_k; ++t)
          dot += static_cast<double>(q[(static_cast<std::size_t>(b) * n_q + i) * d_k + t]) *
                 k[(static_cast<std::size_t>(b) * n_k + j) * d_k + t];
        e[j] = dot / std::sqrt(static_cast<double>(d_k));
        mx = std::max(mx, e[j]);
      }
      if (mx == -INFINITY) continue;  // no visible key: weights and output 0
      for (int j = 0; j < n_k; ++j) sum += sees(w, s, i, j) ? std::exp(e[j] - mx) : 0.0;
      for (int j = 0; j < n_k; ++j) {
        const double a = sees(w, s, i, j) ? std::exp(e[j] - mx) / sum : 0.0;
        weights[(static_cast<std::size_t>(b) * n_q + i) * n_k + j] = a;
        for (int t = 0; t < d_v; ++t)
          out[(static_cast<std::size_t>(b) * n_q + i) * d_v + t] += a * v[(static_cast<std::size_t>(b) * n_k + j) * d_v + t];
      }
    }
}

}  // namespace

TEST_CASE("sparse masks: Mask::masked, row limits and the visible-pair count follow the rule", "[sparse]") {
  for (const auto [w, s] : {std::pair{1, 0}, {3, 0}, {9, 0}, {40, 0}, {0, 1}, {0, 3}, {0, 5}, {0, 40}}) {
    for (const auto [n_q, n_k] : {std::pair{9, 9}, {5, 12}, {13, 4}}) {
      attn::Mask m = sparse(w, s);
      std::uint64_t want = 0;
      for (int i = 0; i < n_q; ++i)
        for (int j = 0; j < n_k; ++j) {
          INFO("window " << w << " stride " << s << " i " << i << " j " << j);
          REQUIRE(m.masked(0, i, j, n_k) == !sees(w, s, i, j));
          want += sees(w, s, i, j) ? 1 : 0;
        }
      INFO("window " << w << " stride " << s << " n_q " << n_q << " n_k " << n_k);
      CHECK(attn::visible_pairs(m, 0, n_q, n_k) == want);
      // With padding too: keys past the item's length are hidden as well.
      m.key_lengths = {n_k / 2, n_k};
      std::uint64_t padded = 0;
      for (int i = 0; i < n_q; ++i)
        for (int j = 0; j < n_k / 2; ++j) padded += sees(w, s, i, j) ? 1 : 0;
      CHECK(attn::visible_pairs(m, 0, n_q, n_k) == padded);
      CHECK(attn::visible_pairs(m, 1, n_q, n_k) == want);
    }
  }
  // Closed forms: full causal n(n+1)/2; a window w < n gives n·w − w(w−1)/2.
  attn::Mask causal;
  causal.causal = true;
  CHECK(attn::visible_pairs(causal, 0, 100, 100) == 5050);
  CHECK(attn::visible_pairs(sparse(4, 0), 0, 100, 100) == 100 * 4 - 6);
  CHECK(attn::visible_pairs(attn::Mask{}, 0, 7, 9) == 63);
  CHECK(sparse(4, 0).describe() == "sliding window 4");
  CHECK(sparse(0, 3).describe() == "strided 3");
}

TEST_CASE("scaled dot-product attention with sliding and strided masks matches float64 on both paths", "[sparse]") {
  int seed = 0;
  for (const auto [w, s] : {std::pair{1, 0}, {4, 0}, {200, 0}, {0, 1}, {0, 4}, {0, 300}}) {
    for (const auto [batch, n_q, n_k] : {std::tuple{2, 9, 9}, {1, 6, 11}, {1, 150, 150}}) {
      const int d_k = 5, d_v = 3;
      check::TestRng rng(++seed);
      const std::vector<float> q = rng.vec(static_cast<std::size_t>(batch) * n_q * d_k, -2.0f, 2.0f);
      const std::vector<float> k = rng.vec(static_cast<std::size_t>(batch) * n_k * d_k, -2.0f, 2.0f);
      const std::vector<float> v = rng.vec(static_cast<std::size_t>(batch) * n_k * d_v, -2.0f, 2.0f);
      std::vector<double> want, want_w;
      naive(q, k, v, batch, n_q, n_k, d_k, d_v, w, s, want, want_w);
      for (const int path : {0, 1, 2}) {  // weights returned; whole rows in scratch; streaming key tiles
        attn::AttentionOptions opt;
        opt.mask = sparse(w, s);
        if (path == 2) opt.scratch_logits = 0;
        const attn::AttentionResult r = attn::scaled_dot_product_attention(
            q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), batch, n_q, n_k, d_k, d_v, opt, path == 0,
            attn::kDefaultMemoryBudget);
        const check::Worst e = check::normwise(r.output, want);
        INFO("window " << w << " stride " << s << " batch " << batch << " n_q " << n_q << " n_k " << n_k << " path "
                       << path << ": " << e.describe());
        CHECK(e.err < 1e-6);
        if (path == 0) CHECK(check::max_abs(r.weights, want_w).err < 1e-6);
        CHECK(r.masked_rows.empty());  // key j = i (i < n_k here) is always visible
      }
    }
  }
}

TEST_CASE("the layer's forward and backward with sparse masks equal them with the pattern as a matrix", "[sparse]") {
  attn::MhaConfig cfg = check::mha_config(12, 3, 4, 4, true);
  attn::MultiHeadAttention layer(cfg);
  layer.set_weights(fixtures::random_weights(layer.dims(), 8));
  check::TestRng rng(17);
  for (const auto [w, s] : {std::pair{2, 0}, {0, 3}}) {
    const int batch = 2, n_q = 7, n_k = 10;
    const std::vector<float> xq = rng.vec(batch * n_q * 12, -1.0f, 1.0f), xk = rng.vec(batch * n_k * 12, -1.0f, 1.0f);
    const std::vector<float> dy = rng.vec(xq.size(), -1.0f, 1.0f);
    const attn::MhaInput in{xq.data(), xq.size(), xk.data(), xk.size(), xk.data(), xk.size(), batch, n_q, n_k};
    attn::ForwardOptions a, b;
    a.mask = sparse(w, s);
    b.mask = as_matrix(w, s, n_q, n_k);
    a.need_weights = b.need_weights = true;
    const attn::MhaResult fa = layer.forward(in, a), fb = layer.forward(in, b);
    INFO("window " << w << " stride " << s);
    CHECK(check::max_abs(fa.output, fb.output).err == 0.0);
    CHECK(check::max_abs(fa.weights, fb.weights).err == 0.0);
    const attn::MhaBackwardResult ga = attn::multi_head_attention_backward(layer, in, dy.data(), dy.size(), a);
    const attn::MhaBackwardResult gb = attn::multi_head_attention_backward(layer, in, dy.data(), dy.size(), b);
    CHECK(check::max_abs(ga.grads.wq, gb.grads.wq).err == 0.0);
    CHECK(check::max_abs(ga.key, gb.key).err == 0.0);
    CHECK(check::max_abs(ga.score_grads, gb.score_grads).err == 0.0);
    // And not the same as no mask at all.
    attn::ForwardOptions none;
    CHECK(check::max_abs(layer.forward(in, none).output, fa.output).err > 1e-4);
    // The trace's weights are the forward pass's row.
    const attn::MhaTrace t = layer.trace(in, a, 1, 2, 6);
    for (int j = 0; j < n_k; ++j) CHECK(t.head.weights[j] == fa.weights[((1 * 3 + 2) * n_q + 6) * n_k + j]);
  }
}

TEST_CASE("the heatmap's mask grid paints exactly the cells whose weights are all hidden", "[sparse]") {
  for (const auto [w, s] : {std::pair{3, 0}, {0, 4}}) {
    const attn::Mask m = sparse(w, s);
    for (const auto [rs, cs] : {std::pair{1, 1}, {2, 3}}) {
      const int n = 11;
      const std::vector<std::uint8_t> grid = attn::mask_grid(m, 0, n, n, rs, cs);
      const int cols = (n - 1) / cs + 1;
      for (int r = 0; r * rs < n; ++r)
        for (int c = 0; c * cs < n; ++c) {
          bool all = true;
          for (int i = r * rs; i < std::min(n, (r + 1) * rs); ++i)
            for (int j = c * cs; j < std::min(n, (c + 1) * cs); ++j) all = all && !sees(w, s, i, j);
          INFO("window " << w << " stride " << s << " step " << rs << "×" << cs << " cell " << r << "," << c);
          CHECK(grid[r * cols + c] == (all ? 1 : 0));
        }
    }
  }
}

TEST_CASE("sparse mask errors name the field", "[sparse]") {
  const std::vector<float> x(2 * 4, 1.0f);
  auto run = [&](const attn::Mask& m) {
    attn::AttentionOptions opt;
    opt.mask = m;
    return attn::scaled_dot_product_attention(x.data(), 8, x.data(), 8, x.data(), 8, 1, 2, 2, 4, 4, opt, false,
                                              attn::kDefaultMemoryBudget);
  };
  CHECK_THROWS_WITH(run(sparse(-1, 0)), Catch::Contains("window must be at least 1"));
  CHECK_THROWS_WITH(run(sparse(0, -2)), Catch::Contains("stride must be at least 1"));
  CHECK_THROWS_WITH(run(sparse(2, 2)), Catch::Contains("not both"));
}

}  // namespace test_sparse_masks
