// 128-bit SIMD kernels written once against the wasm_* intrinsics (real wasm SIMD under
// emcc -msimd128, SIMDe on the host). Same contracts as kernels_ref.cpp; the tests hold
// each one to the scalar reference and to a double-precision one.
#include "count.h"
#include "gemm_driver.h"
#include "kernels.h"

#if ATTN_HAVE_SIMD128
#include <algorithm>
#include <cstring>
#include <limits>

namespace attn {
namespace simd {
namespace {

constexpr int kMR = 4;   // rows of C per micro-tile
constexpr int kNR = 8;   // columns of C per micro-tile (two f32x4)
constexpr int kMC = 64;  // rows of A kept hot in cache while one B panel is swept over them

// The bias of a tile's 8 columns as two vectors (zeros past `cols`, or no bias at all).
struct TileBias {
  v128_t lo, hi;
};
inline TileBias tile_bias(const float* bias, int cols) {
  if (cols == kNR) return {wasm_v128_load(bias), wasm_v128_load(bias + 4)};
  float padded[kNR] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int j = 0; j < cols; ++j) padded[j] = bias[j];
  return {wasm_v128_load(padded), wasm_v128_load(padded + 4)};
}

// Stores one row (8 columns, two vectors) of an accumulator tile into c, applying alpha, the
// bias and accumulate. Edge tiles (cols < 8) go through a small buffer. The accumulators are
// passed by value: an array passed by reference made clang keep the tile in stack memory and
// zero it with a memset call on every tile, which the profile showed in the K = 64 logits.
inline void store_row(v128_t v0, v128_t v1, float* c, int cols, v128_t alpha, const TileBias* bias, bool accumulate) {
  v0 = wasm_f32x4_mul(v0, alpha);
  v1 = wasm_f32x4_mul(v1, alpha);
  if (bias) {
    v0 = wasm_f32x4_add(v0, bias->lo);
    v1 = wasm_f32x4_add(v1, bias->hi);
  }
  if (cols == kNR) {
    if (accumulate) {
      v0 = wasm_f32x4_add(wasm_v128_load(c), v0);
      v1 = wasm_f32x4_add(wasm_v128_load(c + 4), v1);
    }
    wasm_v128_store(c, v0);
    wasm_v128_store(c + 4, v1);
  } else {
    float tile[kNR];
    wasm_v128_store(tile, v0);
    wasm_v128_store(tile + 4, v1);
    for (int j = 0; j < cols; ++j) c[j] = accumulate ? c[j] + tile[j] : tile[j];
  }
}

// The register tile: 4 rows of A (packed, 4 values per k) times one packed 8-column panel of
// B; 8 accumulators, 11 live vectors in all (V8 starts spilling past ~12). Kept out of line so
// V8 tiers it up as a hot function that is called many times.
__attribute__((noinline)) void micro_4x8(int K, const float* ap, const float* bp, float* C, int ldc,
                                         int rows, int cols, float alpha, const float* bias,
                                         bool accumulate) {
  const v128_t zero = wasm_f32x4_splat(0.0f);
  v128_t c00 = zero, c01 = zero, c10 = zero, c11 = zero, c20 = zero, c21 = zero, c30 = zero, c31 = zero;
  for (int k = 0; k < K; ++k) {
    const v128_t b0 = wasm_v128_load(bp);
    const v128_t b1 = wasm_v128_load(bp + 4);
    bp += kNR;
    v128_t a = wasm_v128_load32_splat(ap);
    c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(a, b0));
    c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(a, b1));
    a = wasm_v128_load32_splat(ap + 1);
    c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(a, b0));
    c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(a, b1));
    a = wasm_v128_load32_splat(ap + 2);
    c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(a, b0));
    c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(a, b1));
    a = wasm_v128_load32_splat(ap + 3);
    c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(a, b0));
    c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(a, b1));
    ap += kMR;
  }
  const v128_t va = wasm_f32x4_splat(alpha);
  TileBias tb{};
  if (bias) tb = tile_bias(bias, cols);
  const TileBias* b = bias ? &tb : nullptr;
  store_row(c00, c01, C, cols, va, b, accumulate);
  if (rows > 1) store_row(c10, c11, C + ldc, cols, va, b, accumulate);
  if (rows > 2) store_row(c20, c21, C + 2 * static_cast<std::size_t>(ldc), cols, va, b, accumulate);
  if (rows > 3) store_row(c30, c31, C + 3 * static_cast<std::size_t>(ldc), cols, va, b, accumulate);
}

