// The Embind surface of the core: thin functions that convert arguments, call attn::, and
// convert results. JavaScript-side checks (types, keys, integers) live in
// web/src/engine/attention.js; the core checks everything again and its messages reach JS.
#include <emscripten/bind.h>
#include <malloc.h>

#include <memory>

#include "attn/analysis.h"
#include "attn/attention.h"
#include "attn/lesson.h"
#include "attn/mha.h"
#include "attn/simd.h"
#include "backward.h"
#include "convert.h"

namespace bind {
namespace {

// The layer options object, already checked by the JS layer; seed is ignored by analyze.
attn::MhaConfig config_from(const val& c) {
  attn::MhaConfig config;
  config.d_model = c["d_model"].as<int>();
  config.n_heads = c["n_heads"].as<int>();
  config.d_k = c["d_k"].as<int>();
  config.d_v = c["d_v"].as<int>();
  config.bias = c["bias"].as<bool>();
  if (!c["seed"].isUndefined()) config.seed = to_u64(c["seed"]);
  return config;
}

// The resolved sizes of a layer: { d_model, n_heads, d_k, d_v, bias }.
val dims_to_js(const attn::MhaDims& d) {
  val o = val::object();
  o.set("d_model", d.d_model);
  o.set("n_heads", d.n_heads);
  o.set("d_k", d.d_k);
  o.set("d_v", d.d_v);
  o.set("bias", d.bias);
  return o;
}

// One multi-head attention layer owned by JavaScript (free it with delete()).
class Layer {
 public:
  explicit Layer(const attn::MhaConfig& config) : mha_(config) {}

  val dims() const { return dims_to_js(mha_.dims()); }

  void set_weights(val w) {
    guarded([&] {
      mha_.set_weights({to_floats(w["wq"]), to_floats(w["wk"]), to_floats(w["wv"]), to_floats(w["wo"]),
                        to_floats(w["bq"]), to_floats(w["bk"]), to_floats(w["bv"]), to_floats(w["bo"])});
      return 0;
    }, w);
  }

  val weights() const {
    const attn::MhaWeights w = mha_.weights();
    val o = val::object();
    const std::pair<const char*, const std::vector<float>*> all[] = {
        {"wq", &w.wq}, {"wk", &w.wk}, {"wv", &w.wv}, {"wo", &w.wo},
        {"bq", &w.bq}, {"bk", &w.bk}, {"bv", &w.bv}, {"bo", &w.bo}};
    for (const auto& [name, values] : all) o.set(name, values->empty() ? val::null() : to_js(values->data(), values->size()));
    return o;
  }

  // key and value null: self-attention on query. The query copy in the heap doubles as the
  // output buffer (the core writes each block's output after projecting its queries).
  // into_output, into_weights: the caller's arrays for the results, or null for new ones. The
  // inputs are copied into the heap first, so into_output may be the query array itself.
  // Gradients for grad_output [batch, n_q, d_model]; key and value null: self-attention on query.
  val backward(val query, val key, val value, val grad_output, int batch, int n_q, int n_k, val options) const {
    return guarded([&] {
      const std::vector<float> q = to_floats(query), k = to_floats(key), v = to_floats(value), g = to_floats(grad_output);
      const bool self = key.isNull();
      attn::ForwardOptions opt;
      read_attention_options(options, opt);
      opt.need_weights = options["need_weights"].as<bool>();
      opt.memory_budget = to_u64(options["memory_budget"]);
      const attn::MhaInput in{q.data(), q.size(), self ? q.data() : k.data(), self ? q.size() : k.size(),
                              self ? q.data() : v.data(), self ? q.size() : v.size(), batch, n_q, n_k};
      return mha_backward_to_js(attn::multi_head_attention_backward(mha_, in, g.data(), g.size(), opt));
    }, query, key, value, grad_output, options);
  }

