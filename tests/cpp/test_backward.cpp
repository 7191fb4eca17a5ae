// The backward pass against float64 central differences: every gradient of scaled dot-product
// attention (q, k, v) and of multi-head attention (wq, wk, wv, wo, bq, bk, bv, bo, query, key,
// value) on small problems, with masks (fully masked rows included), dropout, the scale off,
// cross-attention, d_k ≠ d_v, batch, grouped-query attention, head_mask, and sizes hitting
// every tail; its output and weights against the forward pass; bad input, overflow and the
// memory budget.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis.h"
#include "core/backward.h"
#include "core/kernels.h"
#include "core/mha.h"
#include "core/rng.h"
#include "check.h"
#include "reference.h"

// The allocation probe of test_errors.cpp (it replaces operator new for the whole suite).
namespace alloc_probe {
extern std::size_t live, peak;
}  // namespace alloc_probe

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_backward {

namespace {

// Float32 gradients against float64 central differences, normwise per tensor:
// max|g − g_fd| / max|g_fd|. The float32 sums behind a gradient run over at most a few hundred
// terms of size ≤ 1 (about 1e-6 of error); central differences with h = 1e-4 on these smooth
// functions of O(1) inputs err by O(h²) ≈ 1e-8. 5e-5 leaves room for both and still fails a
// wrong term (a missing α, a dropped mask or dropout factor are errors of order 1).
constexpr double kGradTol = 5e-5;
constexpr double kStep = 1e-4;
// The output against float64, as test_mha.cpp holds the forward pass.
constexpr double kOutputTol = 1e-5;

double g_worst_sdpa = 0.0, g_worst_mha = 0.0;  // printed at the end of each test case

// Central differences of loss with respect to every element of x (perturbed in place, restored).
std::vector<double> central_differences(std::vector<double>& x, const std::function<double()>& loss) {
  std::vector<double> g(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double x0 = x[i];
    x[i] = x0 + kStep;
    const double up = loss();
    x[i] = x0 - kStep;
    const double down = loss();
    x[i] = x0;
    g[i] = (up - down) / (2 * kStep);
  }
  return g;
}

std::vector<double> to64(const std::vector<float>& x) { return std::vector<double>(x.begin(), x.end()); }

// Holds one gradient to its central differences and records the worst error. scale_floor: a
// smallest max|g| to divide by, for a gradient that is 0 in exact arithmetic (see bk below).
void check_gradient(const std::string& name, const std::vector<float>& got, const std::vector<double>& want,
                    double& worst, double scale_floor = 0.0) {
  INFO("gradient of " << name);
  REQUIRE(got.size() == want.size());
  check::Worst w = check::normwise(got, want);
  if (w.scale < scale_floor) {
    w.err *= w.scale / scale_floor;
    if (w.scale == 0.0) w.err = std::fabs(w.got - w.want) / scale_floor;
    w.scale = scale_floor;
  }
  INFO("normwise error against central differences: " << w.describe());
  CHECK(w.err <= kGradTol);
  worst = std::max(worst, w.err);
}

double max_abs(const std::vector<double>& x) {
  double m = 0.0;
  for (double v : x) m = std::max(m, std::fabs(v));
  return m;
}

// ---------------------------------------------------------------- scaled dot-product attention

constexpr unsigned kNone = 0, kCausal = 1, kPadding = 2, kMatrix = 4;

struct SdpaCase {
  int batch, n_q, n_k, d_k, d_v;
  unsigned mask;
  bool scale;
  float dropout;
};

attn::Mask make_mask(unsigned kind, int batch, int n_q, int n_k) {
  attn::Mask m;
  m.causal = kind & kCausal;
  if (kind & kPadding)  // the last batch item sees no key at all: its rows are fully masked
    for (int b = 0; b < batch; ++b) m.key_lengths.push_back(b + 1 == batch && batch > 1 ? 0 : std::max(1, n_k - 2 * b - 1));
  if (kind & kMatrix) {
    m.matrix.assign(static_cast<std::size_t>(n_q) * n_k, 0);
    for (std::size_t i = 0; i < m.matrix.size(); ++i) m.matrix[i] = (i * 7) % 5 == 0;
    std::fill_n(m.matrix.begin(), n_k, 1);  // query 0 sees no key
  }
  return m;
}

attn::AttentionOptions options(unsigned mask, bool scale, float dropout, int batch, int n_q, int n_k) {
  attn::AttentionOptions opt;
  opt.mask = make_mask(mask, batch, n_q, n_k);
  opt.scale = scale;
  opt.dropout = dropout;
  opt.training = dropout > 0.0f;
  opt.seed = 11;
  return opt;
}

std::string describe(const SdpaCase& c) {
  return "batch " + std::to_string(c.batch) + ", n_q " + std::to_string(c.n_q) + ", n_k " + std::to_string(c.n_k) +
         ", d_k " + std::to_string(c.d_k) + ", d_v " + std::to_string(c.d_v) + ", mask " + std::to_string(c.mask) +
         ", scale " + std::to_string(c.scale) + ", dropout " + std::to_string(c.dropout);
}

// Σ g·O for O = attention(q, k, v) in float64 (the loss whose ∂L/∂O is g).
double sdpa_loss(const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                 const std::vector<double>& g, const SdpaCase& c, const attn::AttentionOptions& opt) {
  std::vector<double> out(static_cast<std::size_t>(c.n_q) * c.d_v), w(static_cast<std::size_t>(c.n_q) * c.n_k);
  double loss = 0.0;
  for (int b = 0; b < c.batch; ++b) {
    reference::attention_head(q.data() + static_cast<std::size_t>(b) * c.n_q * c.d_k, c.d_k,
                              k.data() + static_cast<std::size_t>(b) * c.n_k * c.d_k, c.d_k,
                              v.data() + static_cast<std::size_t>(b) * c.n_k * c.d_v, c.d_v, c.n_q, c.n_k, c.d_k,
                              c.d_v, opt, b, 0, out.data(), c.d_v, w.data(), nullptr);
    for (std::size_t i = 0; i < out.size(); ++i) loss += g[static_cast<std::size_t>(b) * out.size() + i] * out[i];
  }
  return loss;
}

// Sizes below, at and past every tile and loop width (4, 8, 64 rows of a step), and past the
// 64-column block of the Aᵀ·B matmul; options cycled so that each meets several shapes.
std::vector<SdpaCase> sdpa_cases() {
  const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33};
  const int n = 12;
  std::vector<SdpaCase> cases;
  for (int i = 0; i < n; ++i)
    cases.push_back({1 + i % 2, sizes[i], sizes[(i + 5) % n], sizes[(i + 3) % n], sizes[(i + 8) % n],
                     i % 4 == 1 ? kCausal : i % 4 == 3 ? kPadding : kNone, i % 5 != 2, i % 3 == 2 ? 0.25f : 0.0f});
  cases.push_back({1, 70, 65, 4, 3, kCausal, true, 0.0f});   // two query steps, two 64-key blocks
  cases.push_back({2, 6, 9, 3, 5, kMatrix | kPadding, true, 0.4f});
  cases.push_back({1, 5, 6, 8, 8, kNone, false, 0.0f});    // unscaled
  return cases;
}

// One case's random q, k, v, ∂L/∂O and options, and the engine's backward pass over them.
struct SdpaProblem {
  SdpaCase c;
  std::vector<float> q, k, v, g;
  attn::AttentionOptions opt;
  SdpaProblem(const SdpaCase& sizes, std::uint64_t seed) : c(sizes) {
    check::TestRng rng(seed);
    q = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * c.d_k, -1, 1);
    k = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_k, -1, 1);
    v = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_v, -1, 1);
    g = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * c.d_v, -1, 1);
    opt = options(c.mask, c.scale, c.dropout, c.batch, c.n_q, c.n_k);
  }
  attn::SdpaBackwardResult backward(bool need_weights) const {
    return attn::scaled_dot_product_attention_backward(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(),
                                                       g.data(), g.size(), c.batch, c.n_q, c.n_k, c.d_k, c.d_v, opt,
                                                       need_weights, attn::kDefaultMemoryBudget);
  }
};

}  // namespace

