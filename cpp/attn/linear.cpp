// Linear map with weights packed once for the SIMD matmul.
#include "linear.h"

#include <utility>

namespace attn {

void Linear::set(std::vector<float> weight, std::vector<float> bias) {
  weight_ = std::move(weight);
  bias_ = std::move(bias);
#if ATTN_HAVE_SIMD128
  simd::pack_b(d_in_, d_out_, weight_.data(), d_out_, false, packed_);
#endif
}

void Linear::apply(int rows, const float* x, int ldx, float* y, int ldy) const {
  const float* b = bias_.empty() ? nullptr : bias_.data();
#if ATTN_HAVE_SIMD128
  simd::gemm_packed(rows, x, ldx, packed_, y, ldy, 1.0f, b, false);
#else
  kern::gemm(rows, d_out_, d_in_, x, ldx, weight_.data(), d_out_, false, y, ldy, 1.0f, b, false);
#endif
}

}  // namespace attn