// Transposes a 4×4 block: rows r0..r3 at offset k become 4 vectors (one per k) of the rows'
// values, stored at dst, dst + stride, dst + 2·stride, dst + 3·stride.
inline void transpose4(const float* r0, const float* r1, const float* r2, const float* r3, float* dst,
                       int stride) {
  const v128_t x0 = wasm_v128_load(r0), x1 = wasm_v128_load(r1);
  const v128_t x2 = wasm_v128_load(r2), x3 = wasm_v128_load(r3);
  const v128_t t0 = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(x2, x3, 0, 4, 1, 5);
  const v128_t t2 = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(x2, x3, 2, 6, 3, 7);
  wasm_v128_store(dst, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
  wasm_v128_store(dst + stride, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
  wasm_v128_store(dst + 2 * stride, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
  wasm_v128_store(dst + 3 * stride, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
}

// Rows [0, rows) of A as groups of 4 rows interleaved by k ([group][k][4]), so the micro-kernel
// reads A sequentially. Without it the 4 rows sit lda apart, and when lda is a multiple of
// 1024 floats they all fall in the same L1 cache sets (1024³ ran at half speed). Rows past the
// end repeat the last row; their results are never stored.
void pack_a(int rows, int K, const float* A, int lda, float* out) {
  for (int g = 0; g < rows; g += kMR) {
    const float* r0 = A + static_cast<std::size_t>(g) * lda;
    const float* r1 = g + 1 < rows ? r0 + lda : r0;
    const float* r2 = g + 2 < rows ? r1 + lda : r1;
    const float* r3 = g + 3 < rows ? r2 + lda : r2;
    float* dst = out + static_cast<std::size_t>(g) * K;
    int k = 0;
    for (; k + 4 <= K; k += 4, dst += 16) transpose4(r0 + k, r1 + k, r2 + k, r3 + k, dst, 4);
    for (; k < K; ++k, dst += 4) {  // leftovers
      dst[0] = r0[k];
      dst[1] = r1[k];
      dst[2] = r2[k];
      dst[3] = r3[k];
    }
  }
}

// exp(x + x_lo) for four lanes with x ≤ 0 (softmax only exponentiates x − max), where x_lo is
// a small correction (the rounding error of the subtraction that formed x, or 0):
// x = n·ln2 + r with |r| ≤ ln2/2 and e^r from a degree-6 polynomial interpolating e^r at the
// 7 Chebyshev nodes of that interval (relative error 2e-8 with the coefficients rounded to
// float, under the rounding of the evaluation itself), 2^n built in the exponent bits. Inputs
// below ln(2^-126) give 0 (the result would be subnormal), which is what a masked −∞ needs.
inline v128_t exp_f32x4(v128_t x, v128_t x_lo) {
  const v128_t lowest = wasm_f32x4_splat(-87.33654475f);
  const v128_t underflow = wasm_f32x4_lt(x, lowest);
  // pmax is a single instruction in V8; max carries NaN and −0 fix-ups we do not need. No upper
  // clamp: x ≤ 0 here, so 2^n never overflows.
  x = wasm_f32x4_pmax(x, lowest);
  // Round x·log2(e) to an integer n by adding 1.5·2^23 + 127: the sum's low mantissa bits then
  // hold n + 127, which shifted left by 23 is the float 2^n (no float-to-int conversion, which
  // V8 expands into a long sequence).
  const v128_t magic = wasm_f32x4_splat(12583039.0f);
  const v128_t t = wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504088896341f)), magic);
  const v128_t n = wasm_f32x4_sub(t, magic);
  // ln2 split in two so that n·ln2_hi is exact and r keeps its low bits.
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(-2.12194440e-4f)));
  r = wasm_f32x4_add(r, x_lo);
  v128_t p = wasm_f32x4_splat(1.394110848e-3f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(8.375125937e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(4.166635126e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.666641533e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  const v128_t pow2n = wasm_i32x4_shl(t, 23);
  const v128_t y = wasm_f32x4_mul(p, pow2n);
  return wasm_v128_andnot(y, underflow);
}

// exp(a − b) with the subtraction's rounding error kept (Knuth's TwoSum, exact in round-to-
// nearest): in float, half an ulp of a difference near −64 is 3.8e-6, which exp would turn into
// that much relative error in small softmax weights. Where a − b is −∞ the error term is NaN,
// but that lane is below the underflow threshold and is cleared to 0 anyway.
inline v128_t exp_diff_f32x4(v128_t a, v128_t b) {
  const v128_t s = wasm_f32x4_sub(a, b);
  const v128_t b_virtual = wasm_f32x4_sub(s, a);  // ≈ −b
  const v128_t a_virtual = wasm_f32x4_sub(s, b_virtual);
  const v128_t err = wasm_f32x4_sub(wasm_f32x4_sub(a, a_virtual), wasm_f32x4_add(b, b_virtual));
  return exp_f32x4(s, err);
}

// One lane of exp_f32x4, so the leftovers of a row get exactly the same function.
inline float exp_f32x4_scalar(float x) {
  return wasm_f32x4_extract_lane(exp_f32x4(wasm_f32x4_splat(x), wasm_f32x4_splat(0.0f)), 0);
}
inline float exp_diff_f32x4_scalar(float a, float b) {
  return wasm_f32x4_extract_lane(exp_diff_f32x4(wasm_f32x4_splat(a), wasm_f32x4_splat(b)), 0);
}

// Aᵀ for gemm_tn: row i of Aᵀ is column i of A (K×M, stride lda), so a group of 4 rows at one
// k is 4 neighbouring floats of A's row k: one load, no transpose. Row by row of A, so each is
// read once in order: group by group instead walked down the columns, K rows apart, and with
// lda a power of two (n_k = 512 in the backward pass) those rows fell into a few L1 cache sets
// and missed on every load. Rows past the end repeat the last one, as in pack_a.
void pack_a_t(int rows, int K, const float* A, int lda, float* out) {
  const int full = rows / kMR * kMR;
  for (int k = 0; k < K; ++k) {
    const float* row = A + static_cast<std::size_t>(k) * lda;
    for (int g = 0; g < full; g += kMR) wasm_v128_store(out + static_cast<std::size_t>(g) * K + 4 * k, wasm_v128_load(row + g));
    if (full < rows) {  // leftovers: fewer than 4 columns remain
      float* dst = out + static_cast<std::size_t>(full) * K + 4 * k;
      for (int r = 0; r < kMR; ++r) dst[r] = row[std::min(full + r, rows - 1)];
    }
  }
}

thread_local Scratch<PackedB> g_scratch;        // B packing buffer reused across calls
thread_local Scratch<FloatBuffer> g_a_block;  // A packing buffer (kMC rows), reused likewise

}  // namespace

void pack_b(int K, int N, const float* B, int ldb, bool trans_b, PackedB& out) {
  check_gemm_args(0, N, K, K, ldb, trans_b, N);
  const int panels = N / kNR + (N % kNR != 0);  // not (N + kNR − 1) / kNR, which overflows near INT_MAX
  out.K = K;
  out.N = N;
  out.panels.resize((Count(panels) * K * kNR).size());
  for (int p = 0; p < panels; ++p) {
    const int j0 = p * kNR, cols = std::min(kNR, N - j0);
    float* dst = out.panels.data() + static_cast<std::size_t>(p) * K * kNR;
    if (cols < kNR) std::fill_n(dst, static_cast<std::size_t>(K) * kNR, 0.0f);  // zero padding past N
    if (!trans_b) {
      for (int k = 0; k < K; ++k) {
        const float* src = B + static_cast<std::size_t>(k) * ldb + j0;
        if (cols == kNR) {
          wasm_v128_store(dst + static_cast<std::size_t>(k) * kNR, wasm_v128_load(src));
          wasm_v128_store(dst + static_cast<std::size_t>(k) * kNR + 4, wasm_v128_load(src + 4));
        } else {
          for (int c = 0; c < cols; ++c) dst[static_cast<std::size_t>(k) * kNR + c] = src[c];
        }
      }
    } else {
      // Bᵀ: the panel's 8 rows of B become its columns, 4×4 blocks at a time.
      const float* row = B + static_cast<std::size_t>(j0) * ldb;
      int k = 0;
      if (cols == kNR) {
        for (; k + 4 <= K; k += 4) {
          transpose4(row + k, row + ldb + k, row + 2 * ldb + k, row + 3 * ldb + k, dst + static_cast<std::size_t>(k) * kNR, kNR);
          transpose4(row + 4 * ldb + k, row + 5 * ldb + k, row + 6 * ldb + k, row + 7 * ldb + k, dst + static_cast<std::size_t>(k) * kNR + 4, kNR);
        }
      }
      for (int c = 0; c < cols; ++c)  // leftovers: the last k, or a panel narrower than 8
        for (int kk = k; kk < K; ++kk) dst[static_cast<std::size_t>(kk) * kNR + c] = row[static_cast<std::size_t>(c) * ldb + kk];
    }
  }
}

void gemm_packed(int M, const float* A, int lda, const PackedB& B, float* C, int ldc, float alpha,
                 const float* bias, bool accumulate) {
  check_gemm_args(M, B.N, B.K, lda, B.N, false, ldc);
  blocked_gemm<kMR, kNR, kMC>(M, A, lda, B, C, ldc, alpha, bias, accumulate, g_a_block,
                              [](auto... a) { pack_a(a...); }, [](auto... a) { micro_4x8(a...); });
}

void gemm(int M, int N, int K, const float* A, int lda, const float* B, int ldb, bool trans_b,
          float* C, int ldc, float alpha, const float* bias, bool accumulate) {
  check_gemm_args(M, N, K, lda, ldb, trans_b, ldc);
  pack_b(K, N, B, ldb, trans_b, g_scratch);
  gemm_packed(M, A, lda, g_scratch, C, ldc, alpha, bias, accumulate);
}

void gemm_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc, float alpha,
             bool accumulate) {
  pack_b(K, N, B, ldb, false, g_scratch);
  // The driver steps from one row of Aᵀ to the next by its lda: one float here (the next column
  // of A); the pack reads A's real row stride from the capture.
  blocked_gemm<kMR, kNR, kMC>(M, A, 1, g_scratch, C, ldc, alpha, nullptr, accumulate, g_a_block,
                              [lda](int rows, int k, const float* a, int, float* out) { pack_a_t(rows, k, a, lda, out); },
                              [](auto... a) { micro_4x8(a...); });
}

