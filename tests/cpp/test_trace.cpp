// The trace of one query (trace.h): its weights and outputs equal the forward pass's bit for bit
// (need_weights) and within a measured bound of the paths without weights; every intermediate
// against the float64 reference and against the softmax's own definition; masks, fully masked
// rows, dropout, cross-attention, d_k ≠ d_v, scale off; bad indices; memory independent of n_q.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "core/attention.h"
#include "core/error.h"
#include "core/mha.h"
#include "core/rng.h"
#include "core/trace.h"
#include "check.h"
#include "mha_fixtures.h"
#include "reference.h"

// The allocation probe of test_errors.cpp (its global operator new counts live bytes and peak).
namespace alloc_probe {
extern bool open;
extern std::size_t largest, live, peak;
}  // namespace alloc_probe

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_trace {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// Against float64, the suite's bars: normwise 1e-5 on vectors, 1e-5 absolute on weights in [0, 1].
constexpr double kTol = 1e-5;
// float's unit roundoff, 2^-24.
constexpr double kU = 1.0 / 16777216.0;

using fixtures::kCausal;
using fixtures::kMatrix;
using fixtures::kNone;
using fixtures::kPadding;

// Index of the first element whose bits differ, or n when a and b are identical bit for bit.
std::size_t first_bit_difference(const float* a, const float* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (std::memcmp(a + i, b + i, sizeof(float)) != 0) return i;
  return n;
}

// CHECKs that got[0..n) equals want[0..n) bit for bit, naming the first difference.
void check_bits(const char* what, const float* got, const float* want, std::size_t n, const std::string& where) {
  const std::size_t at = first_bit_difference(got, want, n);
  INFO(what << " of " << where << ": first difference at " << at << " of " << n << ": "
            << (at < n ? std::to_string(got[at]) + " vs " + std::to_string(want[at]) : std::string("none")));
  CHECK(at == n);
}

// The forward passes without weights take other paths (P·V on unnormalised weights divided
// afterwards, or key tiles with an online softmax): the same sums in another order, with the
// exponentials taken against a running max. Each float result of y_x = Σ_j w_j·v_jx is within
// (n_k + c)·u·Σ_j |w_j·v_jx| of the exact one (the dot product's bound, plus c roundings per
// term for the exponential, the normalisation, dropout's scale and the tiles' corrections;
// c = 16 is generous), so two of them differ by at most twice that. Adds it to bound[0..d_v).
void add_pv_bound(const float* w, const double* v, int ldv, int n_k, int d_v, double* bound) {
  for (int x = 0; x < d_v; ++x) {
    double s = 0.0;
    for (int j = 0; j < n_k; ++j) s += std::fabs(w[j] * v[static_cast<std::size_t>(j) * ldv + x]);
    bound[x] += 2.0 * (n_k + 16) * kU * s;
  }
}

// The largest |got − want| / bound over n elements (an exact match counts 0 even where bound is 0).
double worst_ratio(const float* got, const float* want, const double* bound, std::size_t n) {
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (d != 0.0) worst = std::max(worst, bound[i] > 0.0 ? d / bound[i] : INFINITY);
  }
  return worst;
}

// fixtures::make_mask with fully masked rows on purpose: padding gives item 1 (when there is
// one) no keys at all, and the matrix hides every key of query row 1.
attn::Mask make_mask(unsigned kind, int batch, int n_q, int n_k, std::uint64_t seed) {
  attn::Mask m = fixtures::make_mask(kind, batch, n_q, n_k, seed);
  if (batch > 1 && (kind & kPadding)) m.key_lengths[1] = 0;
  if (n_q > 1 && (kind & kMatrix)) std::fill_n(m.matrix.begin() + n_k, n_k, std::uint8_t{1});
  return m;
}

