// Linear map with weights packed once for the build's matmul kernel.
#include "linear.h"

#include <utility>

namespace attn {

void Linear::set(std::vector<float> weight, std::vector<float> bias) {
  weight_ = std::move(weight);
  bias_ = std::move(bias);
  kern::pack_b(d_in_, d_out_, weight_.data(), d_out_, false, packed_);
}

void Linear::apply(int rows, const float* x, int ldx, float* y, int ldy) const {
  const float* b = bias_.empty() ? nullptr : bias_.data();
  kern::gemm_packed(rows, x, ldx, packed_, y, ldy, 1.0f, b, false);
}

}  // namespace attn
