// The Embind surface of the core: thin functions that call attn:: on plain values and hand
// the results back. The JavaScript API around them is web/src/engine/attention.js.
//
// THE BINDING PATTERN (every binding, including new ones, must follow it)
//
// Why: a JavaScript exception (a throwing getter, valueOf or Proxy trap, an overridden
// method, a result array that cannot be allocated) that unwinds through C++ frames skips
// their destructors and leaves the wasm stack pointer moved: every such call leaked its
// vectors, and enough of them broke the module for good. So no C++ frame may ever be live
// while JavaScript code runs, and no C++ error may be thrown into JavaScript.
//
// 1. Arguments are plain numbers only: int, double, bool (the JS side checks their range
//    first: Embind truncates silently). Never emscripten::val, never std::string or
//    std::vector from JavaScript. Arrays come as the address of an input of
//    the call (a double; 0 = none), which the JS wrapper allocated with callInput() and
//    filled before calling; read it with current_call().input<float>(address) (the length
//    comes with it). Options shared by several bindings are staged first (see
//    stageAttentionOptions) into the call slot.
// 2. The body runs inside run([&](Json& value) { ... }), which returns the std::string
//    envelope {"value": ..., "arrays": {name: [address, length]}} or {"error": message}:
//    a C++ exception becomes text, and the JS wrapper throws it after C++ has returned.
// 3. Results: structured ones are written as JSON into `value` (see convert.h); float arrays
//    stay in buffers owned by the call (current_call().new_floats / keep, or an input the
//    core wrote over) and are named with add_array(). The JS wrapper copies them into new
//    arrays or the caller's `into` arrays after this function has returned, then closes the
//    call (callClose, in a finally), which frees every buffer of it.
// 4. Functions that cannot fail and return a number or a string of their own (kernelIsa,
//    heapAllocated) may skip run().
//
// On the JS side (web/src/engine/native.js), a new method of the API:
//   const o = check.options('name', args, KEYS);      // each option read once, into a copy
//   ... check every value of o (checks.js; typed arrays with check.float32(..., native.heap()))
//                                                      // throws here, before anything exists
//   return native.call((c) => {                        // frees everything in a finally
//     const x = c.input('x', o.x);                     // a checked typed array → an address
//     const r = c.run('bindingName', x, n, ...);       // plain numbers; throws the engine's error
//     return { ...r.value, ...c.arrays(r, { result: o.into ?? null }) };  // copies out
//   });
// and here: std::string binding_name(double x, int n) { return run([&](Json& value) { ... }); }
// registered below with function("bindingName", ...).
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attn/analysis.h"
#include "attn/attention.h"
#include "attn/backward.h"
#include "attn/lesson.h"
#include "attn/mha.h"
#include "attn/simd.h"
#include "call.h"
#include "convert.h"