void softmax_backward_row(const float* a, float* da, int n) {
  // Σ a·da: products in f32x4 (as the reference forms them), their sum in two f64x2 lanes.
  v128_t sum_lo = wasm_f64x2_splat(0.0), sum_hi = wasm_f64x2_splat(0.0);
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    const v128_t e = wasm_f32x4_mul(wasm_v128_load(a + j), wasm_v128_load(da + j));
    sum_lo = wasm_f64x2_add(sum_lo, wasm_f64x2_promote_low_f32x4(e));
    sum_hi = wasm_f64x2_add(sum_hi, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(e, e, 2, 3, 0, 1)));
  }
  double dot = wasm_f64x2_extract_lane(sum_lo, 0) + wasm_f64x2_extract_lane(sum_lo, 1) +
               wasm_f64x2_extract_lane(sum_hi, 0) + wasm_f64x2_extract_lane(sum_hi, 1);
  for (int t = j; t < n; ++t) dot += a[t] * da[t];  // leftovers
  const float s = static_cast<float>(dot);
  const v128_t vs = wasm_f32x4_splat(s);
  j = 0;
  for (; j + 4 <= n; j += 4)
    wasm_v128_store(da + j, wasm_f32x4_mul(wasm_v128_load(a + j), wasm_f32x4_sub(wasm_v128_load(da + j), vs)));
  for (; j < n; ++j) da[j] = a[j] * (da[j] - s);  // leftovers
}

