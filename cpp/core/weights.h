// The weights of a multi-head attention layer, as plain arrays: what set_weights takes, what
// weights() returns and what the constructed heads build.
#pragma once
#include <vector>

namespace attn {

/// All weights in the lesson's convention y = x·W + b, W is d_in×d_out row-major:
/// wq: d_model×(h·d_k); wk: d_model×(n_kv_heads·d_k); wv: d_model×(n_kv_heads·d_v);
/// wo: (h·d_v)×d_model (n_kv_heads = h unless grouped-query). Biases empty when bias is off.
struct MhaWeights {
  std::vector<float> wq, wk, wv, wo, bq, bk, bv, bo;
};

}  // namespace attn
