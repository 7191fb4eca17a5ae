// Every kernel, scalar (attn::ref) and SIMD (attn::simd), held to a float64 reference and to each
// other on sizes chosen to hit every tail of the 4×8 matmul tile and of the 4-wide row loops.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/kernels.h"
#include "check.h"
#include "reference.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_kernels {

namespace {

// Below, equal to, a multiple of and above the micro-tile (4 rows, 8 columns), the 4-wide row
// loops and the 64-row cache block: every leftover path runs at least once in every dimension.
const std::vector<int> kSizes = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 64, 65};
constexpr double kU = 1.0 / 16777216.0;  // unit roundoff of float, 2^-24
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Softmax accuracy criterion: |y − y64| ≤ 2e-6·|y64| + 1e-37. The relative part is the promise
// (about 17 float ulps: a few for exp, two for the scaling, the rest for rounding x − max).
// The absolute floor is there because an output below float's normal range (~1.18e-38) cannot
// be held to a relative bound: float has fewer than 24 bits there, or flushes it to 0
// (the SIMD exp returns 0 below e^-87.34 on purpose, as a masked −∞ needs).
constexpr double kSoftmaxRel = 2e-6;
constexpr double kSoftmaxAbs = 1e-37;

// ---------------------------------------------------------------- gemm

using GemmFn = void (*)(int, int, int, const float*, int, const float*, int, bool, float*, int, float,
                        const float*, bool);

struct GemmCase {
  int M, N, K;
  bool trans_b;
  float alpha;
  bool bias, accumulate;
  int pad;  // extra elements per row of A, B and C (0: packed rows), to test the strides
};

std::string describe(const GemmCase& c) {
  return "M=" + std::to_string(c.M) + " N=" + std::to_string(c.N) + " K=" + std::to_string(c.K) +
         " trans_b=" + std::to_string(c.trans_b) + " alpha=" + std::to_string(c.alpha) +
         " bias=" + std::to_string(c.bias) + " accumulate=" + std::to_string(c.accumulate) +
         " pad=" + std::to_string(c.pad);
}

// Each size appears in each of M, N and K, with both layouts of B, with and without strides;
// alpha, bias and accumulate cycle so every combination of flags meets several shapes.
std::vector<GemmCase> gemm_cases() {
  std::vector<GemmCase> cases;
  const float alphas[] = {1.0f, 0.37f, -1.5f};
  const int n = static_cast<int>(kSizes.size());
  for (int trans = 0; trans < 2; ++trans)
    for (int round = 0; round < 2; ++round)
      for (int i = 0; i < n; ++i)
        cases.push_back({kSizes[i], kSizes[(i + 4 + 3 * round) % n], kSizes[(i + 9 + 5 * round) % n], trans == 1,
                         alphas[(i + round) % 3], (i + round) % 2 == 0, (i + trans) % 3 == 1, round == 1 ? 3 : 0});
  // Two full 64-row cache blocks plus a tail, and the all-ones corner.
  cases.push_back({130, 65, 17, false, 1.0f, true, false, 0});
  cases.push_back({130, 17, 33, true, 0.5f, false, true, 5});
  cases.push_back({1, 1, 1, false, 2.0f, true, true, 1});
  return cases;
}

struct GemmData {
  int lda, ldb, ldc;
  std::vector<float> A, B, bias, C0;  // C0: C before the call (padding holds a sentinel)
};

constexpr float kSentinel = 12345.0f;

GemmData make_gemm_data(const GemmCase& c, std::uint64_t seed) {
  check::TestRng rng(seed);
  GemmData d;
  d.lda = c.K + c.pad;
  d.ldb = (c.trans_b ? c.K : c.N) + c.pad;
  d.ldc = c.N + c.pad;
  d.A = rng.vec(static_cast<std::size_t>(c.M) * d.lda, -1.0f, 1.0f);
  d.B = rng.vec(static_cast<std::size_t>(c.trans_b ? c.N : c.K) * d.ldb, -1.0f, 1.0f);
  if (c.bias) d.bias = rng.vec(c.N, -1.0f, 1.0f);
  d.C0.assign(static_cast<std::size_t>(c.M) * d.ldc, kSentinel);
  for (int i = 0; i < c.M; ++i)
    for (int j = 0; j < c.N; ++j) d.C0[static_cast<std::size_t>(i) * d.ldc + j] = c.accumulate ? rng.uniform(-1, 1) : 0.0f;
  return d;
}

