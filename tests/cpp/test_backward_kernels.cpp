// The backward pass's kernels, every variant of the build ({ref, scalar, simd}), against float64
// on sizes that hit every tail: the Aᵀ·B matmul (gemm_tn) and the softmax backward row. The A·Bᵀ
// form is gemm with trans_b, held to float64 with every tail in test_kernels.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/kernels.h"
#include "check.h"
#include "reference.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_backward_kernels {

namespace {

// Below, equal to, a multiple of and above the tiles (4×8 SIMD, 2×4 scalar), the 4-wide row
// loops and the 64-row cache block.
const std::vector<int> kSizes = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 64, 65};
constexpr double kU = 1.0 / 16777216.0;  // unit roundoff of float, 2^-24

using GemmTnFn = void (*)(int, int, int, const float*, int, const float*, int, float*, int, float, bool);
struct GemmTnKernel {
  const char* name;
  GemmTnFn fn;
};
std::vector<GemmTnKernel> gemm_tn_kernels() {
  std::vector<GemmTnKernel> k = {{"ref::gemm_tn", attn::ref::gemm_tn}, {"scalar::gemm_tn", attn::scalar::gemm_tn},
                                 {"kern::gemm_tn", attn::kern::gemm_tn}};
#if ATTN_HAVE_SIMD128
  k.push_back({"simd::gemm_tn", attn::simd::gemm_tn});
#endif
  return k;
}

struct TnCase {
  int M, N, K;
  float alpha;
  bool accumulate;
  int pad;  // extra floats per row of A, B and C
};

// Each size in each of M, N and K (and M past two 64-row blocks), with and without strides.
std::vector<TnCase> tn_cases() {
  std::vector<TnCase> cases;
  const int n = static_cast<int>(kSizes.size());
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < n; ++i)
      cases.push_back({kSizes[i], kSizes[(i + 5 + 3 * round) % n], kSizes[(i + 9 + 2 * round) % n],
                       round == 0 ? 1.0f : -0.625f, (i + round) % 2 == 1, round == 1 ? 3 : 0});
  cases.push_back({130, 17, 70, 0.5f, true, 1});
  return cases;
}

constexpr float kSentinel = 4321.0f;

}  // namespace

TEST_CASE("gemm_tn (C = alpha·Aᵀ·B) matches float64 within the dot-product bound on every tail", "[backward][kernels]") {
  double worst = 0.0;
  for (const GemmTnKernel& kernel : gemm_tn_kernels()) {
    for (const TnCase& c : tn_cases()) {
      INFO(kernel.name << ": M=" << c.M << " N=" << c.N << " K=" << c.K << " alpha=" << c.alpha
                       << " accumulate=" << c.accumulate << " pad=" << c.pad);
      check::TestRng rng(17u + c.M * 131u + c.N * 7u + c.K);
      const int lda = c.M + c.pad, ldb = c.N + c.pad, ldc = c.N + c.pad;
      const std::vector<float> A = rng.vec(static_cast<std::size_t>(c.K) * lda, -1, 1);
      const std::vector<float> B = rng.vec(static_cast<std::size_t>(c.K) * ldb, -1, 1);
      std::vector<float> C(static_cast<std::size_t>(c.M) * ldc, kSentinel);
      for (int i = 0; i < c.M; ++i)
        for (int j = 0; j < c.N; ++j) C[static_cast<std::size_t>(i) * ldc + j] = c.accumulate ? rng.uniform(-1, 1) : 0.0f;
      const std::vector<float> C0 = C;
      kernel.fn(c.M, c.N, c.K, A.data(), lda, B.data(), ldb, C.data(), ldc, c.alpha, c.accumulate);
      // |fl(c) − c| ≤ (K + 3)·u·(|α|·Σ|a·b| + |c_old|): the float dot product, alpha and the add.
      double case_worst = 0.0;
      bool padding_intact = true;
      std::size_t at = 0;
      double got_at = 0, want_at = 0;
      for (int i = 0; i < c.M; ++i) {
        for (int j = 0; j < c.N; ++j) {
          double sum = 0.0, mag = 0.0;
          for (int k = 0; k < c.K; ++k) {
            const double p = static_cast<double>(A[static_cast<std::size_t>(k) * lda + i]) * B[static_cast<std::size_t>(k) * ldb + j];
            sum += p;
            mag += std::fabs(p);
          }
          const double old = c.accumulate ? C0[static_cast<std::size_t>(i) * ldc + j] : 0.0;
          const double want = c.alpha * sum + old;
          const double bound = (c.K + 4) * kU * (std::fabs(c.alpha) * mag + std::fabs(old)) + 1e-30;
          const double got = C[static_cast<std::size_t>(i) * ldc + j];
          const double r = std::fabs(got - want) / bound;
          if (!(r <= case_worst)) {
            case_worst = r;
            at = static_cast<std::size_t>(i) * c.N + j;
            got_at = got;
            want_at = want;
          }
        }
        for (int j = c.N; j < ldc; ++j) padding_intact &= C[static_cast<std::size_t>(i) * ldc + j] == kSentinel;
      }
      INFO("worst at element " << at << ": got " << got_at << ", want " << want_at << ", " << case_worst
                               << " of its (K+4)·u bound");
      CHECK(case_worst <= 1.0);
      CHECK(padding_intact);
      worst = std::max(worst, case_worst);
    }
  }
  WARN("gemm_tn vs float64, every variant and shape: worst element at " << worst << " of its (K+4)·u bound");
}