TEST_CASE("SDPA backward: dq, dk, dv match float64 central differences on every tail, masks, dropout, unscaled",
          "[backward][sdpa]") {
  for (const SdpaCase& c : sdpa_cases()) {
    INFO(describe(c));
    const SdpaProblem problem(c, 3u + c.n_q * 7u + c.n_k * 13u + c.d_k);
    const std::vector<float>&q = problem.q, &k = problem.k, &v = problem.v, &g = problem.g;
    const attn::AttentionOptions& opt = problem.opt;
    const attn::SdpaBackwardResult r = problem.backward(false);

    const reference::AttentionRef ref = reference::attention(q, k, v, c.batch, c.n_q, c.n_k, c.d_k, c.d_v, opt);
    const check::Worst out = check::normwise(r.output, ref.output);
    INFO("output against float64: " << out.describe());
    CHECK(out.err <= kOutputTol);
    CHECK(r.masked_rows.size() == ref.masked_rows.size());

    std::vector<double> q64 = to64(q), k64 = to64(k), v64 = to64(v);
    const std::vector<double> g64 = to64(g);
    auto loss = [&] { return sdpa_loss(q64, k64, v64, g64, c, opt); };
    check_gradient("q", r.dq, central_differences(q64, loss), g_worst_sdpa);
    check_gradient("k", r.dk, central_differences(k64, loss), g_worst_sdpa);
    check_gradient("v", r.dv, central_differences(v64, loss), g_worst_sdpa);
  }
  WARN("SDPA backward (" << attn::kernel_isa() << "): max normwise gradient error against float64 central differences "
                         << g_worst_sdpa);
}