float b_at(const GemmCase& c, const GemmData& d, int k, int j) {
  return c.trans_b ? d.B[static_cast<std::size_t>(j) * d.ldb + k] : d.B[static_cast<std::size_t>(k) * d.ldb + j];
}

// The exact product in double, and for each element the standard forward-error bound of a float
// dot product of length K, plus the alpha multiply, the bias add and the accumulate add:
// |fl(c) − c| ≤ (K + 3)·u·(|α|·Σ|a·b| + |bias| + |c_old|); we allow (K + 4)·u of it.
void gemm64(const GemmCase& c, const GemmData& d, std::vector<double>& want, std::vector<double>& bound) {
  want.assign(static_cast<std::size_t>(c.M) * c.N, 0.0);
  bound.assign(want.size(), 0.0);
  for (int i = 0; i < c.M; ++i)
    for (int j = 0; j < c.N; ++j) {
      double sum = 0.0, mag = 0.0;
      for (int k = 0; k < c.K; ++k) {
        const double p = static_cast<double>(d.A[static_cast<std::size_t>(i) * d.lda + k]) * b_at(c, d, k, j);
        sum += p;
        mag += std::fabs(p);
      }
      double value = c.alpha * sum, size = std::fabs(c.alpha) * mag;
      if (c.bias) {
        value += d.bias[j];
        size += std::fabs(d.bias[j]);
      }
      if (c.accumulate) {
        const double old = d.C0[static_cast<std::size_t>(i) * d.ldc + j];
        value += old;
        size += std::fabs(old);
      }
      want[static_cast<std::size_t>(i) * c.N + j] = value;
      bound[static_cast<std::size_t>(i) * c.N + j] = (c.K + 4) * kU * size + 1e-30;
    }
}

// The M×N block of a strided C, and whether the padding columns still hold the sentinel.
std::vector<float> block_of(const GemmCase& c, const GemmData& d, const std::vector<float>& C, bool& padding_intact) {
  std::vector<float> out(static_cast<std::size_t>(c.M) * c.N);
  padding_intact = true;
  for (int i = 0; i < c.M; ++i) {
    for (int j = 0; j < c.N; ++j) out[static_cast<std::size_t>(i) * c.N + j] = C[static_cast<std::size_t>(i) * d.ldc + j];
    for (int j = c.N; j < d.ldc; ++j) padding_intact &= C[static_cast<std::size_t>(i) * d.ldc + j] == kSentinel;
  }
  return out;
}

// Worst element as a fraction of its bound (≤ 1 passes).
check::Worst against_bound(const std::vector<float>& got, const std::vector<double>& want,
                           const std::vector<double>& bound, double factor) {
  check::Worst w;
  w.count = got.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    double r = std::fabs(got[i] - want[i]) / (factor * bound[i]);
    if (r != r) r = INFINITY;
    if (r > w.err || i == 0) {
      w.err = r;
      w.index = i;
      w.got = got[i];
      w.want = want[i];
    }
  }
  return w;
}

double g_gemm_max_normwise = 0.0;  // max |C − C64| / max |C64| over every case, for the report

void check_gemm(const char* name, GemmFn fn) {
  double worst_fraction = 0.0;
  for (const GemmCase& c : gemm_cases()) {
    INFO(name << ": " << describe(c));
    GemmData d = make_gemm_data(c, 1000u + c.M * 131u + c.N * 17u + c.K);
    std::vector<double> want, bound;
    gemm64(c, d, want, bound);
    std::vector<float> C = d.C0;
    fn(c.M, c.N, c.K, d.A.data(), d.lda, d.B.data(), d.ldb, c.trans_b, C.data(), d.ldc, c.alpha,
       c.bias ? d.bias.data() : nullptr, c.accumulate);
    bool padding_intact = false;
    const std::vector<float> got = block_of(c, d, C, padding_intact);
    CHECK(padding_intact);  // nothing written outside the M×N block of C
    const check::Worst w = against_bound(got, want, bound, 1.0);
    INFO("vs float64, error as a fraction of the (K+4)·u bound: " << w.describe());
    CHECK(w.err <= 1.0);
    g_gemm_max_normwise = std::max(g_gemm_max_normwise, check::normwise(got, want).err);
    worst_fraction = std::max(worst_fraction, w.err);
  }
  WARN(name << " vs float64 over all shapes: worst element at " << worst_fraction
            << " of its (K+4)·u error bound; max normwise error " << g_gemm_max_normwise);
}

}  // namespace