// The checks every head-row trace must pass whatever produced it: the logits, max, exp and sum
// are the softmax's own steps, and the weights follow from them (and the dropout rule) exactly.
// `forward_row`: the forward pass's weights for this row; `masked(j)`: the mask's plain rule.
template <class Masked>
void check_row_steps(const attn::HeadRowTrace& t, const attn::AttentionOptions& opt, int b, int h, int i, int n_k,
                     Masked masked, const std::string& where) {
  INFO(where);
  REQUIRE(t.scores.size() == static_cast<std::size_t>(n_k));
  REQUIRE(t.scaled.size() == static_cast<std::size_t>(n_k));
  REQUIRE(t.logits.size() == static_cast<std::size_t>(n_k));
  REQUIRE(t.exp.size() == static_cast<std::size_t>(n_k));
  REQUIRE(t.weights.size() == static_cast<std::size_t>(n_k));
  REQUIRE(t.dropped.size() == static_cast<std::size_t>(n_k));
  float max = kNegInf;
  int visible = 0;
  for (int j = 0; j < n_k; ++j) {
    // The scaled scores are every key's, before the mask: the logits where the key is visible.
    CHECK(t.scaled[j] == t.scores[j] * t.logit_scale);
    if (masked(j)) {
      CHECK(t.logits[j] == kNegInf);
      CHECK(t.exp[j] == 0.0f);
      CHECK(t.weights[j] == 0.0f);
      CHECK(t.dropped[j] == 0);
      continue;
    }
    ++visible;
    // The kernels multiply the finished dot product by α: one rounding, so this is exact.
    CHECK(t.logits[j] == t.scores[j] * t.logit_scale);
    max = std::max(max, t.logits[j]);
  }
  CHECK(t.max == max);
  CHECK(t.masked == (visible == 0));
  if (t.masked) {
    CHECK(t.sum == 0.0);
    for (int j = 0; j < n_k; ++j) CHECK(t.weights[j] == 0.0f);
    for (float y : t.output) CHECK(y == 0.0f);
    return;
  }
  double sum = 0.0, worst_exp = 0.0;
  for (int j = 0; j < n_k; ++j) {
    sum += t.exp[j];
    if (masked(j)) continue;
    const double e64 = std::exp(static_cast<double>(t.logits[j]) - static_cast<double>(t.max));
    worst_exp = std::max(worst_exp, std::fabs(t.exp[j] - e64) / e64);
  }
  CHECK(worst_exp <= 1e-6);  // the SIMD exponential's promise is 2e-8 relative plus rounding
  CHECK(std::fabs(t.sum - sum) <= 1e-12 * sum);
  // The softmax kernel's last step is weights = exp · float(1/sum); dropout then zeroes a weight
  // or multiplies it by float 1/(1−p).
  const float inv = static_cast<float>(1.0 / t.sum);
  const bool dropout = opt.training && opt.dropout > 0.0f;
  CHECK(t.keep_scale == (dropout ? 1.0f / (1.0f - opt.dropout) : 1.0f));
  for (int j = 0; j < n_k; ++j) {
    if (masked(j)) continue;
    const bool keep = !dropout || attn::dropout_keep(opt.seed, b, h, i, j, opt.dropout);
    CHECK(t.dropped[j] == (keep ? 0 : 1));
    const float want = keep ? (dropout ? (t.exp[j] * inv) * t.keep_scale : t.exp[j] * inv) : 0.0f;
    if (std::memcmp(&t.weights[j], &want, sizeof want) != 0) {
      FAIL_CHECK("weight " << j << " is " << t.weights[j] << ", its softmax steps give " << want);
    }
  }
}

// ------------------------------------------------------------ scaled dot-product attention

struct SdpaCase {
  const char* name;
  int batch, n_q, n_k, d_k, d_v;
  unsigned mask;
  bool scale;
  float dropout;
};

const SdpaCase kSdpaCases[] = {
    {"no mask, batch 2", 2, 5, 7, 4, 4, kNone, true, 0.0f},
    {"causal, tails of 4 and 8", 1, 13, 13, 9, 11, kCausal, true, 0.0f},
    {"padding: item 1 fully masked", 3, 4, 6, 8, 8, kPadding, true, 0.0f},
    {"matrix mask with a fully masked row", 1, 6, 10, 5, 3, kMatrix, true, 0.0f},
    {"dropout 0.3", 2, 7, 9, 8, 6, kNone, true, 0.3f},
    {"causal + dropout 0.5", 1, 12, 12, 4, 4, kCausal, true, 0.5f},
    {"cross-attention over key tiles, d_k != d_v", 1, 3, 300, 16, 5, kNone, true, 0.0f},
    {"scale off", 2, 4, 9, 7, 2, kNone, false, 0.0f},
    {"scale off, causal + padding + matrix, dropout", 2, 9, 9, 3, 6, kCausal | kPadding | kMatrix, false, 0.2f},
    // Rows in every softmax sub-block (64 rows) of the first query block and in the second block.
    {"causal, two query blocks", 1, attn::kQueryBlock + 3, attn::kQueryBlock + 3, 4, 3, kCausal, true, 0.0f},
};

attn::AttentionOptions sdpa_options(const SdpaCase& c, std::uint64_t seed) {
  attn::AttentionOptions opt;
  opt.mask = make_mask(c.mask, c.batch, c.n_q, c.n_k, seed);
  opt.scale = c.scale;
  opt.dropout = c.dropout;
  opt.training = c.dropout > 0.0f;
  opt.seed = seed * 7 + 3;
  return opt;
}

attn::AttentionResult sdpa(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                           const SdpaCase& c, const attn::AttentionOptions& opt, bool need_weights) {
  return attn::scaled_dot_product_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), c.batch, c.n_q,
                                            c.n_k, c.d_k, c.d_v, opt, need_weights, attn::kDefaultMemoryBudget);
}

attn::AttentionTrace sdpa_trace(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                                const SdpaCase& c, const attn::AttentionOptions& opt, int item, int query) {
  return attn::trace_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), c.batch, c.n_q, c.n_k, c.d_k,
                               c.d_v, opt, item, query, attn::kDefaultMemoryBudget);
}

// Seeded q and k in [−range, range] and v in [−1, 1] for case c.
std::tuple<std::vector<float>, std::vector<float>, std::vector<float>> random_qkv(const SdpaCase& c, std::uint64_t seed,
                                                                                  float range) {
  check::TestRng rng(seed);
  std::vector<float> q = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * c.d_k, -range, range);
  std::vector<float> k = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_k, -range, range);
  std::vector<float> v = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_v, -1.0f, 1.0f);
  return {std::move(q), std::move(k), std::move(v)};
}

}  // namespace