  val forward(val query, val key, val value, int batch, int n_q, int n_k, val options, val into_output,
              val into_weights) const {
    return guarded([&] {
      std::vector<float> q = to_floats(query);
      std::vector<float> k = to_floats(key), v = to_floats(value);
      const bool self = key.isNull();
      attn::ForwardOptions opt;
      read_attention_options(options, opt);
      opt.need_weights = options["need_weights"].as<bool>();
      opt.memory_budget = to_u64(options["memory_budget"]);
      const attn::MhaInput in{q.data(), q.size(), self ? q.data() : k.data(), self ? q.size() : k.size(),
                              self ? q.data() : v.data(), self ? q.size() : v.size(), batch, n_q, n_k};
      mha_.validate(in, opt);
      // Left uninitialised: the core writes every weight, and zero-filling hundreds of MB costs a pass.
      const std::size_t weight_count = opt.need_weights ? static_cast<std::size_t>(batch) * mha_.dims().n_heads * n_q * n_k : 0;
      std::unique_ptr<float[]> weights(opt.need_weights ? new float[weight_count] : nullptr);
      const auto masked = mha_.forward_validated(in, opt, q.data(), weights.get());
      const std::size_t output_count = static_cast<std::size_t>(batch) * n_q * mha_.dims().d_model;
      val r = val::object();
      r.set("masked_rows", masked_rows_to_js(masked));
      r.set("shapes", trace_to_js(attn::tensor_trace(mha_.dims(), batch, n_q, n_k, opt.need_weights)));
      // Everything that can fail comes before the first write into a caller's array.
      set_results(r, q.data(), output_count, into_output, weights.get(), weight_count, into_weights);
      return r;
    }, query, key, value, options, into_output, into_weights);
  }