TEST_CASE("ref::gemm matches float64 within the dot-product error bound on every tail", "[kernels][gemm]") {
  check_gemm("ref::gemm", attn::ref::gemm);
}

TEST_CASE("scalar::gemm (the baseline module's blocked matmul) matches float64 and ref::gemm", "[kernels][gemm]") {
  g_gemm_max_normwise = 0.0;
  check_gemm("scalar::gemm", attn::scalar::gemm);
  // Same k order as the reference, so within twice the bound of it (in practice bitwise equal).
  for (const GemmCase& c : gemm_cases()) {
    INFO("scalar vs ref: " << describe(c));
    GemmData d = make_gemm_data(c, 3u + c.M * 5u + c.N * 7u + c.K);
    std::vector<double> want, bound;
    gemm64(c, d, want, bound);
    std::vector<float> c_ref = d.C0, c_blk = d.C0;
    const float* bias = c.bias ? d.bias.data() : nullptr;
    attn::ref::gemm(c.M, c.N, c.K, d.A.data(), d.lda, d.B.data(), d.ldb, c.trans_b, c_ref.data(), d.ldc, c.alpha, bias,
                    c.accumulate);
    attn::scalar::gemm(c.M, c.N, c.K, d.A.data(), d.lda, d.B.data(), d.ldb, c.trans_b, c_blk.data(), d.ldc, c.alpha,
                       bias, c.accumulate);
    bool intact_ref = false, intact_blk = false;
    const std::vector<float> r = block_of(c, d, c_ref, intact_ref), s = block_of(c, d, c_blk, intact_blk);
    CHECK(intact_blk);
    const std::vector<double> r64(r.begin(), r.end());
    const check::Worst w = against_bound(s, r64, bound, 2.0);
    INFO(w.describe());
    CHECK(w.err <= 1.0);
  }
}

TEST_CASE("kern::gemm, the matmul this build dispatches to, matches float64 on every tail", "[kernels][gemm]") {
  INFO("kernel set: " << attn::kernel_isa());
  g_gemm_max_normwise = 0.0;
  check_gemm("kern::gemm", attn::kern::gemm);
}

#if ATTN_HAVE_SIMD128
TEST_CASE("simd::gemm matches float64 and ref::gemm on every tail, strides, alpha, bias, accumulate",
          "[kernels][gemm][simd]") {
  g_gemm_max_normwise = 0.0;
  check_gemm("simd::gemm", attn::simd::gemm);
  // Against the scalar reference: both lie within the bound of the exact value, so they lie
  // within twice the bound of each other (they are usually bitwise equal: same summation order).
  for (const GemmCase& c : gemm_cases()) {
    INFO("simd vs ref: " << describe(c));
    GemmData d = make_gemm_data(c, 7u + c.M * 7u + c.N * 3u + c.K);
    std::vector<double> want, bound;
    gemm64(c, d, want, bound);
    std::vector<float> c_ref = d.C0, c_simd = d.C0;
    const float* bias = c.bias ? d.bias.data() : nullptr;
    attn::ref::gemm(c.M, c.N, c.K, d.A.data(), d.lda, d.B.data(), d.ldb, c.trans_b, c_ref.data(), d.ldc, c.alpha, bias,
                    c.accumulate);
    attn::simd::gemm(c.M, c.N, c.K, d.A.data(), d.lda, d.B.data(), d.ldb, c.trans_b, c_simd.data(), d.ldc, c.alpha,
                     bias, c.accumulate);
    bool intact_ref = false, intact_simd = false;
    const std::vector<float> r = block_of(c, d, c_ref, intact_ref), s = block_of(c, d, c_simd, intact_simd);
    CHECK(intact_simd);
    const std::vector<double> r64(r.begin(), r.end());
    const check::Worst w = against_bound(s, r64, bound, 2.0);
    INFO(w.describe());
    CHECK(w.err <= 1.0);
  }
}