TEST_CASE("traceAttention: weights and output equal the forward pass's row bit for bit, steps and float64 agree",
          "[trace]") {
  double worst_other = 0.0, worst_bound = 0.0, worst_ref = 0.0;
  std::uint64_t seed = 40;
  for (const SdpaCase& c : kSdpaCases) {
    ++seed;
    const auto [q, k, v] = random_qkv(c, seed, 1.5f);
    const attn::AttentionOptions opt = sdpa_options(c, seed);
    const attn::AttentionResult fwd = sdpa(q, k, v, c, opt, true);
    attn::AttentionOptions streaming = opt;
    streaming.scratch_logits = 0;
    const attn::AttentionResult scratch = sdpa(q, k, v, c, opt, false), tiles = sdpa(q, k, v, c, streaming, false);
    const reference::AttentionRef ref = reference::attention(q, k, v, c.batch, c.n_q, c.n_k, c.d_k, c.d_v, opt);
    for (int b = 0; b < c.batch; ++b)
      for (int i = 0; i < c.n_q; ++i) {
        const std::string where = std::string(c.name) + ", item " + std::to_string(b) + ", query " + std::to_string(i);
        INFO(where);
        const attn::AttentionTrace t = sdpa_trace(q, k, v, c, opt, b, i);
        const std::size_t row = static_cast<std::size_t>(b) * c.n_q + i;
        // The inputs it shows are the inputs.
        check_bits("q", t.q.data(), q.data() + row * c.d_k, c.d_k, where);
        check_bits("k", t.k.data(), k.data() + static_cast<std::size_t>(b) * c.n_k * c.d_k, t.k.size(), where);
        check_bits("v", t.v.data(), v.data() + static_cast<std::size_t>(b) * c.n_k * c.d_v, t.v.size(), where);
        REQUIRE(t.k.size() == static_cast<std::size_t>(c.n_k) * c.d_k);
        REQUIRE(t.v.size() == static_cast<std::size_t>(c.n_k) * c.d_v);
        // The forward pass's row, bit for bit.
        check_bits("weights", t.row.weights.data(), fwd.weights.data() + row * c.n_k, c.n_k, where);
        check_bits("output", t.row.output.data(), fwd.output.data() + row * c.d_v, c.d_v, where);
        // The other paths: within the bound.
        std::vector<double> bound(c.d_v);
        const std::vector<double> v64 = reference::to_double(t.v);
        add_pv_bound(t.row.weights.data(), v64.data(), c.d_v, c.n_k, c.d_v, bound.data());
        for (const attn::AttentionResult* other : {&scratch, &tiles}) {
          const float* out = other->output.data() + row * c.d_v;
          const double r = worst_ratio(t.row.output.data(), out, bound.data(), c.d_v);
          const check::Worst w = check::normwise(t.row.output.data(), out, c.d_v);
          INFO("against a path without weights: " << w.describe() << ", " << r << " of the bound");
          CHECK(r <= 1.0);
          worst_other = std::max(worst_other, w.err);
          worst_bound = std::max(worst_bound, r);
        }
        const bool fully_masked = std::any_of(fwd.masked_rows.begin(), fwd.masked_rows.end(),
                                              [&](const attn::MaskedRow& r) { return r.b == b && r.i == i; });
        CHECK(t.row.masked == fully_masked);
        check_row_steps(t.row, opt, b, 0, i, c.n_k, [&](int j) { return reference::is_masked(opt.mask, b, i, j, c.n_k); },
                        where);
        // float64: the scores from the inputs, the weights and output from the reference.
        std::vector<double> scores64(c.n_k);
        for (int j = 0; j < c.n_k; ++j)
          for (int x = 0; x < c.d_k; ++x)
            scores64[j] += static_cast<double>(q[row * c.d_k + x]) * k[(static_cast<std::size_t>(b) * c.n_k + j) * c.d_k + x];
        const check::Worst ws = check::normwise(t.row.scores, scores64);
        const check::Worst ww = check::max_abs(t.row.weights.data(), ref.weights.data() + row * c.n_k, c.n_k);
        const check::Worst wo = check::normwise(t.row.output.data(), ref.output.data() + row * c.d_v, c.d_v);
        INFO("scores: " << ws.describe() << "; weights: " << ww.describe() << "; output: " << wo.describe());
        CHECK(ws.err <= kTol);
        CHECK(ww.err <= kTol);
        CHECK(wo.err <= kTol);
        worst_ref = std::max({worst_ref, ws.err, ww.err, wo.err});
      }
  }
  std::printf("traceAttention: max normwise difference from the paths without weights %.3g (%.3g of the bound), "
              "from float64 %.3g\n", worst_other, worst_bound, worst_ref);
}