TEST_CASE("SDPA backward: weights equal the forward pass's, score gradients match central differences over the logits",
          "[backward][sdpa]") {
  for (const SdpaCase& c : {SdpaCase{2, 9, 7, 5, 3, kCausal | kPadding, true, 0.3f}, SdpaCase{1, 4, 17, 3, 6, kMatrix, false, 0.0f}}) {
    INFO(describe(c));
    const SdpaProblem problem(c, 91u + c.n_k);
    const std::vector<float>&q = problem.q, &k = problem.k, &v = problem.v, &g = problem.g;
    const attn::AttentionOptions& opt = problem.opt;
    const attn::SdpaBackwardResult r = problem.backward(true);
    // The same kernels in the same order as the forward pass with need_weights: equal to the bit.
    const attn::AttentionResult fwd = attn::scaled_dot_product_attention(
        q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), c.batch, c.n_q, c.n_k, c.d_k, c.d_v, opt, true,
        attn::kDefaultMemoryBudget);
    CHECK(r.weights == fwd.weights);
    CHECK(r.output == fwd.output);
    // Without weights the backward computes the same output.
    const attn::SdpaBackwardResult lean = problem.backward(false);
    CHECK(lean.output == r.output);
    CHECK(lean.dq == r.dq);
    CHECK(lean.weights.empty());
    CHECK(lean.score_grads.empty());

    // ∂L/∂S by central differences over the logits S = α·q·kᵀ (masked ones stay −∞), each
    // row pushed through softmax, dropout and ·V in float64.
    const double alpha = c.scale ? 1.0 / std::sqrt(static_cast<double>(c.d_k)) : 1.0;
    const double keep = 1.0 / (1.0 - static_cast<double>(c.dropout));
    std::vector<double> want(r.score_grads.size());
    for (int b = 0; b < c.batch; ++b)
      for (int i = 0; i < c.n_q; ++i) {
        std::vector<double> s(c.n_k);
        for (int j = 0; j < c.n_k; ++j) {
          double dot = 0.0;
          for (int t = 0; t < c.d_k; ++t)
            dot += static_cast<double>(q[(static_cast<std::size_t>(b) * c.n_q + i) * c.d_k + t]) *
                   k[(static_cast<std::size_t>(b) * c.n_k + j) * c.d_k + t];
          s[j] = reference::is_masked(opt.mask, b, i, j, c.n_k) ? -INFINITY : alpha * dot;
        }
        auto row_loss = [&] {
          std::vector<double> a = s;
          reference::softmax(a.data(), c.n_k);
          double loss = 0.0;
          for (int j = 0; j < c.n_k; ++j) {
            const double p = opt.training && opt.dropout > 0 ? (attn::dropout_keep(opt.seed, b, 0, i, j, opt.dropout) ? a[j] * keep : 0.0) : a[j];
            for (int t = 0; t < c.d_v; ++t)
              loss += p * v[(static_cast<std::size_t>(b) * c.n_k + j) * c.d_v + t] * g[(static_cast<std::size_t>(b) * c.n_q + i) * c.d_v + t];
          }
          return loss;
        };
        // A masked logit stays −∞ when moved, so its difference is exactly 0, as its gradient.
        const std::vector<double> row = central_differences(s, row_loss);
        std::copy(row.begin(), row.end(), want.begin() + static_cast<std::ptrdiff_t>((static_cast<std::size_t>(b) * c.n_q + i) * c.n_k));
      }
    check_gradient("the scores (score_grads)", r.score_grads, want, g_worst_sdpa);
  }
}

