// Intermediates that leave float's range inside the engine, although the inputs are finite:
// a finite logit α·q·k whose unscaled sum q·k is not (issue 9, item 1), and a projection that
// overflows to ±∞ and then NaN (item 2). Each must give the true answer or a message naming the
// overflow, on every path (weights, whole rows in scratch, streaming) and in both builds; never
// zeros and never a row falsely reported as fully masked.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/kernels.h"
#include "core/mha.h"
#include "check.h"
#include "reference.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_overflow {

namespace {

// The three ways through attend_head: weights requested, whole rows in scratch, streaming.
struct Path {
  const char* name;
  bool need_weights;
  std::size_t scratch_logits;
};
const Path kPaths[] = {
    {"weights", true, std::size_t{1} << 21},
    {"whole rows in scratch", false, std::size_t{1} << 21},
    {"streaming", false, 0},
};

// d_k 16 (α = 1/4): q = 16 × 4.8e18 and keys of 16 × (±4.8e18) give α·q·k = ±9.2e37, finite,
// while the unscaled sum is ±3.7e38, beyond float's 3.4e38. |q|·|k|·α = 9.2e37 stays under the
// guard's 1e38, so the engine must compute these logits, not refuse them.
constexpr int kDk = 16;
constexpr float kBig = 4.8e18f;

std::vector<float> filled(std::size_t n, float x) { return std::vector<float>(n, x); }

// One query against three keys whose signs are given; v = [[1,2],[3,4],[5,6]].
struct SignCase {
  const char* name;
  float signs[3];
  double want_weights[3];
  double want_out[2];
};
const SignCase kSignCases[] = {
    // Every logit −9.2e37: equal, so uniform weights and the mean of v (the engine returned zeros and
    // reported the row as fully masked).
    {"every key opposite to q", {-1, -1, -1}, {1.0 / 3, 1.0 / 3, 1.0 / 3}, {3, 4}},
    // Key 0 at +9.2e37, keys 1 and 2 at −9.2e37: all the weight on key 0 (the engine refused it as an
    // overflowing output).
    {"key 0 along q, the others opposite", {1, -1, -1}, {1, 0, 0}, {1, 2}},
    // Every logit +9.2e37: uniform again.
    {"every key along q", {1, 1, 1}, {1.0 / 3, 1.0 / 3, 1.0 / 3}, {3, 4}},
};

// The true answer of a sign case: no masked row, its weights, and `out` starting with its output
// (a layer's further columns are 0).
void check_sign_case(const SignCase& c, const std::vector<attn::MaskedRow>& masked, const std::vector<float>& out,
                     const std::vector<float>& weights) {
  CHECK(masked.empty());
  std::vector<double> want_out(out.size(), 0.0);
  want_out[0] = c.want_out[0];
  want_out[1] = c.want_out[1];
  const check::Worst wo = check::max_abs(out, want_out);
  INFO("output: " << wo.describe());
  CHECK(wo.err <= 1e-5);
  if (!weights.empty()) {
    const check::Worst ww = check::max_abs(weights.data(), c.want_weights, 3);
    INFO("weights: " << ww.describe());
    CHECK(ww.err <= 1e-6);
  }
}

}  // namespace

TEST_CASE("a finite logit α·q·k is computed even when the unscaled sum q·k overflows float32", "[overflow][item1]") {
  const std::vector<float> q = filled(kDk, kBig), v = {1, 2, 3, 4, 5, 6};
  for (const SignCase& c : kSignCases)
    for (const Path& path : kPaths) {
      INFO(c.name << ", " << path.name);
      std::vector<float> k;
      for (float s : c.signs)
        for (int x = 0; x < kDk; ++x) k.push_back(s * kBig);
      attn::AttentionOptions opt;
      opt.scratch_logits = path.scratch_logits;
      attn::AttentionResult r;
      REQUIRE_NOTHROW(r = attn::scaled_dot_product_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(),
                                                              1, 1, 3, kDk, 2, opt, path.need_weights,
                                                              attn::kDefaultMemoryBudget));
      check_sign_case(c, r.masked_rows, r.output, r.weights);
    }
}