 private:
  attn::MultiHeadAttention mha_;
};

// The constructor JavaScript calls: a C++ error unwinds (freeing the half-built Layer) before
// it becomes a JS Error.
Layer* make_layer(val config) {
  return guarded([&] { return new Layer(config_from(config)); }, config);
}

// into_output, into_weights: as for Layer::forward.
val scaled_dot_product_attention(val q, val k, val v, int batch, int n_q, int n_k, int d_k, int d_v, val options,
                                 val into_output, val into_weights) {
  return guarded([&] {
    const std::vector<float> qv = to_floats(q), kv = to_floats(k), vv = to_floats(v);
    attn::AttentionOptions opt;
    read_attention_options(options, opt);
    const bool need_weights = options["need_weights"].as<bool>();
    const attn::AttentionResult r = attn::scaled_dot_product_attention(
        qv.data(), qv.size(), kv.data(), kv.size(), vv.data(), vv.size(), batch, n_q, n_k, d_k, d_v, opt,
        need_weights, to_u64(options["memory_budget"]));
    val o = val::object();
    o.set("masked_rows", masked_rows_to_js(r.masked_rows));
    // Everything that can fail comes before the first write into a caller's array.
    set_results(o, r.output.data(), r.output.size(), into_output, need_weights ? r.weights.data() : nullptr,
                r.weights.size(), into_weights);
    return o;
  }, q, k, v, options, into_output, into_weights);
}

val analyze(val config, int batch, int n_q, int n_k, bool need_weights, bool scale, int n_kv_heads) {
  return guarded([&] {
    const attn::MhaDims d = attn::resolve_dims(config_from(config));
    attn::require_countable(d, batch, n_q, n_k);
    val o = val::object();
    val dims = dims_to_js(d);
    dims.set("batch", batch);
    dims.set("n_q", n_q);
    dims.set("n_k", n_k);
    o.set("dims", dims);
    o.set("params", params_to_js(attn::parameter_counts(d)));
    if (n_kv_heads > 0 && n_kv_heads != d.n_heads)
      o.set("params_gqa", static_cast<double>(attn::parameter_count_gqa(d, n_kv_heads)));
    o.set("flops", flops_to_js(attn::flop_counts(d, batch, n_q, n_k, scale)));
    o.set("shapes", trace_to_js(attn::tensor_trace(d, batch, n_q, n_k, need_weights)));
    o.set("memory", memory_to_js(attn::run_memory(d, batch, n_q, n_k, need_weights, n_q == n_k)));
    o.set("attention_weight_bytes", static_cast<double>(attn::attention_weight_bytes(d.n_heads, batch, n_q, n_k)));
    return o;
  }, config);
}

val positional_encoding(int n, int d_model) {
  return guarded([&] {
    const std::vector<float> pe = attn::positional_encoding(n, d_model);
    return to_js(pe.data(), pe.size());
  });
}

val positional_properties(int n, int d_model, int offset_k) {
  return guarded([&] {
    const attn::PositionalProperties p = attn::positional_properties(n, d_model, offset_k);
    val o = val::object();
    o.set("max_abs", p.max_abs);
    o.set("min_distance", p.min_distance);
    o.set("closest", val::array(std::vector<int>{p.closest_a, p.closest_b}));
    o.set("rotation_max_error", p.rotation_max_error);
    o.set("offset_k", p.offset_k);
    return o;
  });
}

val sqrt_dk_stats(int d_k, int n_k, int samples, double seed) {
  return guarded([&] {
    return sqrt_dk_to_js(attn::sqrt_dk_stats(d_k, n_k, samples, static_cast<std::uint64_t>(seed)));
  });
}

val matmul(val a, val b, int m, int k, int n) {
  return guarded([&] {
    attn::require_positive("m", m);
    attn::require_positive("k", k);
    attn::require_positive("n", n);
    // Sizes in 64 bits: m·n can exceed a 32-bit size_t, and must fit the budget before anything is allocated.
    const std::uint64_t mk = static_cast<std::uint64_t>(m) * k, kn = static_cast<std::uint64_t>(k) * n,
                        mn = static_cast<std::uint64_t>(m) * n;
    attn::require_within_budget("this matmul", 4 * (mk + kn + mn), attn::kDefaultMemoryBudget);
    const std::vector<float> av = to_floats(a), bv = to_floats(b);
    attn::require_length("a", av.size(), mk, "m×k");
    attn::require_length("b", bv.size(), kn, "k×n");
    std::vector<float> c(mn);
    attn::kern::gemm(m, n, k, av.data(), k, bv.data(), n, false, c.data(), n, 1.0f, nullptr, false);
    return to_js(c.data(), c.size());
  }, a, b);
}

val lesson_examples() { return guarded([] { return lesson_to_js(attn::lesson_examples()); }); }
val model_presets() { return presets_to_js(attn::model_presets()); }
std::string kernel_isa() { return attn::kernel_isa(); }
double heap_allocated() { return static_cast<double>(mallinfo().uordblks); }
double default_memory_budget() { return static_cast<double>(attn::kDefaultMemoryBudget); }

}  // namespace
}  // namespace bind

EMSCRIPTEN_BINDINGS(attention) {
  using namespace emscripten;
  class_<bind::Layer>("MhaLayer")
      .constructor(&bind::make_layer, allow_raw_pointers())
      .function("dims", &bind::Layer::dims)
      .function("setWeights", &bind::Layer::set_weights)
      .function("getWeights", &bind::Layer::weights)
      .function("forward", &bind::Layer::forward)
      .function("backward", &bind::Layer::backward);
  function("scaledDotProductAttention", &bind::scaled_dot_product_attention);
  function("analyze", &bind::analyze);
  function("positionalEncoding", &bind::positional_encoding);
  function("positionalProperties", &bind::positional_properties);
  function("sqrtDkStats", &bind::sqrt_dk_stats);
  function("matmul", &bind::matmul);
  function("lessonExamples", &bind::lesson_examples);
  function("modelPresets", &bind::model_presets);
  function("kernelIsa", &bind::kernel_isa);
  function("heapAllocated", &bind::heap_allocated);
  function("defaultMemoryBudget", &bind::default_memory_budget);
}