TEST_CASE("simd::pack_b lays B out in zero-padded 8-column panels", "[kernels][gemm][simd]") {
  check::TestRng rng(42);
  for (int N : kSizes) {
    for (bool trans : {false, true}) {
      const int K = 5, ldb = (trans ? K : N) + 2;
      const std::vector<float> B = rng.vec(static_cast<std::size_t>(trans ? N : K) * ldb, -1, 1);
      attn::PackedB packed;
      attn::simd::pack_b(K, N, B.data(), ldb, trans, packed);
      INFO("N=" << N << " trans_b=" << trans);
      const int panels = (N + 7) / 8;
      REQUIRE(packed.K == K);
      REQUIRE(packed.N == N);
      REQUIRE(packed.panels.size() == static_cast<std::size_t>(panels) * K * 8);
      int wrong = 0;
      for (int p = 0; p < panels; ++p)
        for (int k = 0; k < K; ++k)
          for (int c = 0; c < 8; ++c) {
            const int j = p * 8 + c;
            const float want = j < N ? (trans ? B[static_cast<std::size_t>(j) * ldb + k] : B[static_cast<std::size_t>(k) * ldb + j]) : 0.0f;
            wrong += packed.panels[(static_cast<std::size_t>(p) * K + k) * 8 + c] == want ? 0 : 1;
          }
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("simd::gemm_packed: one packed B reused for several A matches float64", "[kernels][gemm][simd]") {
  for (const GemmCase& c0 : gemm_cases()) {
    GemmData d = make_gemm_data(c0, 99u + c0.M * 5u + c0.N * 11u + c0.K);
    attn::PackedB packed;
    attn::simd::pack_b(c0.K, c0.N, d.B.data(), d.ldb, c0.trans_b, packed);
    // Reuse the panels with the case's own A, then with a taller A (crossing the 64-row block).
    for (int M : {c0.M, 67}) {
      GemmCase c = c0;
      c.M = M;
      GemmData dm = d;
      check::TestRng rng(M * 31u + c.K);
      dm.A = rng.vec(static_cast<std::size_t>(M) * d.lda, -1, 1);
      dm.C0.assign(static_cast<std::size_t>(M) * d.ldc, kSentinel);
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < c.N; ++j) dm.C0[static_cast<std::size_t>(i) * d.ldc + j] = c.accumulate ? rng.uniform(-1, 1) : 0.0f;
      INFO("gemm_packed: " << describe(c));
      std::vector<double> want, bound;
      gemm64(c, dm, want, bound);
      std::vector<float> C = dm.C0;
      attn::simd::gemm_packed(M, dm.A.data(), dm.lda, packed, C.data(), dm.ldc, c.alpha,
                              c.bias ? dm.bias.data() : nullptr, c.accumulate);
      bool intact = false;
      const std::vector<float> got = block_of(c, dm, C, intact);
      CHECK(intact);
      const check::Worst w = against_bound(got, want, bound, 1.0);
      INFO(w.describe());
      CHECK(w.err <= 1.0);
    }
  }
}
#endif

// ---------------------------------------------------------------- softmax

namespace {

using SoftmaxFn = bool (*)(float*, int);

struct SoftmaxKernel {
  const char* name;
  SoftmaxFn fn;
};

std::vector<SoftmaxKernel> softmax_kernels() {
  std::vector<SoftmaxKernel> k = {{"ref::softmax_row", attn::ref::softmax_row}};
#if ATTN_HAVE_SIMD128
  k.push_back({"simd::softmax_row", attn::simd::softmax_row});
#endif
  return k;
}

std::vector<double> softmax64(const std::vector<float>& x) {
  std::vector<double> y(x.begin(), x.end());
  reference::softmax(y.data(), static_cast<int>(y.size()));
  return y;
}

// Largest relative error over outputs in float's normal range, for the report.
double max_relative_normal(const std::vector<float>& y, const std::vector<double>& y64) {
  double worst = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i)
    if (y64[i] >= FLT_MIN) worst = std::max(worst, std::fabs(y[i] - y64[i]) / y64[i]);
  return worst;
}

// Logit rows of one shape: narrow, medium, and spread over the whole range exp sees after the
// max is subtracted (down to max − 90, past the point where e^x leaves float's normal range at
// −87.3). The max is not 0 on purpose: x − 0 is exact, while x − max in general is rounded.
std::vector<float> logits(check::TestRng& rng, int n, int kind) {
  switch (kind) {
    case 0: return rng.vec(n, -5.0f, 5.0f);
    case 1: return rng.vec(n, -30.0f, 30.0f);
    default: {
      const float max = rng.uniform(-20.0f, 20.0f);
      std::vector<float> x = rng.vec(n, max - 90.0f, max);
      x[static_cast<std::size_t>(rng.below(n))] = max;
      return x;
    }
  }
}

double g_softmax_max_rel = 0.0;

void check_softmax_accuracy(const SoftmaxKernel& k, const std::vector<float>& x, const std::string& what) {
  INFO(k.name << ": " << what << ", n=" << x.size());
  const std::vector<double> want = softmax64(x);
  std::vector<float> y = x;
  const bool any = k.fn(y.data(), static_cast<int>(y.size()));
  double max64 = 0.0;
  for (double v : want) max64 = std::max(max64, v);
  CHECK(any == (max64 > 0));
  const check::Worst w = check::ratio(y.data(), want.data(), y.size(), kSoftmaxRel, kSoftmaxAbs);
  INFO("|y − y64| / (2e-6·|y64| + 1e-37), " << w.describe());
  CHECK(w.err <= 1.0);
  g_softmax_max_rel = std::max(g_softmax_max_rel, max_relative_normal(y, want));
}

}  // namespace

TEST_CASE("softmax_row is within 2e-6 relative of a float64 softmax on every tail and logit range",
          "[kernels][softmax]") {
  check::TestRng rng(2024);
  for (const SoftmaxKernel& k : softmax_kernels())
    for (int n : kSizes)
      for (int kind = 0; kind < 3; ++kind) {
        check_softmax_accuracy(k, logits(rng, n, kind), "logit range " + std::to_string(kind));
        // The same with about a quarter of the entries masked.
        std::vector<float> x = logits(rng, n, kind);
        for (float& v : x)
          if (rng.below(4) == 0) v = kNegInf;
        check_softmax_accuracy(k, x, "masked, logit range " + std::to_string(kind));
      }
  WARN("softmax_row: max relative error vs float64 (outputs in float's normal range) = " << g_softmax_max_rel);
}

TEST_CASE("softmax_row on long rows (20,000 logits) stays accurate and sums to 1", "[kernels][softmax]") {
  check::TestRng rng(7);
  for (const SoftmaxKernel& k : softmax_kernels())
    for (int kind = 0; kind < 3; ++kind) {
      const std::vector<float> x = logits(rng, 20000, kind);
      check_softmax_accuracy(k, x, "long row, range " + std::to_string(kind));
      std::vector<float> y = x;
      k.fn(y.data(), 20000);
      double sum = 0.0;
      for (float v : y) sum += v;
      INFO(k.name << " row sum = " << sum);
      CHECK(std::fabs(sum - 1.0) <= 2.01e-6);
    }
}

TEST_CASE("softmax_row properties: sums to 1, masked entries exactly 0, fully masked row", "[kernels][softmax]") {
  check::TestRng rng(11);
  for (const SoftmaxKernel& k : softmax_kernels()) {
    for (int n : kSizes) {
      INFO(k.name << " n=" << n);
      std::vector<float> x = rng.vec(n, -8.0f, 8.0f);
      std::vector<int> masked(n, 0);
      for (int j = 0; j < n; ++j)
        if (j % 3 == 1) {
          masked[j] = 1;
          x[j] = kNegInf;
        }
      REQUIRE(k.fn(x.data(), n));
      double sum = 0.0;
      int nonzero_masked = 0;
      for (int j = 0; j < n; ++j) {
        sum += x[j];
        if (masked[j] && x[j] != 0.0f) ++nonzero_masked;
      }
      // Each output is within 2e-6 relative of an exact softmax, whose sum is 1.
      CHECK(std::fabs(sum - 1.0) <= 2.01e-6);
      CHECK(nonzero_masked == 0);

      // A fully masked row: every output exactly 0 (never NaN) and the kernel says so.
      std::vector<float> all_masked(n, kNegInf);
      CHECK_FALSE(k.fn(all_masked.data(), n));
      int not_zero = 0;
      for (float v : all_masked) not_zero += v == 0.0f ? 0 : 1;
      CHECK(not_zero == 0);
    }
  }
}

TEST_CASE("softmax_row is shift invariant", "[kernels][softmax]") {
  check::TestRng rng(5);
  for (const SoftmaxKernel& k : softmax_kernels())
    for (int n : kSizes) {
      INFO(k.name << " n=" << n);
      // Logits on a 1/64 grid shifted by whole numbers: x + c is exact in float and so is
      // (x + c) − (max + c), so exp sees identical inputs and the outputs must be identical.
      std::vector<float> x(n);
      for (float& v : x) v = static_cast<float>(rng.below(1024) - 512) / 64.0f;
      std::vector<float> base = x;
      k.fn(base.data(), n);
      for (float c : {1000.0f, -3000.0f, 0.5f}) {
        std::vector<float> shifted(n);
        for (int j = 0; j < n; ++j) shifted[j] = x[j] + c;
        k.fn(shifted.data(), n);
        const check::Worst w = check::max_abs(shifted, base);
        INFO("shift " << c << ": " << w.describe());
        CHECK(w.err == 0.0);
      }
      // An arbitrary shift rounds the logits themselves; the outputs still agree to the accuracy
      // criterion, since both are close to the same exact softmax of the shifted float logits.
      std::vector<float> shifted(n);
      for (int j = 0; j < n; ++j) shifted[j] = x[j] + 0.3183f;
      const std::vector<double> want = softmax64(shifted);
      k.fn(shifted.data(), n);
      const check::Worst w = check::ratio(shifted.data(), want.data(), shifted.size(), kSoftmaxRel, kSoftmaxAbs);
      INFO(w.describe());
      CHECK(w.err <= 1.0);
      const check::Worst wb = check::ratio(shifted.data(), base.data(), shifted.size(), 3 * kSoftmaxRel, kSoftmaxAbs);
      INFO("vs unshifted: " << wb.describe());
      CHECK(wb.err <= 1.0);
    }
}

TEST_CASE("softmax_row with huge logits stays finite and accurate", "[kernels][softmax]") {
  // exp(1e4) overflows any float and exp(−1e4) underflows: only exp(x − max) is safe, so these
  // rows fail loudly if a kernel ever exponentiates before subtracting the max.
  const std::vector<std::vector<float>> rows = {
      {1e4f, -1e4f, 9999.0f, 5000.0f, kNegInf, 1e4f, -1e4f, 9990.0f, 1e4f},
      {-1e4f, -1e4f, -1e4f, -1e4f, -1e4f},      // uniform, even though every e^x underflows
      {1e4f, 1e4f, 1e4f, 1e4f, 1e4f, 1e4f, 1e4f},  // uniform, even though every e^x overflows
      {1e30f, -1e30f, 3e38f, -3e38f, 0.0f},
      {-1e4f, kNegInf, kNegInf, -9999.5f, -10001.0f, -1e4f, kNegInf, -9998.0f, -1e4f, -10003.0f, -9999.0f}};
  for (const SoftmaxKernel& k : softmax_kernels())
    for (const std::vector<float>& row : rows) {
      std::vector<float> y = row;
      INFO(k.name << " row of " << row.size() << " starting " << row[0]);
      REQUIRE(k.fn(y.data(), static_cast<int>(y.size())));
      CHECK(check::count_non_finite(y) == 0);
      double sum = 0.0;
      for (float v : y) sum += v;
      CHECK(std::fabs(sum - 1.0) <= 2.01e-6);
      const std::vector<double> want = softmax64(row);
      const check::Worst w = check::ratio(y.data(), want.data(), y.size(), kSoftmaxRel, kSoftmaxAbs);
      INFO(w.describe());
      CHECK(w.err <= 1.0);
    }
}

#if ATTN_HAVE_SIMD128
TEST_CASE("simd::softmax_row agrees with ref::softmax_row", "[kernels][softmax][simd]") {
  // Both are within 2e-6 relative of the same exact softmax, so within 4e-6 of each other.
  check::TestRng rng(3);
  for (int n : kSizes)
    for (int kind = 0; kind < 3; ++kind) {
      const std::vector<float> x = logits(rng, n, kind);
      std::vector<float> r = x, s = x;
      attn::ref::softmax_row(r.data(), n);
      attn::simd::softmax_row(s.data(), n);
      const check::Worst w = check::ratio(s.data(), r.data(), s.size(), 2 * kSoftmaxRel, 2 * kSoftmaxAbs);
      INFO("n=" << n << " range " << kind << ": " << w.describe());
      CHECK(w.err <= 1.0);
    }
}
#endif

// ---------------------------------------------------------------- exp_shift_row, scale, mask_row

namespace {

using ExpShiftFn = double (*)(float*, int, float);
using ScaleFn = void (*)(float*, int, float);
using MaskFn = void (*)(float*, const std::uint8_t*, int);

template <typename Fn>
struct Named {
  const char* name;
  Fn fn;
};

std::vector<Named<ExpShiftFn>> exp_shift_kernels() {
  std::vector<Named<ExpShiftFn>> k = {{"ref::exp_shift_row", attn::ref::exp_shift_row}};
#if ATTN_HAVE_SIMD128
  k.push_back({"simd::exp_shift_row", attn::simd::exp_shift_row});
#endif
  return k;
}
std::vector<Named<ScaleFn>> scale_kernels() {
  std::vector<Named<ScaleFn>> k = {{"ref::scale", attn::ref::scale}};
#if ATTN_HAVE_SIMD128
  k.push_back({"simd::scale", attn::simd::scale});
#endif
  return k;
}
std::vector<Named<MaskFn>> mask_kernels() {
  std::vector<Named<MaskFn>> k = {{"ref::mask_row", attn::ref::mask_row}};
#if ATTN_HAVE_SIMD128
  k.push_back({"simd::mask_row", attn::simd::mask_row});
#endif
  return k;
}

}  // namespace

TEST_CASE("exp_shift_row: e^(x − shift) to the softmax criterion, −∞ to 0, and the sum", "[kernels][exp]") {
  check::TestRng rng(17);
  double max_rel = 0.0;
  for (const auto& k : exp_shift_kernels())
    for (int n : kSizes)
      for (int kind = 0; kind < 3; ++kind) {
        // The streaming attention calls it with shift = the running max, so every x ≤ shift.
        std::vector<float> x = logits(rng, n, kind);
        float shift = kNegInf;
        for (float v : x) shift = std::max(shift, v);
        shift += kind == 0 ? 0.0f : 0.71f;  // at or above the max, as in the online softmax
        if (n > 2) x[1] = kNegInf;
        std::vector<double> want(x.size());
        double want_sum = 0.0;
        for (std::size_t j = 0; j < x.size(); ++j) {
          want[j] = std::exp(static_cast<double>(x[j]) - shift);
          want_sum += want[j];
        }
        std::vector<float> y = x;
        const double sum = k.fn(y.data(), n, shift);
        INFO(k.name << " n=" << n << " range " << kind);
        const check::Worst w = check::ratio(y.data(), want.data(), y.size(), kSoftmaxRel, kSoftmaxAbs);
        INFO(w.describe());
        CHECK(w.err <= 1.0);
        if (n > 2) CHECK(y[1] == 0.0f);
        // The returned sum is the sum of the values written (kept in double, so it is exact up
        // to double rounding) and therefore close to the exact sum too.
        double written = 0.0;
        for (float v : y) written += v;
        CHECK(std::fabs(sum - written) <= 1e-12 * written);
        CHECK(std::fabs(sum - want_sum) <= kSoftmaxRel * want_sum);
        for (std::size_t j = 0; j < y.size(); ++j)
          if (want[j] >= FLT_MIN) max_rel = std::max(max_rel, std::fabs(y[j] - want[j]) / want[j]);
      }
  WARN("exp_shift_row: max relative error vs float64 = " << max_rel);
}

TEST_CASE("scale multiplies exactly (one correctly rounded product per element)", "[kernels][scale]") {
  check::TestRng rng(23);
  for (const auto& k : scale_kernels())
    for (int n : kSizes)
      for (float s : {0.125f, 0.7071f, -3.5f, 1e-20f}) {
        const std::vector<float> x = rng.vec(n, -100.0f, 100.0f);
        std::vector<float> y = x;
        k.fn(y.data(), n, s);
        // A product of two floats is exact in double, so rounding it once to float is the
        // correctly rounded float product: the kernel must produce exactly that.
        int wrong = 0, first = -1;
        for (int j = 0; j < n; ++j)
          if (y[j] != static_cast<float>(static_cast<double>(x[j]) * s)) {
            ++wrong;
            if (first < 0) first = j;
          }
        INFO(k.name << " n=" << n << " s=" << s << " first wrong index " << first);
        CHECK(wrong == 0);
      }
}

TEST_CASE("mask_row sets exactly the flagged entries to −∞ and leaves the rest bit-identical", "[kernels][mask]") {
  check::TestRng rng(29);
  for (const auto& k : mask_kernels())
    for (int n : kSizes) {
      const std::vector<float> x = rng.vec(n, -4.0f, 4.0f);
      std::vector<std::uint8_t> flags(n);
      // Any non-zero byte means masked, not only 1.
      const std::uint8_t values[] = {0, 1, 0, 2, 255, 0, 128, 0};
      for (int j = 0; j < n; ++j) flags[j] = values[rng.below(8)];
      std::vector<float> y = x;
      k.fn(y.data(), flags.data(), n);
      int wrong = 0, first = -1;
      for (int j = 0; j < n; ++j) {
        const bool ok = flags[j] ? y[j] == kNegInf : std::memcmp(&y[j], &x[j], sizeof(float)) == 0;
        if (!ok) {
          ++wrong;
          if (first < 0) first = j;
        }
      }
      INFO(k.name << " n=" << n << " first wrong index " << first);
      CHECK(wrong == 0);
    }
}

TEST_CASE("exp_poly matches exp from -87 to 0", "[kernels][exp]") {
  // Softmax and the streaming attention only ever exponentiate x − max ≤ 0, and below about
  // −87.3 e^x leaves float's normal range, so [−87, 0] is the whole range that matters.
  // Tolerance: 4 float ulps relative (4·2^-23 ≈ 4.8e-7): the polynomial's own error (a degree-6
  // interpolant, coefficients rounded to float) is below 2.1e-8, the rest is rounding in the
  // range reduction and Horner's scheme.
  const double tol = 4.0 * 2.0 * kU;
  check::Worst worst;
  const int steps = 200000;
  for (int s = 0; s <= steps; ++s) {
    const float x = static_cast<float>(-87.0 * s / steps);
    const double want = std::exp(static_cast<double>(x));
    const float got = attn::exp_poly(x);
    const double rel = std::fabs(got - want) / want;
    if (rel > worst.err || s == 0) {
      worst.err = rel;
      worst.index = static_cast<std::size_t>(s);
      worst.got = got;
      worst.want = want;
    }
  }
  worst.count = steps + 1;
  INFO("relative error, " << worst.describe() << " at x = " << -87.0 * worst.index / steps);
  CHECK(worst.err <= tol);
  WARN("exp_poly: max relative error vs exp over [-87, 0] = " << worst.err << " (" << worst.err / (2 * kU)
                                                              << " ulp)");
  CHECK(attn::exp_poly(0.0f) == 1.0f);
  // A masked logit is −∞ and must give exactly 0; past the normal range the result is 0 or a
  // tiny subnormal, never garbage from the exponent bits wrapping around.
  CHECK(attn::exp_poly(kNegInf) == 0.0f);
  for (float x : {-87.5f, -88.0f, -95.0f, -104.0f, -1e4f, -3e38f}) {
    INFO("x = " << x);
    CHECK(attn::exp_poly(x) >= 0.0f);
    CHECK(attn::exp_poly(x) < FLT_MIN);
  }
}

}  // namespace test_kernels