float row_max(const float* x, int n) {
  v128_t vmax = wasm_f32x4_splat(-std::numeric_limits<float>::infinity());
  // pmax (one instruction in V8) skips a NaN operand, so NaNs are flagged on the side (x ≠ x):
  // the row's max is then NaN, never the −∞ of a fully masked row.
  v128_t nan = wasm_i32x4_splat(0);
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    const v128_t v = wasm_v128_load(x + j);
    vmax = wasm_f32x4_pmax(vmax, v);
    nan = wasm_v128_or(nan, wasm_f32x4_ne(v, v));
  }
  float max = std::max(std::max(wasm_f32x4_extract_lane(vmax, 0), wasm_f32x4_extract_lane(vmax, 1)),
                       std::max(wasm_f32x4_extract_lane(vmax, 2), wasm_f32x4_extract_lane(vmax, 3)));
  bool tail_nan = false;
  for (; j < n; ++j) {  // leftovers
    max = x[j] > max ? x[j] : max;
    tail_nan |= x[j] != x[j];
  }
  return wasm_v128_any_true(nan) || tail_nan ? std::numeric_limits<float>::quiet_NaN() : max;
}

bool softmax_row(float* x, int n) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  const float max = row_max(x, n);
  if (max == neg_inf) {
    std::memset(x, 0, sizeof(float) * n);
    return false;
  }
  const double sum = exp_shift_row(x, n, max);
  scale(x, n, static_cast<float>(1.0 / sum));
  return true;
}