TEST_CASE("SDPA backward: steps of a few query rows (long keys) give what one row at a time gives",
          "[backward][sdpa]") {
  // Past 2,048 keys a step holds fewer than 64 query rows (backward_rows): 3,000 keys give steps of
  // 40, so 100 queries take three, the last one short. A query row's gradient of q is its own and
  // the gradients of k and v add up over rows, so running the rows one at a time must agree (a
  // padding mask, the same for every row; dropout and causal masks depend on the row index).
  const int n_q = 100, n_k = 3000, d_k = 3, d_v = 2;
  REQUIRE(attn::backward_rows(n_k) == 40);
  check::TestRng rng(77);
  const std::vector<float> q = rng.vec(static_cast<std::size_t>(n_q) * d_k, -1, 1);
  const std::vector<float> k = rng.vec(static_cast<std::size_t>(n_k) * d_k, -1, 1);
  const std::vector<float> v = rng.vec(static_cast<std::size_t>(n_k) * d_v, -1, 1);
  const std::vector<float> g = rng.vec(static_cast<std::size_t>(n_q) * d_v, -1, 1);
  attn::AttentionOptions opt;
  opt.mask.key_lengths = {2900};
  auto run = [&](const float* qs, const float* gs, int rows) {
    return attn::scaled_dot_product_attention_backward(qs, static_cast<std::size_t>(rows) * d_k, k.data(), k.size(),
                                                       v.data(), v.size(), gs, static_cast<std::size_t>(rows) * d_v, 1,
                                                       rows, n_k, d_k, d_v, opt, false, attn::kDefaultMemoryBudget);
  };
  const attn::SdpaBackwardResult all = run(q.data(), g.data(), n_q);
  std::vector<float> dq, out;
  std::vector<double> dk(all.dk.size(), 0.0), dv(all.dv.size(), 0.0);
  for (int i = 0; i < n_q; ++i) {
    const attn::SdpaBackwardResult one = run(q.data() + i * d_k, g.data() + i * d_v, 1);
    dq.insert(dq.end(), one.dq.begin(), one.dq.end());
    out.insert(out.end(), one.output.begin(), one.output.end());
    for (std::size_t j = 0; j < dk.size(); ++j) dk[j] += one.dk[j];
    for (std::size_t j = 0; j < dv.size(); ++j) dv[j] += one.dv[j];
  }
  CHECK(out == all.output);  // rows are computed alike whatever step they fall in
  CHECK(dq == all.dq);
  // dK and dV: the same terms added in another order (float), so to rounding.
  const check::Worst wk = check::normwise(all.dk, dk), wv = check::normwise(all.dv, dv);
  INFO("dk: " << wk.describe() << "; dv: " << wv.describe());
  CHECK(wk.err < 1e-5);
  CHECK(wv.err < 1e-5);
}

// ---------------------------------------------------------------- multi-head attention

namespace {

struct MhaCase {
  const char* name;
  int d_model, n_heads, d_k, d_v;  // d_k, d_v 0: d_model / n_heads
  bool bias;
  int batch, n_q, n_k;
  bool self;
  unsigned mask;
  bool scale;
  float dropout;
  int n_kv_heads = 0;            // 0: n_heads (multi-head attention); else grouped-query attention
  std::vector<float> head_mask;  // empty: every head × 1
};

std::string describe(const MhaCase& c) {
  return std::string(c.name) + " [d_model " + std::to_string(c.d_model) + ", n_heads " + std::to_string(c.n_heads) +
         ", n_kv_heads " + std::to_string(c.n_kv_heads) + ", d_k " + std::to_string(c.d_k) + ", d_v " + std::to_string(c.d_v) + ", batch " + std::to_string(c.batch) +
         ", n_q " + std::to_string(c.n_q) + ", n_k " + std::to_string(c.n_k) + "]";
}

const std::vector<MhaCase>& mha_cases() {
  static const std::vector<MhaCase> all = {
      {"self, bias", 8, 2, 0, 0, true, 1, 5, 5, true, kNone, true, 0.0f},
      {"self, causal + padding (a fully masked batch item), batch 2", 8, 2, 0, 0, true, 2, 6, 6, true,
       kCausal | kPadding, true, 0.0f},
      {"cross n_q != n_k, matrix mask (a fully masked query)", 12, 3, 0, 0, true, 1, 4, 9, false, kMatrix, true, 0.0f},
      {"self, dropout 0.3", 8, 2, 0, 0, true, 2, 7, 7, true, kCausal, true, 0.3f},
      {"cross, unscaled", 8, 4, 0, 0, true, 1, 5, 3, false, kNone, false, 0.0f},
      {"d_k != d_v, no bias, cross, dropout", 6, 3, 2, 5, false, 2, 3, 5, false, kPadding, true, 0.2f},
      {"one head, tails: n_q 17, n_k 9, d_model 5", 5, 1, 0, 0, true, 1, 17, 9, false, kNone, true, 0.0f},
      {"two query steps (70 rows), causal", 4, 2, 3, 1, true, 1, 70, 70, true, kCausal, true, 0.0f},
      {"grouped-query attention (4 heads, 2 key/value heads), cross, dropout", 8, 4, 0, 0, true, 2, 4, 6, false,
       kPadding, true, 0.25f, 2},
      {"multi-query attention (3 heads, 1 key/value head), d_k != d_v, self", 6, 3, 2, 3, true, 1, 5, 5, true, kCausal,
       true, 0.0f, 1},
      {"head_mask (1, 0, 0.5): a head off and a head halved", 9, 3, 0, 0, true, 2, 4, 4, true, kNone, true, 0.0f, 0,
       {1.0f, 0.0f, 0.5f}},
  };
  return all;
}

// Every tensor of the problem in float64: the weights and biases, then the inputs.
struct Mha64 {
  std::vector<double> wq, wk, wv, wo, bq, bk, bv, bo, query, key, value;
};

// y (rows × d_out) = x·W + b in float64 (b may be empty).
std::vector<double> linear64(const double* x, int rows, int d_in, const std::vector<double>& w,
                             const std::vector<double>& bias, int d_out) {
  std::vector<double> y(static_cast<std::size_t>(rows) * d_out);
  reference::matmul(rows, d_out, d_in, x, d_in, w.data(), d_out, y.data(), d_out);
  if (!bias.empty())
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < d_out; ++c) y[static_cast<std::size_t>(r) * d_out + c] += bias[static_cast<std::size_t>(c)];
  return y;
}