TEST_CASE("traceAttention: scaled scores, max, exponentials and sum agree with a naive float64 loop on the inputs",
          "[trace]") {
  // Independent of the core: the dot products, the scale, the mask rule, the max, exp(x − max) and
  // their sum, each in float64 straight from q and k (the page's "follow one query" stages show these).
  double worst_scaled = 0.0, worst_max = 0.0, worst_exp = 0.0, worst_sum = 0.0;
  std::uint64_t seed = 140;
  for (const SdpaCase& c : kSdpaCases) {
    ++seed;
    const auto [q, k, v] = random_qkv(c, seed, 2.0f);
    const attn::AttentionOptions opt = sdpa_options(c, seed);
    const double alpha = c.scale ? 1.0 / std::sqrt(static_cast<double>(c.d_k)) : 1.0;
    for (int b = 0; b < c.batch; ++b)
      for (int i = 0; i < c.n_q; ++i) {
        const std::string where = std::string(c.name) + ", item " + std::to_string(b) + ", query " + std::to_string(i);
        INFO(where);
        const attn::HeadRowTrace t = sdpa_trace(q, k, v, c, opt, b, i).row;
        const std::size_t row = static_cast<std::size_t>(b) * c.n_q + i;
        std::vector<double> scaled(c.n_k), e(c.n_k, 0.0);
        double max = -INFINITY, big = 0.0;
        for (int j = 0; j < c.n_k; ++j) {
          double s = 0.0;
          for (int x = 0; x < c.d_k; ++x)
            s += static_cast<double>(q[row * c.d_k + x]) * k[(static_cast<std::size_t>(b) * c.n_k + j) * c.d_k + x];
          scaled[j] = alpha * s;
          big = std::max(big, std::fabs(scaled[j]));
          if (!reference::is_masked(opt.mask, b, i, j, c.n_k)) max = std::max(max, scaled[j]);
        }
        REQUIRE(t.scaled.size() == static_cast<std::size_t>(c.n_k));
        for (int j = 0; j < c.n_k; ++j) {
          const double d = std::fabs(t.scaled[j] - scaled[j]) / std::max(big, 1.0);
          if (d > kTol) FAIL_CHECK("scaled score " << j << " is " << t.scaled[j] << ", float64 gives " << scaled[j]);
          worst_scaled = std::max(worst_scaled, d);
        }
        if (max == -INFINITY) {  // every key masked
          CHECK(t.max == kNegInf);
          CHECK(t.sum == 0.0);
          continue;
        }
        const double dmax = std::fabs(t.max - max) / std::max(big, 1.0);
        INFO("max " << t.max << ", float64 " << max);
        CHECK(dmax <= kTol);
        worst_max = std::max(worst_max, dmax);
        double sum = 0.0;
        for (int j = 0; j < c.n_k; ++j)
          if (!reference::is_masked(opt.mask, b, i, j, c.n_k)) sum += e[j] = std::exp(scaled[j] - max);
        for (int j = 0; j < c.n_k; ++j) {
          const double d = std::fabs(t.exp[j] - e[j]);  // each in [0, 1]: absolute
          if (d > kTol) FAIL_CHECK("exp " << j << " is " << t.exp[j] << ", float64 gives " << e[j]);
          worst_exp = std::max(worst_exp, d);
        }
        const double dsum = std::fabs(t.sum - sum) / sum;
        INFO("sum " << t.sum << ", float64 " << sum);
        CHECK(dsum <= kTol);
        worst_sum = std::max(worst_sum, dsum);
      }
  }
  std::printf("traceAttention against float64 from the inputs: scaled %.3g, max %.3g (of the largest |scaled|), exp %.3g, "
              "sum %.3g (relative)\n", worst_scaled, worst_max, worst_exp, worst_sum);
}

TEST_CASE("traceAttention: a fully masked row is reported with zero weights and output", "[trace]") {
  const SdpaCase c{"padding 0", 2, 3, 5, 4, 4, kNone, true, 0.25f};
  check::TestRng rng(5);
  const std::vector<float> q = rng.vec(24, -1, 1), k = rng.vec(40, -1, 1), v = rng.vec(40, -1, 1);
  attn::AttentionOptions opt = sdpa_options(c, 5);
  opt.mask.key_lengths = {5, 0};
  const attn::AttentionTrace t = sdpa_trace(q, k, v, c, opt, 1, 2);
  CHECK(t.row.masked);
  CHECK(t.row.max == kNegInf);
  CHECK(t.row.sum == 0.0);
  for (int j = 0; j < c.n_k; ++j) {
    CHECK(t.row.logits[j] == kNegInf);
    CHECK(t.row.exp[j] == 0.0f);
    CHECK(t.row.weights[j] == 0.0f);
    CHECK(t.row.dropped[j] == 0);  // dropout acts on no weight of a row that has none
  }
  for (float y : t.row.output) CHECK(y == 0.0f);
  for (float s : t.row.scores) CHECK(std::isfinite(s));  // the scores exist; the mask hides them
  CHECK_FALSE(sdpa_trace(q, k, v, c, opt, 0, 2).row.masked);
}

TEST_CASE("traceAttention: bad indices and inputs are refused with a message naming the range", "[trace]") {
  const SdpaCase c{"small", 2, 3, 4, 2, 2, kNone, true, 0.0f};
  const std::vector<float> q(12, 0.5f), k(16, 0.25f), v(16, 1.0f);
  const attn::AttentionOptions opt;
  CHECK_THROWS_WITH(sdpa_trace(q, k, v, c, opt, 2, 0), "item 2 is out of range 0…1 (batch = 2)");
  CHECK_THROWS_WITH(sdpa_trace(q, k, v, c, opt, -1, 0), "item -1 is out of range 0…1 (batch = 2)");
  CHECK_THROWS_WITH(sdpa_trace(q, k, v, c, opt, 0, 3), "query 3 is out of range 0…2 (n_q = 3)");
  CHECK_THROWS_AS(sdpa_trace(q, k, v, c, opt, 0, -5), attn::Error);
  // The shared checks of scaled_dot_product_attention come first.
  const std::vector<float> short_q(11, 0.5f);
  CHECK_THROWS_WITH(sdpa_trace(short_q, k, v, c, opt, 0, 0), Catch::Contains("q has 11"));
  std::vector<float> nan_v = v;
  nan_v[5] = std::nanf("");
  CHECK_THROWS_WITH(sdpa_trace(q, k, nan_v, c, opt, 0, 0), Catch::Contains("v contains NaN"));
  CHECK_THROWS_WITH(attn::trace_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), 2, 3, 4, 2, 2, opt,
                                          0, 0, 64),
                    Catch::Contains("this trace needs"));
}

// ------------------------------------------------------------ multi-head attention

