// A linear map y = x·W + b in the lesson's convention: W is d_in×d_out, row-major.
// W is packed into matmul panels once, when it is set, and reused by every call.
#pragma once
#include <vector>

#include "kernels.h"

namespace attn {

class Linear {
 public:
  Linear() = default;
  Linear(int d_in, int d_out) : d_in_(d_in), d_out_(d_out) {}
  int d_in() const { return d_in_; }
  int d_out() const { return d_out_; }
  const std::vector<float>& weight() const { return weight_; }
  const std::vector<float>& bias() const { return bias_; }
  /// Sets W (d_in×d_out) and b (d_out, or empty for no bias); sizes are checked by the caller.
  void set(std::vector<float> weight, std::vector<float> bias);
  /// y (rows×d_out, stride ldy) = x (rows×d_in, stride ldx)·W + b. y must not overlap x.
  void apply(int rows, const float* x, int ldx, float* y, int ldy) const;

 private:
  int d_in_ = 0, d_out_ = 0;
  std::vector<float> weight_, bias_;
  PackedB packed_;
};

}  // namespace attn