TEST_CASE("logits near the guard's bound match float64 on every path, across tiles and query blocks", "[overflow][item1]") {
  // Rows of q with entries ±4.8e18·(1 − 0.02·u), u uniform in [0, 1), one random sign per row;
  // key j is ±4.8e18·(1 − 0.02·j/n_k) in every column. Every unscaled q·k is about ±3.6e38
  // (beyond float: it overflowed before), every α·q·k about ±9e37 (within the guard's 1e38).
  // Neighbouring keys' logits differ by ~1.3e34, far above float's rounding (~1e32) and far
  // beyond exp's range: each row is one-hot on the key the float64 reference picks. 600 query
  // rows (two query blocks), 140 keys (two key tiles), a causal mask (row 0 sees one key).
  const int n_q = 600, n_k = 140, d_v = 3;
  check::TestRng rng(77);
  std::vector<float> q(static_cast<std::size_t>(n_q) * kDk), k(static_cast<std::size_t>(n_k) * kDk);
  for (int i = 0; i < n_q; ++i) {
    const float sign = rng.below(2) ? 1.0f : -1.0f;
    for (int c = 0; c < kDk; ++c) q[static_cast<std::size_t>(i) * kDk + c] = sign * kBig * (1.0f - 0.02f * rng.uniform(0.0f, 1.0f));
  }
  for (int j = 0; j < n_k; ++j) {
    const float sign = rng.below(2) ? 1.0f : -1.0f;
    for (int c = 0; c < kDk; ++c) k[static_cast<std::size_t>(j) * kDk + c] = sign * kBig * (1.0f - 0.02f * j / n_k);
  }
  const std::vector<float> v = rng.vec(static_cast<std::size_t>(n_k) * d_v, -1.0f, 1.0f);
  attn::AttentionOptions opt;
  opt.mask.causal = true;
  const reference::AttentionRef want = reference::attention(q, k, v, 1, n_q, n_k, kDk, d_v, opt);
  for (const Path& path : kPaths) {
    INFO(path.name);
    opt.scratch_logits = path.scratch_logits;
    attn::AttentionResult r;
    REQUIRE_NOTHROW(r = attn::scaled_dot_product_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), 1,
                                                            n_q, n_k, kDk, d_v, opt, path.need_weights,
                                                            attn::kDefaultMemoryBudget));
    CHECK(r.masked_rows.empty());
    const check::Worst w = check::normwise(r.output, want.output);
    INFO(w.describe());
    CHECK(w.err <= 1e-5);
  }
}

TEST_CASE("multi-head attention: Q and K projections whose unscaled logits overflow give the true answer", "[overflow][item1]") {
  // d_model 16, one head (d_k 16), identity weights, no bias: the projections are the inputs, so
  // this is the plain-attention case above through the layer. Value rows [1,2,0,…], [3,4,0,…], [5,6,0,…].
  const int D = 16;
  attn::MultiHeadAttention layer(check::mha_config(D, 1, 0, 0, false));
  attn::MhaWeights w = layer.weights();
  for (auto* m : {&w.wq, &w.wk, &w.wv, &w.wo}) {
    m->assign(static_cast<std::size_t>(D) * D, 0.0f);
    for (int i = 0; i < D; ++i) (*m)[static_cast<std::size_t>(i) * D + i] = 1.0f;
  }
  layer.set_weights(w);
  std::vector<float> value(static_cast<std::size_t>(3) * D, 0.0f);
  for (int j = 0; j < 3; ++j) {
    value[static_cast<std::size_t>(j) * D] = 2.0f * j + 1;
    value[static_cast<std::size_t>(j) * D + 1] = 2.0f * j + 2;
  }
  const std::vector<float> query = filled(D, kBig);
  for (const SignCase& c : kSignCases)
    for (const Path& path : kPaths) {
      INFO(c.name << ", " << path.name);
      std::vector<float> key;
      for (float s : c.signs)
        for (int x = 0; x < D; ++x) key.push_back(s * kBig);
      attn::ForwardOptions opt;
      opt.need_weights = path.need_weights;
      opt.scratch_logits = path.scratch_logits;
      const attn::MhaInput in{query.data(), query.size(), key.data(), key.size(), value.data(), value.size(), 1, 1, 3};
      attn::MhaResult r;
      REQUIRE_NOTHROW(r = layer.forward(in, opt));
      check_sign_case(c, r.masked_rows, r.output, r.weights);
    }
}

TEST_CASE("logits whose scaled value itself overflows are refused by name, never zeros", "[overflow][item1]") {
  // Without the 1/√d_k scale α·q·k = 3.7e38 really is beyond float: a message, on every path.
  const std::vector<float> q = filled(kDk, kBig), k = filled(3 * kDk, -kBig), v = {1, 2, 3, 4, 5, 6};
  for (const Path& path : kPaths) {
    INFO(path.name);
    attn::AttentionOptions opt;
    opt.scale = false;
    opt.scratch_logits = path.scratch_logits;
    CHECK_THROWS_WITH(attn::scaled_dot_product_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), 1, 1,
                                                          3, kDk, 2, opt, path.need_weights, attn::kDefaultMemoryBudget),
                      Catch::Contains("the attention scores can overflow float32"));
  }
}