namespace {

struct MhaCase {
  const char* name;
  int d_model, n_heads, d_k, d_v;
  bool bias;
  int batch, n_q, n_k;
  bool self;
  unsigned mask;
  bool scale;
  float dropout;
};

const int kQB = attn::kQueryBlock;

const MhaCase kMhaCases[] = {
    {"self, 4 heads, biases", 32, 4, 0, 0, true, 2, 10, 10, true, kNone, true, 0.0f},
    {"cross, d_k != d_v, no bias, padding (item 1 fully masked)", 24, 3, 5, 7, false, 3, 9, 17, false, kPadding, true,
     0.0f},
    {"self, causal, dropout 0.25", 16, 2, 0, 0, true, 1, 12, 12, true, kCausal, true, 0.25f},
    {"cross over key tiles, matrix mask, scale off", 16, 2, 0, 0, true, 2, 4, 130, false, kMatrix, false, 0.0f},
    {"d_k > d_model / n_heads > d_v, cross, causal, dropout", 16, 2, 12, 3, true, 2, 7, 9, false, kCausal, true, 0.3f},
    {"self, a second query block", 8, 2, 0, 0, true, 1, kQB + 3, kQB + 3, true, kCausal, true, 0.0f},
};

std::vector<int> queries_of(const MhaCase& c) {
  if (c.n_q <= 16) {
    std::vector<int> all(c.n_q);
    for (int i = 0; i < c.n_q; ++i) all[i] = i;
    return all;
  }
  return {0, 1, kQB - 1, kQB, c.n_q - 1};
}

// x (rows×d_in, double) · columns [c0, c0 + width) of W (d_in×ld) + b, in double.
std::vector<double> project64(const float* x, int rows, int d_in, const std::vector<float>& w, int ld,
                              const std::vector<float>& b, int c0, int width) {
  const std::vector<double> xd = reference::to_double(x, static_cast<std::size_t>(rows) * d_in);
  const std::vector<double> wd = reference::to_double(w);
  std::vector<double> y(static_cast<std::size_t>(rows) * width);
  reference::matmul(rows, width, d_in, xd.data(), d_in, wd.data() + c0, ld, y.data(), width);
  if (!b.empty())
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < width; ++c) y[static_cast<std::size_t>(r) * width + c] += b[static_cast<std::size_t>(c0 + c)];
  return y;
}

}  // namespace