// Σ g·output of multi-head attention in float64 from the tensors of m; query, key and value are
// separate arrays even in self-attention, so a difference in one follows one path only.
double mha_loss(const Mha64& m, const attn::MhaDims& d, const MhaCase& c, const attn::AttentionOptions& opt,
                const std::vector<double>& g) {
  const int D = d.d_model, H = d.n_heads, QK = H * d.d_k, V = H * d.d_v;
  // Grouped-query attention: K and V have n_kv_heads heads, head h reads h / (n_heads / n_kv_heads).
  const int KVH = d.n_kv_heads, KK = KVH * d.d_k, KV = KVH * d.d_v, group = H / KVH;
  double loss = 0.0;
  for (int b = 0; b < c.batch; ++b) {
    const std::vector<double> Q = linear64(m.query.data() + static_cast<std::size_t>(b) * c.n_q * D, c.n_q, D, m.wq, m.bq, QK);
    const std::vector<double> K = linear64(m.key.data() + static_cast<std::size_t>(b) * c.n_k * D, c.n_k, D, m.wk, m.bk, KK);
    const std::vector<double> Vp = linear64(m.value.data() + static_cast<std::size_t>(b) * c.n_k * D, c.n_k, D, m.wv, m.bv, KV);
    std::vector<double> concat(static_cast<std::size_t>(c.n_q) * V), w(static_cast<std::size_t>(c.n_q) * c.n_k);
    for (int h = 0; h < H; ++h) {
      const int kv = h / group;
      reference::attention_head(Q.data() + h * d.d_k, QK, K.data() + kv * d.d_k, KK, Vp.data() + kv * d.d_v, KV, c.n_q,
                                c.n_k, d.d_k, d.d_v, opt, b, h, concat.data() + h * d.d_v, V, w.data(), nullptr);
      if (!c.head_mask.empty())  // the head's output, scaled before Wᴼ
        for (int i = 0; i < c.n_q; ++i)
          for (int t = 0; t < d.d_v; ++t) concat[static_cast<std::size_t>(i) * V + h * d.d_v + t] *= c.head_mask[h];
    }
    const std::vector<double> y = linear64(concat.data(), c.n_q, V, m.wo, m.bo, D);
    for (std::size_t i = 0; i < y.size(); ++i) loss += g[static_cast<std::size_t>(b) * y.size() + i] * y[i];
  }
  return loss;
}

}  // namespace

