// Embind surface of the backward pass: the SDPA backward function and the conversion of both
// results (the layer's backward method lives with the layer in embind.cpp).
#include "backward.h"

#include <emscripten/bind.h>

#include <vector>

#include "convert.h"

namespace bind {
namespace {

// A result array, or null when it was not computed (an empty bias or weights).
val array_or_null(const std::vector<float>& x) { return x.empty() ? val::null() : to_js(x.data(), x.size()); }

// The parts both results share: output, attention weights, score gradients, masked rows.
val common_to_js(const std::vector<float>& output, const std::vector<float>& weights,
                 const std::vector<float>& score_grads, const std::vector<attn::MaskedRow>& masked_rows, val grads) {
  val o = val::object();
  o.set("output", to_js(output.data(), output.size()));
  o.set("grads", grads);
  o.set("weights", array_or_null(weights));
  o.set("score_grads", array_or_null(score_grads));
  o.set("masked_rows", masked_rows_to_js(masked_rows));
  return o;
}

// q, k, v, grad_output: Float32Arrays checked by the JS layer; options as for the forward call.
val sdpa_backward(val q, val k, val v, val grad_output, int batch, int n_q, int n_k, int d_k, int d_v, val options) {
  return guarded([&] {
    const std::vector<float> qv = to_floats(q), kv = to_floats(k), vv = to_floats(v), g = to_floats(grad_output);
    attn::AttentionOptions opt;
    read_attention_options(options, opt);
    const attn::SdpaBackwardResult r = attn::scaled_dot_product_attention_backward(
        qv.data(), qv.size(), kv.data(), kv.size(), vv.data(), vv.size(), g.data(), g.size(), batch, n_q, n_k, d_k,
        d_v, opt, options["need_weights"].as<bool>(), to_u64(options["memory_budget"]));
    val grads = val::object();
    grads.set("q", to_js(r.dq.data(), r.dq.size()));
    grads.set("k", to_js(r.dk.data(), r.dk.size()));
    grads.set("v", to_js(r.dv.data(), r.dv.size()));
    return common_to_js(r.output, r.weights, r.score_grads, r.masked_rows, grads);
  }, q, k, v, grad_output, options);
}

}  // namespace

val mha_backward_to_js(const attn::MhaBackwardResult& r) {
  val grads = val::object();
  const std::pair<const char*, const std::vector<float>*> all[] = {
      {"wq", &r.grads.wq}, {"wk", &r.grads.wk}, {"wv", &r.grads.wv}, {"wo", &r.grads.wo},
      {"bq", &r.grads.bq}, {"bk", &r.grads.bk}, {"bv", &r.grads.bv}, {"bo", &r.grads.bo},
      {"query", &r.query}, {"key", &r.key}, {"value", &r.value}};
  for (const auto& [name, values] : all) grads.set(name, array_or_null(*values));
  return common_to_js(r.output, r.weights, r.score_grads, r.masked_rows, grads);
}

}  // namespace bind

EMSCRIPTEN_BINDINGS(attention_backward) {
  emscripten::function("scaledDotProductAttentionBackward", &bind::sdpa_backward);
}