TEST_CASE("MultiHeadAttention::trace: weights, Concat and output equal the forward pass bit for bit, float64 agrees",
          "[trace]") {
  double worst_other = 0.0, worst_bound = 0.0, worst_ref = 0.0;
  std::uint64_t seed = 70;
  for (const MhaCase& c : kMhaCases) {
    ++seed;
    attn::MultiHeadAttention layer(check::mha_config(c.d_model, c.n_heads, c.d_k, c.d_v, c.bias, seed));
    layer.set_weights(fixtures::random_weights(layer.dims(), seed * 3));
    const attn::MhaDims d = layer.dims();
    const attn::MhaWeights w = layer.weights();
    const int D = d.d_model, QK = static_cast<int>(d.qk_width()), V = static_cast<int>(d.v_width());
    check::TestRng rng(seed * 5);
    const std::vector<float> query = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * D, -1, 1);
    const std::vector<float> key = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * D, -1, 1);
    const std::vector<float> value = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * D, -1, 1);
    const attn::MhaInput in = c.self ? attn::MhaInput{query.data(), query.size(), query.data(), query.size(), query.data(),
                                                      query.size(), c.batch, c.n_q, c.n_q}
                                     : attn::MhaInput{query.data(), query.size(), key.data(), key.size(), value.data(),
                                                      value.size(), c.batch, c.n_q, c.n_k};
    attn::ForwardOptions opt;
    opt.mask = make_mask(c.mask, c.batch, c.n_q, in.n_k, seed);
    opt.scale = c.scale;
    opt.dropout = c.dropout;
    opt.training = c.dropout > 0.0f;
    opt.seed = seed;
    attn::ForwardOptions with_weights = opt, streaming = opt;
    with_weights.need_weights = true;
    streaming.scratch_logits = 0;
    const attn::MhaResult fwd = layer.forward(in, with_weights);
    const attn::MhaResult scratch = layer.forward(in, opt), tiles = layer.forward(in, streaming);
    const reference::MhaRef ref = reference::mha(w, D, d.n_heads, d.d_k, d.d_v, in.query, in.key, in.value, c.batch,
                                                 c.n_q, in.n_k, opt);
    for (int b = 0; b < c.batch; ++b) {
      const float* keys = in.key + static_cast<std::size_t>(b) * in.n_k * D;
      const float* values = in.value + static_cast<std::size_t>(b) * in.n_k * D;
      const std::vector<double> v64_all = project64(values, in.n_k, D, w.wv, V, w.bv, 0, V);
      for (int i : queries_of(c)) {
        const std::size_t row = static_cast<std::size_t>(b) * c.n_q + i;
        const std::vector<double> q64 = project64(in.query + row * D, 1, D, w.wq, QK, w.bq, 0, QK);
        std::vector<double> concat64(V);
        // How far the output of a path without weights may be: each head's P·V bound (add_pv_bound)
        // carried through Wᴼ, plus the two matmuls' own rounding of Concat·Wᴼ + bᴼ (V + 1 roundings).
        std::vector<double> concat_bound(V), out_bound(D);
        for (int h = 0; h < d.n_heads; ++h)
          add_pv_bound(fwd.weights.data() + ((static_cast<std::size_t>(b) * d.n_heads + h) * c.n_q + i) * in.n_k,
                       v64_all.data() + h * d.d_v, V, in.n_k, d.d_v, concat_bound.data() + h * d.d_v);
        for (int h = 0; h < d.n_heads; ++h) {
          const std::string where = std::string(c.name) + ", item " + std::to_string(b) + ", head " +
                                    std::to_string(h) + ", query " + std::to_string(i);
          INFO(where);
          const attn::MhaTrace t = layer.trace(in, opt, b, h, i);
          const std::size_t wrow = ((static_cast<std::size_t>(b) * d.n_heads + h) * c.n_q + i) * in.n_k;
          // The forward pass's numbers, bit for bit.
          check_bits("x", t.x.data(), in.query + row * D, D, where);
          check_bits("weights", t.head.weights.data(), fwd.weights.data() + wrow, in.n_k, where);
          check_bits("output", t.output.data(), fwd.output.data() + row * D, D, where);
          REQUIRE(t.concat.size() == static_cast<std::size_t>(V));
          check_bits("head output in Concat", t.concat.data() + h * d.d_v, t.head.output.data(), d.d_v, where);
          for (int y = 0; y < D; ++y) {
            double carried = 0.0, sum = 0.0;
            for (int x = 0; x < V; ++x) {
              const double wo = std::fabs(w.wo[static_cast<std::size_t>(x) * D + y]);
              carried += concat_bound[x] * wo;
              sum += std::fabs(t.concat[x]) * wo;
            }
            out_bound[y] = carried + 2.0 * (V + 2) * kU * (sum + (w.bo.empty() ? 0.0 : std::fabs(w.bo[y])));
          }
          for (const attn::MhaResult* other : {&scratch, &tiles}) {
            const float* out = other->output.data() + row * D;
            const double r = worst_ratio(t.output.data(), out, out_bound.data(), D);
            const check::Worst e = check::normwise(t.output.data(), out, D);
            INFO("against a path without weights: " << e.describe() << ", " << r << " of the bound");
            CHECK(r <= 1.0);
            worst_other = std::max(worst_other, e.err);
            worst_bound = std::max(worst_bound, r);
          }
          check_row_steps(t.head, opt, b, h, i, in.n_k,
                          [&](int j) { return reference::is_masked(opt.mask, b, i, j, in.n_k); }, where);
          // float64: the projections of this head, the weights and output of the reference layer.
          const std::vector<double> k64 = project64(keys, in.n_k, D, w.wk, QK, w.bk, h * d.d_k, d.d_k);
          const std::vector<double> v64 = project64(values, in.n_k, D, w.wv, V, w.bv, h * d.d_v, d.d_v);
          REQUIRE(t.q.size() == static_cast<std::size_t>(d.d_k));
          const check::Worst eq = check::normwise(t.q.data(), q64.data() + h * d.d_k, d.d_k);
          const check::Worst ek = check::normwise(t.k, k64), ev = check::normwise(t.v, v64);
          REQUIRE(t.k.size() == k64.size());
          REQUIRE(t.v.size() == v64.size());
          const check::Worst ew = check::max_abs(t.head.weights.data(), ref.weights.data() + wrow, in.n_k);
          const check::Worst eo = check::normwise(t.output.data(), ref.output.data() + row * D, D);
          INFO("q: " << eq.describe() << "; k: " << ek.describe() << "; v: " << ev.describe() << "; weights: "
                     << ew.describe() << "; output: " << eo.describe());
          CHECK(std::max({eq.err, ek.err, ev.err, ew.err, eo.err}) <= kTol);
          worst_ref = std::max({worst_ref, eq.err, ek.err, ev.err, ew.err, eo.err});
          // The head's output row in float64 from the reference weights and V.
          for (int x = 0; x < d.d_v; ++x) {
            double s = 0.0;
            for (int j = 0; j < in.n_k; ++j) s += ref.weights[wrow + j] * v64[static_cast<std::size_t>(j) * d.d_v + x];
            concat64[static_cast<std::size_t>(h) * d.d_v + x] = s;
          }
          if (h == d.n_heads - 1) {
            const check::Worst ec = check::normwise(t.concat, concat64);
            INFO("concat: " << ec.describe());
            CHECK(ec.err <= kTol);
          }
        }
      }
    }
  }
  std::printf("MultiHeadAttention::trace: max normwise difference from the paths without weights %.3g (%.3g of the "
              "bound), from float64 %.3g\n", worst_other, worst_bound, worst_ref);
}

TEST_CASE("MultiHeadAttention::trace: bad indices are refused with a message naming the range", "[trace]") {
  attn::MultiHeadAttention layer(check::mha_config(16, 4));
  const std::vector<float> x(2 * 3 * 16, 0.5f);
  const attn::MhaInput in{x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 2, 3, 3};
  const attn::ForwardOptions opt;
  CHECK_THROWS_WITH(layer.trace(in, opt, 0, 5, 0), "head 5 is out of range 0…3 (n_heads = 4)");
  CHECK_THROWS_WITH(layer.trace(in, opt, 0, -1, 0), "head -1 is out of range 0…3 (n_heads = 4)");
  CHECK_THROWS_WITH(layer.trace(in, opt, 2, 0, 0), "item 2 is out of range 0…1 (batch = 2)");
  CHECK_THROWS_WITH(layer.trace(in, opt, 0, 0, 3), "query 3 is out of range 0…2 (n_q = 3)");
  // The forward pass's own checks come first.
  attn::MhaInput wrong = in;
  wrong.query_len = 5;
  CHECK_THROWS_WITH(layer.trace(wrong, opt, 0, 0, 0), Catch::Contains("query has 5"));
  attn::ForwardOptions p1 = opt;
  p1.dropout = 1.0f;
  CHECK_THROWS_WITH(layer.trace(in, p1, 0, 0, 0), Catch::Contains("dropout must be in [0, 1)"));
}

