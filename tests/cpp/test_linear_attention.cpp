// Linear attention (labs/linear_attention.h) against float64 loops written the direct, quadratic way
// here: out_i = Σ_j (φ(q_i)·φ(k_j))·v_j / Σ_j φ(q_i)·φ(k_j), so the engine's reordering (S and z
// summed first) is checked, not repeated. Causal, batch > 1, n_q ≠ n_k, the cost counts and their
// crossover against direct evaluation, and bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "labs/linear_attention.h"
#include "check.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_linear_attention {

namespace {

double phi(double x) { return x > 0 ? x + 1 : std::exp(x); }

std::vector<double> direct(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                           int batch, int n_q, int n_k, int d_k, int d_v, bool causal) {
  std::vector<double> out;
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < n_q; ++i) {
      std::vector<double> num(d_v, 0.0);
      double den = 0;
      for (int j = 0; j < n_k && (!causal || j <= i); ++j) {
        double w = 0;
        for (int t = 0; t < d_k; ++t)
          w += phi(q[(static_cast<std::size_t>(b) * n_q + i) * d_k + t]) * phi(k[(static_cast<std::size_t>(b) * n_k + j) * d_k + t]);
        den += w;
        for (int t = 0; t < d_v; ++t) num[t] += w * v[(static_cast<std::size_t>(b) * n_k + j) * d_v + t];
      }
      for (double x : num) out.push_back(x / den);
    }
  return out;
}

}  // namespace

TEST_CASE("φ = elu + 1", "[linear_attention]") {
  CHECK(attn::elu_plus_one(2.0) == 3.0);
  CHECK(attn::elu_plus_one(0.0) == 1.0);
  CHECK(attn::elu_plus_one(-1.0) == Approx(std::exp(-1.0)));
}

TEST_CASE("linear attention matches the direct float64 sum, plain and causal", "[linear_attention]") {
  struct Case { int batch, n_q, n_k, d_k, d_v; bool causal; };
  for (const Case c : {Case{1, 5, 5, 3, 2, false}, Case{3, 7, 11, 4, 6, false}, Case{2, 9, 9, 5, 3, true},
                       Case{1, 1, 1, 1, 1, true}, Case{2, 16, 16, 8, 8, true}}) {
    check::TestRng rng(c.n_q * 31 + c.d_k);
    const auto q = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * c.d_k, -3.0f, 3.0f);
    const auto k = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_k, -3.0f, 3.0f);
    const auto v = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_v, -1.0f, 1.0f);
    const std::vector<float> got = attn::linear_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(),
                                                          c.batch, c.n_q, c.n_k, c.d_k, c.d_v, c.causal);
    const check::Worst w = check::normwise(got, direct(q, k, v, c.batch, c.n_q, c.n_k, c.d_k, c.d_v, c.causal));
    INFO("batch " << c.batch << " n_q " << c.n_q << " n_k " << c.n_k << " causal " << c.causal << ": " << w.describe());
    REQUIRE(got.size() == static_cast<std::size_t>(c.batch) * c.n_q * c.d_v);
    CHECK(w.err < 1e-6);
    if (c.causal) {  // row 0 sees only key 0: its output is v_0
      for (int t = 0; t < c.d_v; ++t) CHECK(got[t] == Approx(v[t]).epsilon(1e-6));
    }
  }
}

TEST_CASE("linear attention's cost: the terms add up, and the crossover is where it starts to win", "[linear_attention]") {
  for (const bool causal : {false, true})
    for (const std::pair<int, int>& dims : {std::pair{64, 64}, std::pair{16, 8}, std::pair{1, 1}, std::pair{128, 32}}) {
      // Plain variables, not a structured binding: clang 14 cannot capture one in the lambda below.
      const int d_k = dims.first, d_v = dims.second;
      INFO("d_k " << d_k << " d_v " << d_v << " causal " << causal);
      const int n = 300;
      const attn::LinearAttentionCost c = attn::linear_attention_cost(n, d_k, d_v, causal);
      const double pairs = causal ? n * (n + 1) / 2.0 : double(n) * n;
      CHECK(double(c.softmax_total) == pairs * (2.0 * d_k + 2.0 * d_v + 4));
      CHECK(double(c.linear_total) == double(n) * (4.0 * d_k * d_v + 5.0 * d_k + d_v));
      CHECK(double(c.softmax[0]) == 2.0 * pairs * d_k);
      CHECK(double(c.linear[1]) == 2.0 * n * d_k * d_v);
      std::uint64_t sum = 0;
      for (std::uint64_t t : c.linear) sum += t;
      CHECK(sum == c.linear_total);
      CHECK(c.ratio == Approx(double(c.softmax_total) / double(c.linear_total)));
      const auto wins = [&](std::uint64_t m) {
        const attn::LinearAttentionCost x = attn::linear_attention_cost(static_cast<int>(m), d_k, d_v, causal);
        return x.linear_total < x.softmax_total;
      };
      REQUIRE(c.crossover_n >= 1);
      CHECK(wins(c.crossover_n));
      if (c.crossover_n > 1) CHECK_FALSE(wins(c.crossover_n - 1));
    }
}