TEST_CASE("MHA backward: every weight, bias and input gradient matches float64 central differences",
          "[backward][mha]") {
  for (const MhaCase& c : mha_cases()) {
    INFO(describe(c));
    attn::MhaConfig config = check::mha_config(c.d_model, c.n_heads, c.d_k, c.d_v, c.bias, 5);
    if (c.n_kv_heads > 0) config.n_kv_heads = c.n_kv_heads;
    attn::MultiHeadAttention layer(config);
    const attn::MhaDims& d = layer.dims();
    check::TestRng rng(40u + c.n_q * 3u + c.d_model);
    attn::MhaWeights weights = layer.weights();
    if (c.bias)  // non-zero biases, so that their gradients and their effect are both tested
      for (std::vector<float>* bias : {&weights.bq, &weights.bk, &weights.bv, &weights.bo})
        *bias = rng.vec(bias->size(), -0.5f, 0.5f);
    layer.set_weights(weights);
    const std::vector<float> query = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * c.d_model, -1, 1);
    const std::vector<float> other_key = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_model, -1, 1);
    const std::vector<float> other_value = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * c.d_model, -1, 1);
    const std::vector<float>& key = c.self ? query : other_key;
    const std::vector<float>& value = c.self ? query : other_value;
    const std::vector<float> g = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * c.d_model, -1, 1);
    attn::ForwardOptions opt;
    static_cast<attn::AttentionOptions&>(opt) = options(c.mask, c.scale, c.dropout, c.batch, c.n_q, c.n_k);
    opt.head_mask = c.head_mask;
    const attn::MhaInput in{query.data(), query.size(), key.data(), key.size(), value.data(), value.size(),
                            c.batch, c.n_q, c.n_k};
    const attn::MhaBackwardResult r = attn::multi_head_attention_backward(layer, in, g.data(), g.size(), opt);

    // Output: as the forward pass gives it (need_weights path, same kernels), and near float64.
    attn::ForwardOptions with_weights = opt;
    with_weights.need_weights = true;
    const attn::MhaResult fwd = layer.forward(in, with_weights);
    CHECK(r.output == fwd.output);
    REQUIRE(r.masked_rows.size() == fwd.masked_rows.size());
    for (std::size_t i = 0; i < fwd.masked_rows.size(); ++i) {
      CHECK(r.masked_rows[i].b == fwd.masked_rows[i].b);
      CHECK(r.masked_rows[i].i == fwd.masked_rows[i].i);
    }
    if (d.n_kv_heads == d.n_heads && c.head_mask.empty()) {  // the suite's float64 MHA has neither
      const reference::MhaRef ref = reference::mha(weights, c.d_model, d.n_heads, d.d_k, d.d_v, query.data(),
                                                   key.data(), value.data(), c.batch, c.n_q, c.n_k, opt);
      const check::Worst out = check::normwise(r.output, ref.output);
      INFO("output against float64: " << out.describe());
      CHECK(out.err <= kOutputTol);
      CHECK(r.masked_rows.size() == ref.masked_rows.size());
    }
    CHECK(r.grads.bq.empty() == !c.bias);

    Mha64 m{to64(weights.wq), to64(weights.wk), to64(weights.wv), to64(weights.wo), to64(weights.bq),
            to64(weights.bk), to64(weights.bv), to64(weights.bo), to64(query), to64(key), to64(value)};
    const std::vector<double> g64 = to64(g);
    auto loss = [&] { return mha_loss(m, d, c, opt, g64); };
    const std::pair<const char*, std::pair<const std::vector<float>*, std::vector<double>*>> all[] = {
        {"wq", {&r.grads.wq, &m.wq}}, {"wk", {&r.grads.wk, &m.wk}}, {"wv", {&r.grads.wv, &m.wv}},
        {"wo", {&r.grads.wo, &m.wo}}, {"bq", {&r.grads.bq, &m.bq}}, {"bk", {&r.grads.bk, &m.bk}},
        {"bv", {&r.grads.bv, &m.bv}}, {"bo", {&r.grads.bo, &m.bo}}, {"query", {&r.query, &m.query}},
        {"key", {&r.key, &m.key}},    {"value", {&r.value, &m.value}}};
    // A bias gradient is a column sum of the same dQ, dK, dV or dY as its weight's gradient, so its
    // errors are measured on that weight gradient's scale. This matters for bk: softmax ignores a
    // constant added to a row of logits, and q·bk is one, so ∂L/∂bk is 0 exactly and the engine's
    // is the rounding left over by that cancellation (about 1e-8).
    double weight_scale[4] = {0, 0, 0, 0};
    for (int i = 0; i < 11; ++i) {
      const auto& [name, pair] = all[i];
      const std::vector<double> want = central_differences(*pair.second, loss);
      if (i < 4) weight_scale[i] = max_abs(want);
      check_gradient(name, *pair.first, want, g_worst_mha, i >= 4 && i < 8 ? weight_scale[i - 4] : 0.0);
    }
  }
  WARN("MHA backward (" << attn::kernel_isa() << "): max normwise gradient error against float64 central differences "
                        << g_worst_mha);
}

TEST_CASE("MHA backward: need_weights returns each head's weights (as forward) and score gradients",
          "[backward][mha]") {
  attn::MultiHeadAttention layer(check::mha_config(12, 3, 4, 2, true, 9));
  check::TestRng rng(8);
  const int batch = 2, n_q = 5, n_k = 7;
  const std::vector<float> query = rng.vec(batch * n_q * 12, -1, 1), kv = rng.vec(batch * n_k * 12, -1, 1);
  const std::vector<float> g = rng.vec(batch * n_q * 12, -1, 1);
  attn::ForwardOptions opt;
  opt.mask.causal = true;
  opt.dropout = 0.25f;
  opt.training = true;
  opt.need_weights = true;
  const attn::MhaInput in{query.data(), query.size(), kv.data(), kv.size(), kv.data(), kv.size(), batch, n_q, n_k};
  const attn::MhaBackwardResult r = attn::multi_head_attention_backward(layer, in, g.data(), g.size(), opt);
  const attn::MhaResult fwd = layer.forward(in, opt);
  CHECK(r.weights == fwd.weights);
  REQUIRE(r.score_grads.size() == r.weights.size());
  // Each row of dS sums to 0 (softmax is shift-invariant), and a masked logit gets 0.
  double worst_row_sum = 0.0;
  int masked_nonzero = 0;
  for (std::size_t row = 0; row < r.score_grads.size() / n_k; ++row) {
    double sum = 0.0, mag = 0.0;
    for (int j = 0; j < n_k; ++j) {
      const float s = r.score_grads[row * n_k + j];
      sum += s;
      mag += std::fabs(s);
      masked_nonzero += j > static_cast<int>(row % n_q) && s != 0.0f;
    }
    worst_row_sum = std::max(worst_row_sum, std::fabs(sum) / (mag + 1e-30));
  }
  INFO("worst |Σ_j dS_ij| / Σ_j |dS_ij| " << worst_row_sum);
  CHECK(worst_row_sum < 1e-5);
  CHECK(masked_nonzero == 0);
  // Without need_weights the gradients are the same.
  opt.need_weights = false;
  const attn::MhaBackwardResult lean = attn::multi_head_attention_backward(layer, in, g.data(), g.size(), opt);
  CHECK(lean.grads.wq == r.grads.wq);
  CHECK(lean.key == r.key);
  CHECK(lean.weights.empty());
}