TEST_CASE("MultiHeadAttention::trace: memory grows with n_k, not with n_q (no second forward pass)", "[trace]") {
  // The same keys (cross-attention) with 8 and with 2,048 queries: the trace of query 0 allocates
  // the same, while a forward pass holds its n_q × d_model output and query blocks.
  attn::MultiHeadAttention layer(check::mha_config(64, 4));
  check::TestRng rng(9);
  const int n_k = 40;
  const std::vector<float> key = rng.vec(static_cast<std::size_t>(n_k) * 64, -1, 1);
  const std::vector<float> many = rng.vec(2048 * 64, -1, 1);
  auto peak_of = [&](int n_q) {
    const attn::MhaInput in{many.data(), static_cast<std::size_t>(n_q) * 64, key.data(), key.size(), key.data(),
                            key.size(), 1, n_q, n_k};
    layer.trace(in, attn::ForwardOptions{}, 0, 1, 0);  // warm the kernels' reusable buffers
    alloc_probe::peak = alloc_probe::live;
    const std::size_t before = alloc_probe::live;
    layer.trace(in, attn::ForwardOptions{}, 0, 1, 0);
    return alloc_probe::peak - before;
  };
  const std::size_t small = peak_of(8), large = peak_of(2048);
  INFO("peak bytes of the trace: " << small << " with n_q 8, " << large << " with n_q 2048");
  CHECK(small == large);
  // O(n_k·d): K and V of every head, this head's copy, a few rows of n_k or d_model, 4 bytes each
  // (plus a few hundred bytes of vector headers); a forward pass's output alone is 2048 × 64.
  CHECK(large <= 4 * (n_k * (64 + 64 + 16 + 16) + 16 * n_k + 8 * 64) + 1024);
}

namespace {

// The byte count in a budget error's message ("… needs 1,234 bytes …").
std::uint64_t needed_bytes(const std::string& message) {
  std::string digits;
  for (std::size_t p = message.find("needs ") + 6; p < message.size() && message[p] != ' '; ++p)
    if (message[p] != ',') digits += message[p];
  return std::stoull(digits);
}

}  // namespace

TEST_CASE("a trace allocates no more than the memory its budget check counted", "[trace]") {
  // As for the forward passes (test_errors.cpp): the peak of what the call allocates, over what
  // was live before, against its count minus the inputs (the caller's). ctest runs each test case
  // in a process of its own, so the engine's reusable buffers start empty here.
  const int n_q = 3, n_k = 3000, d_k = 24, d_v = 40;
  const std::vector<float> q(static_cast<std::size_t>(n_q) * d_k, 0.5f), k(static_cast<std::size_t>(n_k) * d_k, 0.25f),
      v(static_cast<std::size_t>(n_k) * d_v, 1.0f);
  auto sdpa_call = [&](std::uint64_t budget) {
    return attn::trace_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), 1, n_q, n_k, d_k, d_v,
                                 attn::AttentionOptions{}, 0, 1, budget);
  };
  std::uint64_t sdpa_counted = 0;
  try {
    sdpa_call(1);
  } catch (const attn::Error& e) {
    sdpa_counted = needed_bytes(e.what());
  }
  REQUIRE(sdpa_counted > 0);
  std::size_t before = alloc_probe::live;
  alloc_probe::peak = before;
  CHECK(sdpa_call(attn::kDefaultMemoryBudget).row.weights.size() == static_cast<std::size_t>(n_k));
  std::uint64_t allocated = alloc_probe::peak - before, inputs = 4 * (q.size() + k.size() + v.size());
  INFO("traceAttention: allocated at peak " << allocated << " bytes; counted " << sdpa_counted - inputs << " besides the inputs");
  CHECK(allocated <= sdpa_counted - inputs);

  // One head and long keys: the trace (this head's K and V twice) needs more than a forward pass
  // without weights, so its own count is the one that applies.
  attn::MultiHeadAttention layer(check::mha_config(32, 1));
  const std::vector<float> query(32, 0.1f), kv(static_cast<std::size_t>(n_k) * 32, 0.2f);
  const attn::MhaInput in{query.data(), query.size(), kv.data(), kv.size(), kv.data(), kv.size(), 1, 1, n_k};
  auto mha_call = [&](std::uint64_t budget) {
    attn::ForwardOptions opt;
    opt.memory_budget = budget;
    return layer.trace(in, opt, 0, 0, 0);
  };
  // The forward pass's check comes first: raise the budget to its count, then read the trace's.
  std::uint64_t budget = 1, mha_counted = 0;
  for (int step = 0; step < 2 && mha_counted == 0; ++step) {
    try {
      mha_call(budget);
    } catch (const attn::Error& e) {
      budget = needed_bytes(e.what());
      if (std::string(e.what()).find("this trace") == 0) mha_counted = budget;
    }
  }
  REQUIRE(mha_counted > 0);
  before = alloc_probe::live;
  alloc_probe::peak = before;
  CHECK(mha_call(attn::kDefaultMemoryBudget).output.size() == 32u);
  allocated = alloc_probe::peak - before;
  inputs = 4 * (query.size() + kv.size() + kv.size());
  INFO("MultiHeadAttention::trace: allocated at peak " << allocated << " bytes; counted " << mha_counted - inputs
                                                       << " besides the inputs");
  CHECK(allocated <= mha_counted - inputs);
}