namespace {

// Issue 9, item 2: d_model 2, one head, no bias, Wq all 2, Wk = Wv = Wo = I. A query [3e38, −3e38]
// projects to 3e38·2 − 3e38·2 = ∞ − ∞ = NaN in float.
attn::MultiHeadAttention nan_layer(float wq, float wk, float wv) {
  attn::MultiHeadAttention layer(check::mha_config(2, 1, 0, 0, false));
  attn::MhaWeights w = layer.weights();
  auto fill = [](float x) { return x == 0.0f ? std::vector<float>{1, 0, 0, 1} : std::vector<float>(4, x); };
  w.wq = fill(wq);
  w.wk = fill(wk);
  w.wv = fill(wv);
  w.wo = fill(0.0f);
  layer.set_weights(w);
  return layer;
}

}  // namespace

TEST_CASE("a projection that overflows to ±∞ or NaN is reported by stage, never as a masked row", "[overflow][item2]") {
  const std::vector<float> identity = {1, 0, 0, 1};  // key = value = I: two rows
  const std::vector<float> mixed = {3e38f, -3e38f, 3e38f, -3e38f}, same = {3e38f, 3e38f, 3e38f, 3e38f};
  struct Case {
    const char* name;
    float wq, wk, wv;  // 0: the identity
    const std::vector<float>* query;
    const std::vector<float>* key;
    const std::vector<float>* value;
    const char* want;
  };
  const Case cases[] = {
      {"query projection ∞ − ∞ = NaN (the issue's repro)", 2, 0, 0, &mixed, &identity, &identity,
       "the query projection overflowed float32 (batch item 0, head 0, NaN)"},
      {"query projection +∞", 2, 0, 0, &same, &identity, &identity,
       "the query projection overflowed float32 (batch item 0, head 0, ±Infinity)"},
      {"key projection NaN", 0, 2, 0, &identity, &mixed, &identity, "the key projection overflowed float32"},
      {"value projection NaN", 0, 0, 2, &identity, &identity, &mixed, "the value projection overflowed float32"},
  };
  for (const Case& c : cases)
    for (const Path& path : kPaths) {
      INFO(c.name << ", " << path.name);
      const attn::MultiHeadAttention layer = nan_layer(c.wq, c.wk, c.wv);
      attn::ForwardOptions opt;
      opt.need_weights = path.need_weights;
      opt.scratch_logits = path.scratch_logits;
      const attn::MhaInput in{c.query->data(), c.query->size(), c.key->data(), c.key->size(), c.value->data(),
                              c.value->size(), 1, static_cast<int>(c.query->size() / 2), 2};
      CHECK_THROWS_WITH(layer.forward(in, opt), Catch::Contains(c.want) && Catch::Contains("too large"));
    }
}

TEST_CASE("max_row_norm2 keeps NaN and ∞ (std::max dropped NaN), and finite rows give finite norms", "[overflow][item2]") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // Three rows of width 5 (stride 6): a NaN in the middle row, after and before finite rows.
  std::vector<float> x = {1, 2, 3, 4, 5, 0, 1, nan, 1, 1, 1, 0, 9, 9, 9, 9, 9, 0};
  CHECK(std::isnan(attn::max_row_norm2(x.data(), 6, 3, 5)));
  x[7] = inf;
  CHECK(attn::max_row_norm2(x.data(), 6, 3, 5) == inf);
  x[7] = 1;
  CHECK(attn::max_row_norm2(x.data(), 6, 3, 5) == 405.0);
  // The largest finite floats: their squares sum in double without overflowing.
  const std::vector<float> big(64, std::numeric_limits<float>::max());
  CHECK(std::isfinite(attn::max_row_norm2(big.data(), 64, 1, 64)));
}

TEST_CASE("row_max and softmax_row never read a NaN as a fully masked row, in every kernel set", "[overflow][item2][kernels]") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), neg_inf = -std::numeric_limits<float>::infinity();
  // NaN at every position of rows whose other entries are −∞ (masked): lengths below, equal to and
  // past the 4-wide SIMD step, so the vector body and the leftovers both see it.
  for (int n : {1, 3, 4, 5, 8, 11}) {
    for (int at = 0; at < n; ++at) {
      INFO("n " << n << ", NaN at " << at);
      std::vector<float> row(n, neg_inf);
      row[at] = nan;
      CHECK(std::isnan(attn::ref::row_max(row.data(), n)));
      CHECK(std::isnan(attn::kern::row_max(row.data(), n)));
      std::vector<float> a = row, b = row;
      CHECK(attn::ref::softmax_row(a.data(), n));  // true: not a masked row
      CHECK(attn::kern::softmax_row(b.data(), n));
      CHECK(check::count_non_finite(b) > 0);  // the NaN shows, it is not turned into zeros
      // The same with finite neighbours.
      std::vector<float> f(n, 1.0f);
      f[at] = nan;
      CHECK(std::isnan(attn::kern::row_max(f.data(), n)));
    }
  }
  // A truly masked row is still masked.
  std::vector<float> masked(7, neg_inf);
  CHECK(attn::kern::row_max(masked.data(), 7) == neg_inf);
  CHECK_FALSE(attn::kern::softmax_row(masked.data(), 7));
}

}  // namespace test_overflow