// ---------------------------------------------------------------- bad input, overflow, budget

TEST_CASE("backward: bad input, overflow and the budget give messages that name the problem", "[backward][errors]") {
  attn::MultiHeadAttention layer(check::mha_config(8, 2));
  std::vector<float> query(3 * 8, 0.1f), g(3 * 8, 0.5f);
  attn::ForwardOptions opt;
  const attn::MhaInput in{query.data(), query.size(), query.data(), query.size(), query.data(), query.size(), 1, 3, 3};
  auto run = [&] { return attn::multi_head_attention_backward(layer, in, g.data(), g.size(), opt); };
  REQUIRE_NOTHROW(run());
  // Wrong grad_output length, a NaN in it, the forward's own checks.
  CHECK_THROWS_WITH(attn::multi_head_attention_backward(layer, in, g.data(), 23, opt),
                    "grad_output has 23 values but [batch, n_q, d_model] = [1, 3, 8] needs 24");
  g[5] = NAN;
  CHECK_THROWS_WITH(run(), Catch::Contains("grad_output contains NaN at index 5 (row 0, column 5)"));
  g[5] = 0.5f;
  const attn::MhaInput short_query{query.data(), 20, query.data(), query.size(), query.data(), query.size(), 1, 3, 3};
  CHECK_THROWS_WITH(attn::multi_head_attention_backward(layer, short_query, g.data(), g.size(), opt),
                    Catch::Contains("query has 20 values"));
  opt.dropout = 1.0f;
  CHECK_THROWS_WITH(run(), Catch::Contains("dropout must be in [0, 1)"));
  opt.dropout = 0.0f;

  // The budget: this pass's own count, before anything is allocated.
  opt.memory_budget = 1000;
  const std::uint64_t need = attn::backward_memory(layer.dims(), 1, 3, 3, false, true, opt);
  CHECK_THROWS_WITH(run(), Catch::Contains("this backward pass needs " + attn::group_digits(need) + " bytes"));
  opt.memory_budget = attn::kDefaultMemoryBudget;

  // Finite inputs whose gradient overflows float32 are named, never returned as ±∞.
  std::fill(g.begin(), g.end(), 3e38f);
  attn::MhaWeights w = layer.weights();
  std::fill(w.wo.begin(), w.wo.end(), 1e3f);
  layer.set_weights(w);
  CHECK_THROWS_WITH(run(), Catch::Contains("is not finite (it overflowed float32"));

  // SDPA: lengths by name, grad_output included; overflow of the scores as in forward.
  std::vector<float> q(2 * 4, 0.5f), k(3 * 4, 0.25f), v(3 * 5, 1.0f), go(2 * 5, 1.0f);
  attn::AttentionOptions sopt;
  auto sdpa = [&](std::size_t go_len) {
    return attn::scaled_dot_product_attention_backward(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(),
                                                       go.data(), go_len, 1, 2, 3, 4, 5, sopt, false,
                                                       attn::kDefaultMemoryBudget);
  };
  REQUIRE_NOTHROW(sdpa(go.size()));
  CHECK_THROWS_WITH(sdpa(9), "grad_output has 9 values but [batch, n_q, d_v] = [1, 2, 5] needs 10");
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention_backward(q.data(), q.size(), k.data(), k.size(), v.data(),
                                                                v.size(), go.data(), go.size(), 1, 2, 3, 4, 5, sopt,
                                                                false, 100),
                    Catch::Contains("this backward pass needs"));
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention_backward(q.data(), q.size(), k.data(), k.size(), v.data(),
                                                                v.size(), go.data(), go.size(), 1 << 30, 1 << 30, 3, 1 << 30,
                                                                5, sopt, false, attn::kDefaultMemoryBudget),
                    Catch::Contains("more than 2^53 values"));
  std::fill(q.begin(), q.end(), 1e20f);
  std::fill(k.begin(), k.end(), 1e20f);
  CHECK_THROWS_WITH(sdpa(go.size()), Catch::Contains("the attention scores can overflow float32"));
}