TEST_CASE("MultiHeadAttention::trace: grouped-query heads and head_mask follow the forward pass bit for bit",
          "[trace]") {
  // 6 query heads reading 2 key/value heads (groups of 3), and 1 key/value head (multi-query).
  for (const int n_kv_heads : {2, 1}) {
    attn::MhaConfig config = check::mha_config(24, 6, 0, 0, true, 5);
    config.n_kv_heads = n_kv_heads;
    attn::MultiHeadAttention gqa(config);
    const attn::MhaDims d = gqa.dims();
    gqa.set_weights(fixtures::random_weights(d, 17));
    // The same layer as multi-head attention, its key/value heads repeated by hand.
    attn::MultiHeadAttention mha(check::mha_config(24, 6, 0, 0, true, 5));
    mha.set_weights(fixtures::repeated_as_mha(gqa.weights(), d));
    const fixtures::Inputs inputs = fixtures::make_inputs(24, 2, 5, 7, 23);
    const attn::MhaInput in = inputs.view(false, 2, 5, 7);
    attn::ForwardOptions opt = fixtures::case_options(kCausal | kPadding, true, 0.2f, 2, 5, 7, 29);
    opt.head_mask = {1.0f, 0.0f, 0.5f, 1.0f, 2.0f, 1.0f};
    opt.need_weights = true;
    const attn::MhaResult fwd = gqa.forward(in, opt);
    for (int b = 0; b < 2; ++b)
      for (int h = 0; h < 6; ++h)
        for (int i = 0; i < 5; ++i) {
          const std::string where = "n_kv_heads " + std::to_string(n_kv_heads) + ", item " + std::to_string(b) +
                                    ", head " + std::to_string(h) + ", query " + std::to_string(i);
          INFO(where);
          const attn::MhaTrace t = gqa.trace(in, opt, b, h, i), m = mha.trace(in, opt, b, h, i);
          CHECK(t.kv_head == h / (6 / n_kv_heads));
          CHECK(m.kv_head == h);
          const std::size_t wrow = ((static_cast<std::size_t>(b) * 6 + h) * 5 + i) * 7;
          check_bits("weights", t.head.weights.data(), fwd.weights.data() + wrow, 7, where);
          check_bits("output", t.output.data(), fwd.output.data() + (static_cast<std::size_t>(b) * 5 + i) * 24, 24, where);
          // head_mask is in the Concat row (what enters Wᴼ), not in the head's own output.
          for (int x = 0; x < d.d_v; ++x) CHECK(t.concat[h * d.d_v + x] == t.head.output[x] * opt.head_mask[h]);
          // The expanded multi-head layer gives every number the same.
          for (const auto& [what, a, e] : {std::tuple{"q", &t.q, &m.q}, std::tuple{"k", &t.k, &m.k},
                                           std::tuple{"v", &t.v, &m.v}, std::tuple{"scores", &t.head.scores, &m.head.scores},
                                           std::tuple{"weights", &t.head.weights, &m.head.weights},
                                           std::tuple{"head output", &t.head.output, &m.head.output},
                                           std::tuple{"concat", &t.concat, &m.concat}, std::tuple{"output", &t.output, &m.output}}) {
            REQUIRE(a->size() == e->size());
            check_bits(what, a->data(), e->data(), a->size(), where);
          }
        }
  }
}

TEST_CASE("MultiHeadAttention::trace: grouped-query layers trace each query head with its key/value head",
          "[trace][gqa]") {
  // A query head reads key/value head ⌊h / (n_heads / n_kv_heads)⌋: a trace that took head h's
  // own columns of Wᴷ and Wⱽ would give other weights than the forward pass.
  for (int n_kv_heads : {1, 2, 4}) {
    attn::MhaConfig config = check::mha_config(16, 4, 0, 0, true, 90 + n_kv_heads);
    config.n_kv_heads = n_kv_heads;
    attn::MultiHeadAttention layer(config);
    check::TestRng rng(300 + n_kv_heads);
    const int batch = 2, n = 5, D = 16;
    const std::vector<float> x = rng.vec(static_cast<std::size_t>(batch) * n * D, -1, 1);
    const attn::MhaInput in{x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), batch, n, n};
    attn::ForwardOptions opt;
    opt.need_weights = true;
    const attn::MhaResult fwd = layer.forward(in, opt);
    for (int b = 0; b < batch; ++b)
      for (int h = 0; h < 4; ++h)
        for (int i = 0; i < n; ++i) {
          const std::string where = "n_kv_heads " + std::to_string(n_kv_heads) + ", item " + std::to_string(b) +
                                    ", head " + std::to_string(h) + ", query " + std::to_string(i);
          INFO(where);
          const attn::MhaTrace t = layer.trace(in, opt, b, h, i);
          const std::size_t wrow = ((static_cast<std::size_t>(b) * 4 + h) * n + i) * n;
          check_bits("weights", t.head.weights.data(), fwd.weights.data() + wrow, n, where);
          check_bits("output", t.output.data(), fwd.output.data() + (static_cast<std::size_t>(b) * n + i) * D, D, where);
        }
  }
}

}  // namespace test_trace