TEST_CASE("linear attention names the field of bad input", "[linear_attention]") {
  std::vector<float> q(2 * 3 * 4, 0.5f), k(2 * 5 * 4, 0.25f), v(2 * 5 * 2, 1.0f);
  CHECK_THROWS_WITH(attn::linear_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), 2, 3, 5, 4, 2, true),
                    Catch::Contains("n_q = n_k"));
  CHECK_THROWS_WITH(attn::linear_attention(q.data(), q.size() - 1, k.data(), k.size(), v.data(), v.size(), 2, 3, 5, 4, 2, false),
                    Catch::Contains("query"));
  CHECK_THROWS_WITH(attn::linear_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), 2, 3, 5, 4, 3, false),
                    Catch::Contains("value"));
  CHECK_THROWS_WITH(attn::linear_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), 0, 3, 5, 4, 2, false),
                    Catch::Contains("batch"));
  k[3] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH(attn::linear_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), 2, 3, 5, 4, 2, false),
                    Catch::Contains("key contains +Infinity"));
  CHECK_THROWS_WITH(attn::linear_attention_cost(0, 4, 4, false), Catch::Contains("n"));
  CHECK_THROWS_WITH(attn::linear_attention_cost(8, 4, -1, false), Catch::Contains("d_v"));
}

// φ(x) = exp(x) for x ≤ 0, so keys (or queries) far below zero make every φ product underflow in
// float64 (exp(−1000) = 0) although the true output is well defined: moving every component of every
// key by the same c ≤ −x_max multiplies every weight by exp(c), which cancels in the ratio. The engine
// must give the unshifted problem's answer, never the zero a naive double sum gives.
TEST_CASE("linear attention does not underflow: far-negative keys or queries give the true output", "[linear_attention]") {
  SECTION("k = −1000 in every component: every key has the same weight, the output is mean(v)") {
    const int n_k = 3, d_k = 4, d_v = 3;
    const std::vector<float> q(d_k, 0.5f), k(n_k * d_k, -1000.0f);
    const std::vector<float> v = {1, 2, 3, 5.5f, 6.5f, 7.5f, 10, 11, 12};
    for (const bool causal : {false, true}) {
      const std::vector<float> qq(causal ? n_k * d_k : d_k, 0.5f);
      const int n_q = causal ? n_k : 1;
      const std::vector<float> got = attn::linear_attention(qq.data(), qq.size(), k.data(), k.size(), v.data(), v.size(),
                                                            1, n_q, n_k, d_k, d_v, causal);
      const int last = (n_q - 1) * d_v;  // the last row sees every key
      INFO("causal " << causal << ": got " << got[last] << ", " << got[last + 1] << ", " << got[last + 2]);
      CHECK(got[last + 0] == Approx(5.5).epsilon(1e-6));
      CHECK(got[last + 1] == Approx(6.5).epsilon(1e-6));
      CHECK(got[last + 2] == Approx(7.5).epsilon(1e-6));
      if (causal) CHECK(got[0] == Approx(1.0).epsilon(1e-6));  // row 0 sees key 0 only
    }
  }
  SECTION("random keys shifted by −1000, −5000, or queries shifted: the unshifted float64 answer") {
    struct Case { int batch, n_q, n_k, d_k, d_v; bool causal; float key_shift, query_shift; };
    for (const Case c : {Case{1, 5, 7, 4, 3, false, -1000, 0}, Case{2, 6, 6, 8, 5, true, -1000, 0},
                         Case{1, 4, 9, 3, 2, false, -5000, 0}, Case{2, 7, 7, 5, 4, true, 0, -2000},
                         Case{1, 5, 5, 6, 3, false, -800, -900}}) {
      check::TestRng rng(c.n_k * 7 + c.d_k);
      // Components in [−3, 0]: φ = exp there, so a uniform shift scales every weight by one factor.
      const auto q0 = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * c.d_k, -3.0f, 0.0f);
      const auto k0 = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_k, -3.0f, 0.0f);
      const auto v = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_v, -1.0f, 1.0f);
      std::vector<float> q = q0, k = k0, q_back = q0, k_back = k0;
      // Shift in float, then undo in float: the reference sees exactly the values the engine got.
      for (std::size_t x = 0; x < q.size(); ++x) {
        q[x] = q0[x] + c.query_shift;
        q_back[x] = static_cast<float>(static_cast<double>(q[x]) - c.query_shift);
      }
      for (std::size_t x = 0; x < k.size(); ++x) {
        k[x] = k0[x] + c.key_shift;
        k_back[x] = static_cast<float>(static_cast<double>(k[x]) - c.key_shift);
      }
      const std::vector<float> got = attn::linear_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(),
                                                            c.batch, c.n_q, c.n_k, c.d_k, c.d_v, c.causal);
      const check::Worst w = check::normwise(got, direct(q_back, k_back, v, c.batch, c.n_q, c.n_k, c.d_k, c.d_v, c.causal));
      INFO("key shift " << c.key_shift << " query shift " << c.query_shift << " causal " << c.causal << ": " << w.describe());
      CHECK(w.err < 1e-6);
    }
  }
}

}  // namespace test_linear_attention
