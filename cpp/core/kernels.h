// Kernel contracts. Every kernel exists as a plain scalar reference (attn::ref, the
// specification and the test oracle) and, where the build has 128-bit SIMD, as a
// vectorised twin with the identical signature (attn::simd). attn::kern names the one
// this build dispatches to; the choice is made here once, never inside a loop.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "buffer.h"
#include "simd.h"

namespace attn {

/// B pre-arranged for a blocked matmul: column panels of K rows each, 8 floats wide for the
/// SIMD kernels and 4 for the scalar ones (columns past N are zero). Pack with the pack_b of the
/// namespace whose gemm_packed will read it. Weights are packed once and reused by every call.
struct PackedB {
  int K = 0, N = 0;
  FloatBuffer panels;  // [panels][K][panel width]
};

/// Entry check of every matmul kernel (ref, scalar, simd): sizes not negative and row strides
/// at least as long as the rows they step over. Throws attn::Error; the kernels index with these
/// numbers, so a bad one would read or write out of bounds instead.
void check_gemm_args(int M, int N, int K, int lda, int ldb, bool trans_b, int ldc);

namespace ref {
/// C (M×N, row stride ldc) = alpha · A (M×K, stride lda) · op(B) [+ bias (N)] [+ C if accumulate].
/// op(B) = B (K×N, stride ldb) when !trans_b, or Bᵀ with B stored N×K (stride ldb) when trans_b.
/// C must not overlap A or B. Sums run over k in order, in float.
void gemm(int M, int N, int K, const float* A, int lda, const float* B, int ldb, bool trans_b,
          float* C, int ldc, float alpha, const float* bias, bool accumulate);
/// In-place softmax of one row of n logits; −∞ entries are masked and become exactly 0.
/// A row with every entry −∞ becomes all zeros and the function returns false. A row holding a
/// NaN is not masked: it returns true and the NaN spreads to the row (callers check their output).
bool softmax_row(float* x, int n);
/// x[i] *= s for i < n.
void scale(float* x, int n, float s);
/// Sets x[j] = −∞ wherever masked[j] != 0, j < n.
void mask_row(float* x, const std::uint8_t* masked, int n);
/// x[j] = exp(x[j] − shift) in place; returns the sum of the new values (kept in double).
/// −∞ entries become 0. Requires shift ≥ every x[j] (a row max or a running max): the SIMD
/// exponential is made for arguments ≤ 0. The building block of softmax and of attention.
double exp_shift_row(float* x, int n, float shift);
/// The largest of x[0..n), or −∞ when n is 0 or every entry is −∞; NaN when any entry is NaN
/// (so a NaN is never mistaken for a fully masked row).
float row_max(const float* x, int n);
/// C (M×N, row stride ldc) = alpha · Aᵀ · B [+ C if accumulate], with A stored K×M (row stride
/// lda) and B K×N (stride ldb): the weight and key/value gradients (dW = Xᵀ·dY, dV = Aᵀ·dO).
/// C must not overlap A or B. Sums run over k in order, in float.
void gemm_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float alpha, bool accumulate);
/// The softmax backward of one row: da[j] ← a[j]·(da[j] − Σ_k a[k]·da[k]) for j < n, where a is
/// the softmax output and da = ∂L/∂a on entry, ∂L/∂logits on return. The sum is kept in double.
/// Entries with a[j] = 0 (masked keys) become exactly 0.
void softmax_backward_row(const float* a, float* da, int n);
}  // namespace ref

/// Register-blocked scalar matmul (same contract as ref::gemm), the baseline module's matmul.
namespace scalar {
void gemm(int M, int N, int K, const float* A, int lda, const float* B, int ldb, bool trans_b,
          float* C, int ldc, float alpha, const float* bias, bool accumulate);
void pack_b(int K, int N, const float* B, int ldb, bool trans_b, PackedB& out);
void gemm_packed(int M, const float* A, int lda, const PackedB& B, float* C, int ldc, float alpha,
                 const float* bias, bool accumulate);
void gemm_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float alpha, bool accumulate);
}  // namespace scalar

#if defined(ATTN_KERNEL_SET_AGNOSTIC)
// No kernel set is named in a file shared by both (simd.h).
#elif ATTN_HAVE_SIMD128
namespace simd {
void gemm(int M, int N, int K, const float* A, int lda, const float* B, int ldb, bool trans_b,
          float* C, int ldc, float alpha, const float* bias, bool accumulate);
bool softmax_row(float* x, int n);
void scale(float* x, int n, float s);
void mask_row(float* x, const std::uint8_t* masked, int n);
double exp_shift_row(float* x, int n, float shift);
float row_max(const float* x, int n);
/// Packs B (same meaning of ldb and trans_b as gemm) into panels.
void pack_b(int K, int N, const float* B, int ldb, bool trans_b, PackedB& out);
/// gemm with B already packed: C = alpha · A · B [+ bias] [+ C].
void gemm_packed(int M, const float* A, int lda, const PackedB& B, float* C, int ldc, float alpha,
                 const float* bias, bool accumulate);
/// C = alpha · Aᵀ · B [+ C] (A stored K×M), the contract of ref::gemm_tn.
void gemm_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
             float alpha, bool accumulate);
void softmax_backward_row(const float* a, float* da, int n);
}  // namespace simd
namespace kern = simd;
#else
/// Builds without SIMD: the blocked scalar matmul, the reference for everything else.
namespace kern {
using ref::exp_shift_row;
using ref::mask_row;
using ref::row_max;
using ref::scale;
using ref::softmax_row;
using ref::softmax_backward_row;
using scalar::gemm;
using scalar::gemm_packed;
using scalar::gemm_tn;
using scalar::pack_b;
}  // namespace kern
#endif

/// exp(x) in float for x ≤ 0 by the same polynomial the SIMD softmax uses (exposed for tests).
float exp_poly(float x);

}  // namespace attn
