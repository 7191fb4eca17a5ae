// Adam (Kingma & Ba): per-parameter step sizes from running averages of the gradient and of its
// square, with the bias correction of the first steps. One AdamMoments per parameter tensor.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

namespace attn {

struct AdamSettings {
  double lr = 0.01;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
};

/// The running first and second moments of one tensor, zero before the first step.
struct AdamMoments {
  std::vector<float> m, v;
};

/// One Adam update of `param` by `grad`; `step` counts from 1 (the bias correction needs it).
inline void adam_update(std::vector<float>& param, const std::vector<float>& grad, AdamMoments& moments,
                        const AdamSettings& s, long step) {
  if (moments.m.size() != param.size()) {
    moments.m.assign(param.size(), 0.0f);
    moments.v.assign(param.size(), 0.0f);
  }
  // The bias corrections folded into one step size (the paper's efficient form).
  const double lr_t = s.lr * std::sqrt(1.0 - std::pow(s.beta2, step)) / (1.0 - std::pow(s.beta1, step));
  // 1 − β in double, then rounded once: 1 − float(0.999) would be off by 1.3e-5 relative.
  const float b1 = static_cast<float>(s.beta1), b2 = static_cast<float>(s.beta2);
  const float c1 = static_cast<float>(1.0 - s.beta1), c2 = static_cast<float>(1.0 - s.beta2);
  const float eps_t = static_cast<float>(s.eps * std::sqrt(1.0 - std::pow(s.beta2, step)));
  for (std::size_t i = 0; i < param.size(); ++i) {
    const float g = grad[i];
    moments.m[i] = b1 * moments.m[i] + c1 * g;
    moments.v[i] = b2 * moments.v[i] + c2 * g * g;
    param[i] -= static_cast<float>(lr_t) * moments.m[i] / (std::sqrt(moments.v[i]) + eps_t);
  }
}

}  // namespace attn