namespace bind {
namespace {

// ---- the call slot, driven by the JS wrapper -------------------------------------------

bool call_open() { return current_call().open(); }
void call_close() { current_call().close(); }
double call_input(double bytes) {
  if (!(bytes >= 0) || bytes > 4294967295.0) return 0;
  return static_cast<double>(current_call().add_input(static_cast<std::size_t>(bytes)));
}

// Mask and options shared by every attention binding. padding: an input of int32 key lengths
// (0 = none); matrix: an input of n_q×n_k bytes, 1 = masked (0 = none). The core checks them
// against the sizes when the attention binding runs.
std::string stage_attention_options(bool causal, double padding, double matrix, bool scale, double dropout,
                                    bool training, double seed) {
  return run([&](Json&) {
    Call& c = current_call();
    attn::AttentionOptions& o = c.attention_options;
    o.mask.causal = causal;
    const Input<std::int32_t> lengths = c.input<std::int32_t>(padding);
    o.mask.key_lengths.assign(lengths.data, lengths.data + lengths.count);
    const Input<std::uint8_t> m = c.input<std::uint8_t>(matrix);
    o.mask.matrix.assign(m.data, m.data + m.count);
    o.scale = scale;
    o.dropout = static_cast<float>(dropout);
    o.training = training;
    o.seed = static_cast<std::uint64_t>(seed);
  });
}

// ---- multi-head attention layers, owned by JavaScript through an id ----------------------

// Ids rather than addresses: a stale or forged id is an error message, never a dangling pointer.
std::unordered_map<std::uint32_t, std::unique_ptr<attn::MultiHeadAttention>>& layers() {
  static std::unordered_map<std::uint32_t, std::unique_ptr<attn::MultiHeadAttention>> all;
  return all;
}

attn::MultiHeadAttention& layer(double id) {
  const auto it = id >= 1 && id <= 4294967295.0 ? layers().find(static_cast<std::uint32_t>(id)) : layers().end();
  if (it == layers().end()) throw std::invalid_argument("this MultiHeadAttention was deleted");
  return *it->second;
}

attn::MhaConfig config_of(int d_model, int n_heads, int d_k, int d_v, bool bias) {
  attn::MhaConfig config;
  config.d_model = d_model;
  config.n_heads = n_heads;
  config.d_k = d_k;
  config.d_v = d_v;
  config.bias = bias;
  return config;
}

// value: { layer: id, dims: { d_model, n_heads, d_k, d_v, bias } }
std::string mha_create(int d_model, int n_heads, int d_k, int d_v, bool bias, double seed) {
  return run([&](Json& value) {
    attn::MhaConfig config = config_of(d_model, n_heads, d_k, d_v, bias);
    config.seed = static_cast<std::uint64_t>(seed);
    auto made = std::make_unique<attn::MultiHeadAttention>(config);
    static std::uint32_t next_id = 1;
    const std::uint32_t id = next_id++;
    value.begin_object().field("layer", id).key("dims").begin_object();
    dims_fields(value, made->dims());
    value.end_object().end_object();
    layers().emplace(id, std::move(made));  // last: nothing after it can fail and orphan the layer
  });
}

void mha_delete(double id) {
  if (id >= 1 && id <= 4294967295.0) layers().erase(static_cast<std::uint32_t>(id));
}

// Each argument: an input of floats (0 = none, for the biases of a layer without them).
std::string mha_set_weights(double id, double wq, double wk, double wv, double wo, double bq, double bk, double bv,
                            double bo) {
  return run([&](Json&) {
    const Call& c = current_call();
    auto vec = [&](double address) {
      const Input<float> in = c.input<float>(address);
      return std::vector<float>(in.data, in.data + in.count);
    };
    layer(id).set_weights({vec(wq), vec(wk), vec(wv), vec(wo), vec(bq), vec(bk), vec(bv), vec(bo)});
  });
}

// Hands each non-empty vector to the call as the result array of its name (kept, not copied);
// an empty one (a bias of a layer without biases, weights not asked for) is left out.
void keep_arrays(std::initializer_list<std::pair<const char*, std::vector<float>*>> all) {
  Call& c = current_call();
  for (const auto& [name, values] : all) {
    if (values->empty()) continue;
    const std::size_t n = values->size();
    c.add_array(name, c.keep(std::move(*values)), n);
  }
}

// arrays wq, wk, wv, wo and, when the layer has biases, bq, bk, bv, bo.
std::string mha_get_weights(double id) {
  return run([&](Json&) {
    attn::MhaWeights w = layer(id).weights();
    keep_arrays({{"wq", &w.wq}, {"wk", &w.wk}, {"wv", &w.wv}, {"wo", &w.wo},
                 {"bq", &w.bq}, {"bk", &w.bk}, {"bv", &w.bv}, {"bo", &w.bo}});
  });
}

// query, key, value: inputs of floats; key = value = 0 for self-attention on query. The query
// input doubles as the output buffer (the core writes each block's output after projecting
// its queries), so the output costs no allocation and no copy inside the heap.
// value: { masked_rows, shapes }; arrays output and, with need_weights, weights.
// What a layer's forward and backward bindings read alike: the query, key and value inputs
// (key = 0: self-attention on the query) and the staged options with need_weights and budget.
struct LayerCall {
  float* query;  // the query's input buffer, which the forward pass overwrites with its output
  attn::MhaInput in;
  attn::ForwardOptions opt;
};
LayerCall layer_call(double query, double key, double value_input, int batch, int n_q, int n_k, bool need_weights,
                     double memory_budget) {
  Call& c = current_call();
  const Input<float> q = c.input<float>(query), k = c.input<float>(key), v = c.input<float>(value_input);
  const bool self = key == 0;
  LayerCall call{q.data, {q.data, q.count, self ? q.data : k.data, self ? q.count : k.count, self ? q.data : v.data,
                          self ? q.count : v.count, batch, n_q, n_k}, {}};
  static_cast<attn::AttentionOptions&>(call.opt) = c.attention_options;
  call.opt.need_weights = need_weights;
  call.opt.memory_budget = static_cast<std::uint64_t>(memory_budget);
  return call;
}

std::string mha_forward(double id, double query, double key, double value_input, int batch, int n_q, int n_k,
                        bool need_weights, double memory_budget) {
  return run([&](Json& value) {
    Call& c = current_call();
    const attn::MultiHeadAttention& mha = layer(id);
    const auto [q_buffer, in, opt] = layer_call(query, key, value_input, batch, n_q, n_k, need_weights, memory_budget);
    mha.validate(in, opt);  // sizes, mask, budget and finiteness, before the weights are allocated
    const attn::MhaDims& d = mha.dims();
    const std::size_t weight_count = need_weights ? static_cast<std::size_t>(batch) * d.n_heads * n_q * n_k : 0;
    float* weights = need_weights ? c.new_floats(weight_count) : nullptr;
    const auto masked = mha.forward_validated(in, opt, q_buffer, weights);
    c.add_array("output", q_buffer, static_cast<std::size_t>(batch) * n_q * d.d_model);
    if (need_weights) c.add_array("weights", weights, weight_count);
    value.begin_object().key("masked_rows");
    write(value, masked);
    value.key("shapes");
    write(value, attn::tensor_trace(d, batch, n_q, n_k, need_weights));
    value.end_object();
  });
}

// query, key, value, grad_output: inputs of floats; key = value = 0 for self-attention on query.
// value: { masked_rows }; arrays output, grads.wq … grads.bo (biases when the layer has them),
// grads.query, grads.key, grads.value and, with need_weights, weights and score_grads.
std::string mha_backward(double id, double query, double key, double value_input, double grad_output, int batch,
                         int n_q, int n_k, bool need_weights, double memory_budget) {
  return run([&](Json& value) {
    const auto [q_buffer, in, opt] = layer_call(query, key, value_input, batch, n_q, n_k, need_weights, memory_budget);
    const Input<float> g = current_call().input<float>(grad_output);
    attn::MhaBackwardResult r = attn::multi_head_attention_backward(layer(id), in, g.data, g.count, opt);
    attn::MhaWeights& w = r.grads;
    keep_arrays({{"output", &r.output}, {"grads.wq", &w.wq}, {"grads.wk", &w.wk}, {"grads.wv", &w.wv},
                 {"grads.wo", &w.wo}, {"grads.bq", &w.bq}, {"grads.bk", &w.bk}, {"grads.bv", &w.bv},
                 {"grads.bo", &w.bo}, {"grads.query", &r.query}, {"grads.key", &r.key}, {"grads.value", &r.value},
                 {"weights", &r.weights}, {"score_grads", &r.score_grads}});
    value.begin_object().key("masked_rows");
    write(value, r.masked_rows);
    value.end_object();
  });
}

// ---- functions of the module ------------------------------------------------------------

// q, k, v: inputs of floats. value: { masked_rows }; arrays output and, with need_weights, weights.
std::string scaled_dot_product_attention(double q, double k, double v, int batch, int n_q, int n_k, int d_k, int d_v,
                                         bool need_weights, double memory_budget) {
  return run([&](Json& value) {
    Call& c = current_call();
    const Input<float> qi = c.input<float>(q), ki = c.input<float>(k), vi = c.input<float>(v);
    attn::AttentionResult r = attn::scaled_dot_product_attention(
        qi.data, qi.count, ki.data, ki.count, vi.data, vi.count, batch, n_q, n_k, d_k, d_v, c.attention_options,
        need_weights, static_cast<std::uint64_t>(memory_budget));
    const std::size_t n_output = r.output.size(), n_weights = r.weights.size();
    c.add_array("output", c.keep(std::move(r.output)), n_output);
    if (need_weights) c.add_array("weights", c.keep(std::move(r.weights)), n_weights);
    value.begin_object().key("masked_rows");
    write(value, r.masked_rows);
    value.end_object();
  });
}

// q, k, v, grad_output: inputs of floats. value: { masked_rows }; arrays output, grads.q,
// grads.k, grads.v and, with need_weights, weights and score_grads.
std::string scaled_dot_product_attention_backward(double q, double k, double v, double grad_output, int batch,
                                                  int n_q, int n_k, int d_k, int d_v, bool need_weights,
                                                  double memory_budget) {
  return run([&](Json& value) {
    Call& c = current_call();
    const Input<float> qi = c.input<float>(q), ki = c.input<float>(k), vi = c.input<float>(v);
    const Input<float> g = c.input<float>(grad_output);
    attn::SdpaBackwardResult r = attn::scaled_dot_product_attention_backward(
        qi.data, qi.count, ki.data, ki.count, vi.data, vi.count, g.data, g.count, batch, n_q, n_k, d_k, d_v,
        c.attention_options, need_weights, static_cast<std::uint64_t>(memory_budget));
    keep_arrays({{"output", &r.output}, {"grads.q", &r.dq}, {"grads.k", &r.dk}, {"grads.v", &r.dv},
                 {"weights", &r.weights}, {"score_grads", &r.score_grads}});
    value.begin_object().key("masked_rows");
    write(value, r.masked_rows);
    value.end_object();
  });
}

// self_attention: the costs of self-attention (key and value are the query, n_q = n_k) or of
// cross-attention (separate key and value inputs), said by the caller, never guessed from sizes.
std::string analyze(int d_model, int n_heads, int d_k, int d_v, bool bias, int batch, int n_q, int n_k,
                    bool need_weights, bool scale, int n_kv_heads, bool self_attention) {
  return run([&](Json& value) {
    const attn::MhaDims d = attn::resolve_dims(config_of(d_model, n_heads, d_k, d_v, bias));
    attn::require_countable(d, batch, n_q, n_k);
    if (self_attention && n_q != n_k)
      throw std::invalid_argument("self-attention needs n_k = n_q (got n_q " + std::to_string(n_q) + ", n_k " +
                                  std::to_string(n_k) + ")");
    value.begin_object().key("dims").begin_object();
    dims_fields(value, d);
    value.field("batch", batch).field("n_q", n_q).field("n_k", n_k).field("attention", self_attention ? "self" : "cross");
    value.end_object().key("params");
    write(value, attn::parameter_counts(d));
    if (n_kv_heads > 0 && n_kv_heads != d.n_heads) value.field("params_gqa", attn::parameter_count_gqa(d, n_kv_heads));
    value.key("flops");
    write(value, attn::flop_counts(d, batch, n_q, n_k, scale));
    value.key("shapes");
    write(value, attn::tensor_trace(d, batch, n_q, n_k, need_weights));
    value.key("memory");
    write(value, attn::run_memory(d, batch, n_q, n_k, need_weights, self_attention));
    value.field("attention_weight_bytes", attn::attention_weight_bytes(d.n_heads, batch, n_q, n_k));
    value.end_object();
  });
}

// array encoding [n, d_model].
std::string positional_encoding(int n, int d_model) {
  return run([&](Json&) {
    std::vector<float> pe = attn::positional_encoding(n, d_model);
    const std::size_t size = pe.size();
    current_call().add_array("encoding", current_call().keep(std::move(pe)), size);
  });
}

std::string positional_properties(int n, int d_model, int offset_k) {
  return run([&](Json& value) { write(value, attn::positional_properties(n, d_model, offset_k)); });
}

std::string sqrt_dk_stats(int d_k, int n_k, int samples, double seed) {
  return run([&](Json& value) { write(value, attn::sqrt_dk_stats(d_k, n_k, samples, static_cast<std::uint64_t>(seed))); });
}

// a, b: inputs of floats. array c [m, n].
std::string matmul(double a, double b, int m, int k, int n) {
  return run([&](Json&) {
    attn::require_positive("m", m);
    attn::require_positive("k", k);
    attn::require_positive("n", n);
    // Sizes in 64 bits: m·n can exceed a 32-bit size_t, and must fit the budget before anything is allocated.
    const std::uint64_t mk = static_cast<std::uint64_t>(m) * k, kn = static_cast<std::uint64_t>(k) * n,
                        mn = static_cast<std::uint64_t>(m) * n;
    attn::require_within_budget("this matmul", 4 * (mk + kn + mn), attn::kDefaultMemoryBudget);
    Call& c = current_call();
    const Input<float> av = c.input<float>(a), bv = c.input<float>(b);
    attn::require_length("a", av.count, mk, "m×k");
    attn::require_length("b", bv.count, kn, "k×n");
    float* out = c.new_floats(mn);
    attn::kern::gemm(m, n, k, av.data, k, bv.data, n, false, out, n, 1.0f, nullptr, false);
    c.add_array("c", out, mn);
  });
}

std::string lesson_examples() {
  return run([](Json& value) { write(value, attn::lesson_examples()); });
}
std::string model_presets() {
  return run([](Json& value) { write(value, attn::model_presets()); });
}
std::string kernel_isa() { return attn::kernel_isa(); }
double heap_allocated() { return static_cast<double>(mallinfo().uordblks); }
double default_memory_budget() { return static_cast<double>(attn::kDefaultMemoryBudget); }

}  // namespace
}  // namespace bind

EMSCRIPTEN_BINDINGS(attention) {
  using namespace emscripten;
  function("callOpen", &bind::call_open);
  function("callClose", &bind::call_close);
  function("callInput", &bind::call_input);
  function("stageAttentionOptions", &bind::stage_attention_options);
  function("mhaCreate", &bind::mha_create);
  function("mhaDelete", &bind::mha_delete);
  function("mhaSetWeights", &bind::mha_set_weights);
  function("mhaGetWeights", &bind::mha_get_weights);
  function("mhaForward", &bind::mha_forward);
  function("mhaBackward", &bind::mha_backward);
  function("scaledDotProductAttention", &bind::scaled_dot_product_attention);
  function("scaledDotProductAttentionBackward", &bind::scaled_dot_product_attention_backward);
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