namespace {

using SoftmaxBackwardFn = void (*)(const float*, float*, int);
struct SoftmaxBackwardKernel {
  const char* name;
  SoftmaxBackwardFn fn;
};
std::vector<SoftmaxBackwardKernel> softmax_backward_kernels() {
  std::vector<SoftmaxBackwardKernel> k = {{"ref::softmax_backward_row", attn::ref::softmax_backward_row},
                                          {"kern::softmax_backward_row", attn::kern::softmax_backward_row}};
#if ATTN_HAVE_SIMD128
  k.push_back({"simd::softmax_backward_row", attn::simd::softmax_backward_row});
#endif
  return k;
}

// A softmax row of n weights: kind 0 spread, 1 nearly one-hot (the saturated rows of unscaled
// logits, where dS almost cancels), 2 with masked keys (exact zeros).
std::vector<float> weights_row(check::TestRng& rng, int n, int kind) {
  std::vector<float> logits = rng.vec(n, kind == 1 ? -40.0f : -3.0f, kind == 1 ? 40.0f : 3.0f);
  if (kind == 2)
    for (int j = 0; j < n; j += 3) logits[static_cast<std::size_t>(j)] = -INFINITY;
  if (kind == 2 && n % 3 == 1) logits.back() = 0.5f;  // keep at least one key visible
  std::vector<double> a(logits.begin(), logits.end());
  reference::softmax(a.data(), n);
  return std::vector<float>(a.begin(), a.end());
}

}  // namespace

TEST_CASE("softmax_backward_row matches float64 on every tail, saturated and masked rows", "[backward][kernels]") {
  // dS_j = a_j·(dA_j − Σ a·dA): the float products (u each), the rounding of the sum to float and
  // of the difference and the product: |err| ≤ 4u·a_j·(|dA_j| + Σ|a·dA|).
  std::vector<int> sizes = kSizes;
  sizes.insert(sizes.end(), {100, 1000, 4099});
  double worst = 0.0;
  for (const SoftmaxBackwardKernel& kernel : softmax_backward_kernels()) {
    for (int n : sizes) {
      for (int kind = 0; kind < 3; ++kind) {
        INFO(kernel.name << ": n=" << n << ", kind " << kind);
        check::TestRng rng(5u + n * 3u + kind);
        const std::vector<float> a = weights_row(rng, n, kind);
        const std::vector<float> da = rng.vec(n, -2.0f, 2.0f);
        std::vector<float> ds = da;
        kernel.fn(a.data(), ds.data(), n);
        double dot = 0.0, mag = 0.0;
        for (int j = 0; j < n; ++j) {
          dot += static_cast<double>(a[j]) * da[j];
          mag += std::fabs(static_cast<double>(a[j]) * da[j]);
        }
        check::Worst w;
        int masked_nonzero = 0;
        for (int j = 0; j < n; ++j) {
          const double want = a[j] * (da[j] - dot);
          const double bound = 4 * kU * a[j] * (std::fabs(da[j]) + mag) + 1e-37;
          const double r = std::fabs(ds[j] - want) / bound;
          if (!(r <= w.err)) w = {r, static_cast<std::size_t>(j), ds[j], want, 0.0, static_cast<std::size_t>(n)};
          masked_nonzero += a[j] == 0.0f && ds[j] != 0.0f;
        }
        INFO(w.describe() << " (as a fraction of the bound)");
        CHECK(w.err <= 1.0);
        CHECK(masked_nonzero == 0);  // a masked key gets no gradient
        worst = std::max(worst, w.err);
      }
    }
  }
  WARN("softmax_backward_row vs float64: worst element at " << worst << " of its bound");
}

}  // namespace test_backward_kernels
