// The scalar reference kernels: plain loops that state exactly what each kernel computes.
// They are the fallback of the baseline wasm module and the oracle of the SIMD tests.
#include <cmath>
#include <limits>

#include "kernels.h"

#include <string>

#include "error.h"

namespace attn {

void check_gemm_args(int M, int N, int K, int lda, int ldb, bool trans_b, int ldc) {
  if (M < 0 || N < 0 || K < 0)
    throw Error("matmul: sizes must not be negative (got M " + std::to_string(M) + ", N " + std::to_string(N) +
                ", K " + std::to_string(K) + ")");
  const int b_row = trans_b ? K : N;
  if (lda < K || ldb < b_row || ldc < N)
    throw Error("matmul: a row stride is shorter than its row (lda " + std::to_string(lda) + " for K " +
                std::to_string(K) + ", ldb " + std::to_string(ldb) + " for " + std::to_string(b_row) + ", ldc " +
                std::to_string(ldc) + " for N " + std::to_string(N) + ")");
}

namespace ref {

void gemm(int M, int N, int K, const float* A, int lda, const float* B, int ldb, bool trans_b,
          float* C, int ldc, float alpha, const float* bias, bool accumulate) {
  check_gemm_args(M, N, K, lda, ldb, trans_b, ldc);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < K; ++k) {
        float b = trans_b ? B[static_cast<std::size_t>(j) * ldb + k] : B[static_cast<std::size_t>(k) * ldb + j];
        sum += A[static_cast<std::size_t>(i) * lda + k] * b;
      }
      float value = alpha * sum;
      if (bias) value += bias[j];
      float& c = C[static_cast<std::size_t>(i) * ldc + j];
      c = accumulate ? c + value : value;
    }
  }
}

bool softmax_row(float* x, int n) {
  const float max = row_max(x, n);
  if (max == -std::numeric_limits<float>::infinity()) {
    for (int j = 0; j < n; ++j) x[j] = 0.0f;
    return false;
  }
  double sum = exp_shift_row(x, n, max);
  float inv = static_cast<float>(1.0 / sum);
  for (int j = 0; j < n; ++j) x[j] *= inv;
  return true;
}

double exp_shift_row(float* x, int n, float shift) {
  // The sum is kept in double so that long rows (n in the tens of thousands) stay accurate.
  // x − shift is formed in double: in float it would be rounded, and half an ulp of a
  // difference near −64 is 3.8e-6, which exp turns into that much relative error.
  double sum = 0.0;
  for (int j = 0; j < n; ++j) {
    x[j] = static_cast<float>(std::exp(static_cast<double>(x[j]) - static_cast<double>(shift)));
    sum += x[j];
  }
  return sum;
}

float row_max(const float* x, int n) {
  float max = -std::numeric_limits<float>::infinity();
  // The max skips NaN (no comparison with NaN is true), so NaNs are flagged on the side: a NaN
  // logit must never leave the −∞ of a fully masked row behind. Two branch-free reductions the
  // compiler vectorises; a NaN-keeping select in the loop was not, and cost the scalar build 5%.
  int nan = 0;
  for (int j = 0; j < n; ++j) {
    max = x[j] > max ? x[j] : max;
    nan |= x[j] != x[j];
  }
  return nan ? std::numeric_limits<float>::quiet_NaN() : max;
}

void scale(float* x, int n, float s) {
  for (int j = 0; j < n; ++j) x[j] *= s;
}

void mask_row(float* x, const std::uint8_t* masked, int n) {
  for (int j = 0; j < n; ++j)
    if (masked[j]) x[j] = -std::numeric_limits<float>::infinity();
}

void gemm_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float alpha, bool accumulate) {
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < K; ++k)
        sum += A[static_cast<std::size_t>(k) * lda + i] * B[static_cast<std::size_t>(k) * ldb + j];
      float& c = C[static_cast<std::size_t>(i) * ldc + j];
      c = accumulate ? c + alpha * sum : alpha * sum;
    }
  }
}

void softmax_backward_row(const float* a, float* da, int n) {
  double dot = 0.0;
  for (int j = 0; j < n; ++j) dot += a[j] * da[j];
  const float s = static_cast<float>(dot);
  for (int j = 0; j < n; ++j) da[j] = a[j] * (da[j] - s);
}

}  // namespace ref
}  // namespace attn