TEST_CASE("backward: the memory the budget counts covers what the pass allocates", "[backward][budget]") {
  // Sizes where the steps, blocks and packs differ in shape: long keys, many queries, weights.
  attn::MhaConfig gqa = check::mha_config(24, 4, 8, 4);
  gqa.n_kv_heads = 2;
  for (const auto& [config, n_q, n_k, need_weights, dropout] :
       {std::tuple{check::mha_config(24, 3, 8, 4), 100, 300, false, 0.0f},
        std::tuple{check::mha_config(24, 3, 8, 4), 130, 20, true, 0.2f},
        std::tuple{check::mha_config(24, 3, 8, 4), 5, 3000, false, 0.1f}, std::tuple{gqa, 70, 90, true, 0.0f}}) {
    attn::MultiHeadAttention layer(config);
    INFO("n_heads " << layer.dims().n_heads << ", n_kv_heads " << layer.dims().n_kv_heads << ", n_q " << n_q
                    << ", n_k " << n_k << ", need_weights " << need_weights << ", dropout " << dropout);
    const std::vector<float> query(static_cast<std::size_t>(n_q) * 24, 0.1f), kv(static_cast<std::size_t>(n_k) * 24, 0.2f);
    const std::vector<float> g(query.size(), 0.3f);
    attn::ForwardOptions opt;
    opt.need_weights = need_weights;
    opt.dropout = dropout;
    opt.training = dropout > 0.0f;
    const attn::MhaInput in{query.data(), query.size(), kv.data(), kv.size(), kv.data(), kv.size(), 1, n_q, n_k};
    // The count less the inputs (held by the caller here) and the layer's parameters (already made).
    const std::uint64_t counted = attn::backward_memory(layer.dims(), 1, n_q, n_k, need_weights, false, opt) -
                                  4 * (2 * query.size() + 2 * kv.size()) -
                                  8 * static_cast<std::uint64_t>(attn::parameter_counts(layer.dims()).total);
    const std::size_t before = alloc_probe::live;
    alloc_probe::peak = before;
    const std::size_t size = attn::multi_head_attention_backward(layer, in, g.data(), g.size(), opt).output.size();
    const std::uint64_t allocated = alloc_probe::peak - before;
    CHECK(size == query.size());
    INFO("allocated at peak " << allocated << " bytes; counted " << counted);
    CHECK(allocated <= counted);
  }
  // SDPA: the error message of a budget one byte short gives the count; what the call allocates
  // beyond the inputs (held by the caller here) stays within it.
  for (const auto& sizes : {std::tuple{70, 300, false}, std::tuple{9, 2500, true}}) {
    const int n_q = std::get<0>(sizes), n_k = std::get<1>(sizes);  // plain names: a lambda captures them below
    const bool need_weights = std::get<2>(sizes);
    INFO("SDPA n_q " << n_q << ", n_k " << n_k << ", need_weights " << need_weights);
    const int d_k = 6, d_v = 5;
    const std::vector<float> q(static_cast<std::size_t>(n_q) * d_k, 0.1f), k(static_cast<std::size_t>(n_k) * d_k, 0.2f);
    const std::vector<float> v(static_cast<std::size_t>(n_k) * d_v, 0.3f), g(static_cast<std::size_t>(n_q) * d_v, 0.4f);
    attn::AttentionOptions opt;
    opt.dropout = 0.1f;
    opt.training = true;
    auto run = [&](std::uint64_t budget) {
      return attn::scaled_dot_product_attention_backward(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(),
                                                         g.data(), g.size(), 1, n_q, n_k, d_k, d_v, opt, need_weights, budget);
    };
    std::uint64_t counted = 0;
    try {
      run(1);
    } catch (const attn::Error& e) {
      const std::string m = e.what(), head = "this backward pass needs ";
      REQUIRE(m.rfind(head, 0) == 0);
      std::string digits;
      for (char ch : m.substr(head.size())) {
        if (ch == ' ') break;
        if (ch != ',') digits += ch;
      }
      counted = std::stoull(digits);
    }
    REQUIRE(counted > 0);
    CHECK_NOTHROW(run(counted));
    CHECK_THROWS(run(counted - 1));
    const std::uint64_t inputs = 4 * (q.size() + k.size() + v.size() + g.size());
    const std::size_t before = alloc_probe::live;
    alloc_probe::peak = before;
    const std::size_t size = run(counted).output.size();
    const std::uint64_t allocated = alloc_probe::peak - before;
    CHECK(size == static_cast<std::size_t>(n_q) * d_v);
    INFO("allocated at peak " << allocated << " bytes; counted " << counted - inputs << " besides the inputs");
    CHECK(allocated <= counted - inputs);
  }
}

}  // namespace test_backward