double exp_shift_row(float* x, int n, float shift) {
  // Exponentials in f32x4, their sum in two f64x2 lanes so long rows stay accurate.
  const v128_t vm = wasm_f32x4_splat(shift);
  v128_t sum_lo = wasm_f64x2_splat(0.0), sum_hi = wasm_f64x2_splat(0.0);
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    const v128_t e = exp_diff_f32x4(wasm_v128_load(x + j), vm);
    wasm_v128_store(x + j, e);
    sum_lo = wasm_f64x2_add(sum_lo, wasm_f64x2_promote_low_f32x4(e));
    sum_hi = wasm_f64x2_add(sum_hi, wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(e, e, 2, 3, 0, 1)));
  }
  double sum = wasm_f64x2_extract_lane(sum_lo, 0) + wasm_f64x2_extract_lane(sum_lo, 1) +
               wasm_f64x2_extract_lane(sum_hi, 0) + wasm_f64x2_extract_lane(sum_hi, 1);
  for (; j < n; ++j) {  // leftovers
    x[j] = exp_diff_f32x4_scalar(x[j], shift);
    sum += x[j];
  }
  return sum;
}

void scale(float* x, int n, float s) {
  const v128_t vs = wasm_f32x4_splat(s);
  int j = 0;
  for (; j + 4 <= n; j += 4) wasm_v128_store(x + j, wasm_f32x4_mul(wasm_v128_load(x + j), vs));
  for (; j < n; ++j) x[j] *= s;  // leftovers
}

void mask_row(float* x, const std::uint8_t* masked, int n) {
  const v128_t neg_inf = wasm_f32x4_splat(-std::numeric_limits<float>::infinity());
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    std::uint32_t bytes;
    std::memcpy(&bytes, masked + j, 4);
    const v128_t m = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_i32x4_splat(static_cast<std::int32_t>(bytes))));
    const v128_t is_masked = wasm_i32x4_ne(m, wasm_i32x4_splat(0));
    wasm_v128_store(x + j, wasm_v128_bitselect(neg_inf, wasm_v128_load(x + j), is_masked));
  }
  for (; j < n; ++j)  // leftovers
    if (masked[j]) x[j] = -std::numeric_limits<float>::infinity();
}

}  // namespace simd

float exp_poly(float x) { return simd::exp_f32x4_scalar(x); }

}  // namespace attn

#else
#include <cmath>
namespace attn {
float exp_poly(float x) { return std::exp(x); }
}  // namespace attn
#endif
