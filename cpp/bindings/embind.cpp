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

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attn/matmul.h"
#include "attn/analysis.h"
#include "attn/attention.h"
#include "attn/backward.h"
#include "attn/embedding.h"
#include "attn/head_metrics.h"
#include "attn/head_patterns.h"
#include "attn/lesson.h"
#include "attn/mha.h"
#include "attn/simd.h"
#include "attn/trace.h"
#include "call.h"
#include "convert.h"
#include "heap_count.h"

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

// has_kv false: n_kv_heads not given (n_heads, multi-head attention); the core checks the value.
attn::MhaConfig config_of(int d_model, int n_heads, int d_k, int d_v, bool bias, bool has_kv = false, int n_kv_heads = 0) {
  attn::MhaConfig config;
  config.d_model = d_model;
  config.n_heads = n_heads;
  config.d_k = d_k;
  config.d_v = d_v;
  config.bias = bias;
  if (has_kv) config.n_kv_heads = n_kv_heads;
  return config;
}

// Words from an input of code points (see strings_from): `items` rows of `n` words each.
std::vector<std::vector<std::string>> word_rows(double address, int items, int n) {
  const Input<std::int32_t> in = current_call().input<std::int32_t>(address);
  const std::vector<std::string> flat = strings_from(in.data, in.count);
  if (flat.size() != static_cast<std::size_t>(items) * static_cast<std::size_t>(n))
    throw std::logic_error("internal error: " + std::to_string(flat.size()) + " words for " + std::to_string(items) +
                           " rows of " + std::to_string(n));
  std::vector<std::vector<std::string>> rows(items);
  for (int b = 0; b < items; ++b) rows[b].assign(flat.begin() + static_cast<std::ptrdiff_t>(b) * n, flat.begin() + static_cast<std::ptrdiff_t>(b + 1) * n);
  return rows;
}

// An input of n_heads floats (0 = none) as the head_mask of forward.
std::vector<float> head_mask_of(double address) {
  const Input<float> in = current_call().input<float>(address);
  return std::vector<float>(in.data, in.data + in.count);
}

// value: { layer: id, dims: { d_model, n_heads, n_kv_heads, d_k, d_v, bias } }
std::string mha_create(int d_model, int n_heads, int d_k, int d_v, bool bias, double seed, bool has_kv, int n_kv_heads) {
  return run([&](Json& value) {
    attn::MhaConfig config = config_of(d_model, n_heads, d_k, d_v, bias, has_kv, n_kv_heads);
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

// arrays wq, wk, wv, wo and, when the layer has biases, bq, bk, bv, bo.
std::string mha_get_weights(double id) {
  return run([&](Json&) {
    attn::MhaWeights w = layer(id).weights();
    Call& c = current_call();
    std::pair<const char*, std::vector<float>*> all[] = {{"wq", &w.wq}, {"wk", &w.wk}, {"wv", &w.wv}, {"wo", &w.wo},
                                                         {"bq", &w.bq}, {"bk", &w.bk}, {"bv", &w.bv}, {"bo", &w.bo}};
    for (auto& [name, values] : all) {
      if (values->empty()) continue;
      const std::size_t n = values->size();
      c.add_array(name, c.keep(std::move(*values)), n);
    }
  });
}

// query, key, value: inputs of floats; key = value = 0 for self-attention on query. The query
// input doubles as the output buffer (the core writes each block's output after projecting
// its queries), so the output costs no allocation and no copy inside the heap.
// value: { masked_rows, shapes }; arrays output and, with need_weights, weights.
// The layer input of a call: key = value = 0 for self-attention on the query input.
attn::MhaInput layer_input(double query, double key, double value, int batch, int n_q, int n_k) {
  const Call& c = current_call();
  const Input<float> q = c.input<float>(query), k = c.input<float>(key), v = c.input<float>(value);
  const bool self = key == 0;
  return {q.data, q.count, self ? q.data : k.data, self ? q.count : k.count,
          self ? q.data : v.data, self ? q.count : v.count, batch, n_q, n_k};
}

// The staged attention options with the layer's own: weights, budget, head_mask (an input, 0 = none).
attn::ForwardOptions forward_options(bool need_weights, double memory_budget, double head_mask) {
  attn::ForwardOptions opt;
  static_cast<attn::AttentionOptions&>(opt) = current_call().attention_options;
  opt.need_weights = need_weights;
  opt.memory_budget = static_cast<std::uint64_t>(memory_budget);
  opt.head_mask = head_mask_of(head_mask);
  return opt;
}

// head_mask: an input of n_heads floats (0 = none).
std::string mha_forward(double id, double query, double key, double value_input, int batch, int n_q, int n_k,
                        bool need_weights, double memory_budget, double head_mask) {
  return run([&](Json& value) {
    Call& c = current_call();
    const attn::MultiHeadAttention& mha = layer(id);
    const attn::ForwardOptions opt = forward_options(need_weights, memory_budget, head_mask);
    const attn::MhaInput in = layer_input(query, key, value_input, batch, n_q, n_k);
    float* const q_data = c.input<float>(query).data;
    mha.validate(in, opt);  // sizes, mask, budget and finiteness, before the weights are allocated
    const attn::MhaDims& d = mha.dims();
    const std::size_t weight_count = need_weights ? static_cast<std::size_t>(batch) * d.n_heads * n_q * n_k : 0;
    float* weights = need_weights ? c.new_floats(weight_count) : nullptr;
    const auto masked = mha.forward_validated(in, opt, q_data, weights);
    c.add_array("output", q_data, static_cast<std::size_t>(batch) * n_q * d.d_model);
    if (need_weights) c.add_array("weights", weights, weight_count);
    value.begin_object().key("masked_rows");
    write(value, masked);
    value.key("shapes");
    write(value, attn::tensor_trace(d, batch, n_q, n_k, need_weights, opt.scale));
    value.end_object();
  });
}

// heads: an input of int32 pairs (head, k); strengths: float64 (NaN: the pattern's default);
// names: the pattern names, query_words (batch × n_q; 0 when not given) and key_words
// (key_batch × n_k; 0 for self-attention): inputs of code points.
// value: { heads: [what each head with a pattern is now], patterns: [every head's pattern] }.
std::string mha_set_head_patterns(double id, double heads, double strengths, double names, double query_words,
                                  int batch, int n_q, double key_words, int key_batch, int n_k, double input_seed) {
  return run([&](Json& value) {
    Call& c = current_call();
    attn::MultiHeadAttention& mha = layer(id);
    const Input<std::int32_t> pairs = c.input<std::int32_t>(heads);
    const Input<double> beta = c.input<double>(strengths);
    const Input<std::int32_t> name_points = c.input<std::int32_t>(names);
    const std::vector<std::string> pattern_names = strings_from(name_points.data, name_points.count);
    if (pairs.count != 2 * pattern_names.size() || beta.count != pattern_names.size())
      throw std::logic_error("internal error: the head pattern inputs disagree in length");
    std::vector<attn::HeadSpec> specs;
    for (std::size_t i = 0; i < pattern_names.size(); ++i) {
      attn::HeadSpec spec;
      spec.head = pairs.data[2 * i];
      spec.k = pairs.data[2 * i + 1];
      spec.pattern = attn::parse_head_pattern(pattern_names[i]);
      if (beta.data[i] == beta.data[i]) spec.strength = beta.data[i];
      specs.push_back(spec);
    }
    attn::PatternInputs in;
    in.input_seed = static_cast<std::uint64_t>(input_seed);
    if (query_words != 0) in.query_words = word_rows(query_words, batch, n_q);
    if (key_words != 0) in.key_words = word_rows(key_words, key_batch, n_k);
    const std::vector<attn::HeadPatternInfo> info = mha.set_head_patterns(specs, in);
    value.begin_object().key("heads");
    write(value, info);
    value.key("patterns");
    write(value, mha.head_patterns());
    value.end_object();
  });
}

// value: [{ head, pattern, strength, k }] for every head.
std::string mha_head_patterns(double id) {
  return run([&](Json& value) { write(value, layer(id).head_patterns()); });
}

// As mha_forward, with the staged options; value: the comparison (see convert.h).
std::string mha_compare_heads(double id, double query, double key, double value_input, int batch, int n_q, int n_k,
                              double memory_budget, double head_mask) {
  return run([&](Json& value) {
    const attn::ForwardOptions opt = forward_options(true, memory_budget, head_mask);
    write(value, attn::compare_heads(layer(id), layer_input(query, key, value_input, batch, n_q, n_k), opt));
  });
}

// ---- the trace of one query (attn/trace.h) ---------------------------------------------

// Names `v` (moved into the call) as result array `name`.
void add_kept(Call& c, const char* name, std::vector<float>& v) {
  const std::size_t n = v.size();
  c.add_array(name, c.keep(std::move(v)), n);
}

// A traced row: arrays scores, logits, exp, weights, dropped (1.0 where dropout zeroed a weight)
// and the head's output as `output_name`; the fields max, sum, masked, logit_scale, keep_scale
// of `value`, an object the caller has opened.
void write_row_trace(Call& c, Json& value, attn::HeadRowTrace& t, const char* output_name) {
  std::vector<float> dropped(t.dropped.begin(), t.dropped.end());
  add_kept(c, "scores", t.scores);
  add_kept(c, "logits", t.logits);
  add_kept(c, "exp", t.exp);
  add_kept(c, "weights", t.weights);
  add_kept(c, "dropped", dropped);
  add_kept(c, output_name, t.output);
  value.field("max", t.max).field("sum", t.sum).field("masked", t.masked);
  value.field("logit_scale", t.logit_scale).field("keep_scale", t.keep_scale);
}

// query, key, value, head_mask: as for mha_forward. value: { kv_head } and write_row_trace's
// fields; arrays x, q, k, v, the row's (write_row_trace, head_output), concat and output.
std::string mha_trace(double id, double query, double key, double value_input, int batch, int n_q, int n_k,
                      double memory_budget, double head_mask, int item, int head, int query_index) {
  return run([&](Json& value) {
    Call& c = current_call();
    const attn::MhaInput in = layer_input(query, key, value_input, batch, n_q, n_k);
    attn::MhaTrace t = layer(id).trace(in, forward_options(false, memory_budget, head_mask), item, head, query_index);
    add_kept(c, "x", t.x);
    add_kept(c, "q", t.q);
    add_kept(c, "k", t.k);
    add_kept(c, "v", t.v);
    add_kept(c, "concat", t.concat);
    add_kept(c, "output", t.output);
    value.begin_object().field("kv_head", t.kv_head);
    write_row_trace(c, value, t.head, "head_output");
    value.end_object();
  });
}

// q, k, v: inputs of floats. value: see write_row_trace; arrays q, k, v and the row's (output).
std::string trace_attention(double q, double k, double v, int batch, int n_q, int n_k, int d_k, int d_v,
                            double memory_budget, int item, int query_index) {
  return run([&](Json& value) {
    Call& c = current_call();
    const Input<float> qi = c.input<float>(q), ki = c.input<float>(k), vi = c.input<float>(v);
    attn::AttentionTrace t = attn::trace_attention(qi.data, qi.count, ki.data, ki.count, vi.data, vi.count, batch, n_q,
                                                   n_k, d_k, d_v, c.attention_options, item, query_index,
                                                   static_cast<std::uint64_t>(memory_budget));
    add_kept(c, "q", t.q);
    add_kept(c, "k", t.k);
    add_kept(c, "v", t.v);
    value.begin_object();
    write_row_trace(c, value, t.row, "output");
    value.end_object();
  });
}

// ---- the backward pass (attn/backward.h) ----------------------------------------------

// Names each non-empty vector (moved into the call) as the result array of its name; an empty
// one (a bias of a layer without biases, weights not asked for) is left out.
void add_kept_arrays(std::initializer_list<std::pair<const char*, std::vector<float>*>> all) {
  for (const auto& [name, values] : all)
    if (!values->empty()) add_kept(current_call(), name, *values);
}

// As mha_forward, and grad_output: an input of floats [batch, n_q, d_model].
// value: { masked_rows }; arrays output, grads.wq … grads.bo (biases when the layer has them),
// grads.query, grads.key, grads.value and, with need_weights, weights and score_grads.
std::string mha_backward(double id, double query, double key, double value_input, double grad_output, int batch,
                         int n_q, int n_k, bool need_weights, double memory_budget, double head_mask) {
  return run([&](Json& value) {
    const attn::ForwardOptions opt = forward_options(need_weights, memory_budget, head_mask);
    const attn::MhaInput in = layer_input(query, key, value_input, batch, n_q, n_k);
    const Input<float> g = current_call().input<float>(grad_output);
    attn::MhaBackwardResult r = attn::multi_head_attention_backward(layer(id), in, g.data, g.count, opt);
    attn::MhaWeights& w = r.grads;
    add_kept_arrays({{"output", &r.output}, {"grads.wq", &w.wq}, {"grads.wk", &w.wk}, {"grads.wv", &w.wv},
                     {"grads.wo", &w.wo}, {"grads.bq", &w.bq}, {"grads.bk", &w.bk}, {"grads.bv", &w.bv},
                     {"grads.bo", &w.bo}, {"grads.query", &r.query}, {"grads.key", &r.key}, {"grads.value", &r.value},
                     {"weights", &r.weights}, {"score_grads", &r.score_grads}});
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
    add_kept_arrays({{"output", &r.output}, {"grads.q", &r.dq}, {"grads.k", &r.dk}, {"grads.v", &r.dv},
                     {"weights", &r.weights}, {"score_grads", &r.score_grads}});
    value.begin_object().key("masked_rows");
    write(value, r.masked_rows);
    value.end_object();
  });
}

// ---- functions of the module ------------------------------------------------------------

// weights: an input of floats [batch, n_heads, n_q, n_k]. value: the metrics (see convert.h).
std::string head_metrics(double weights, int batch, int n_heads, int n_q, int n_k) {
  return run([&](Json& value) {
    const Input<float> w = current_call().input<float>(weights);
    write(value, attn::head_metrics(w.data, w.count, batch, n_heads, n_q, n_k));
  });
}

// words: an input of code points, batch × n words. array tokens [batch, n, d_model].
std::string embed_tokens(double words, int batch, int n, int d_model, double seed) {
  return run([&](Json&) {
    std::vector<float> x = attn::embed_tokens(word_rows(words, batch, n), d_model, static_cast<std::uint64_t>(seed));
    const std::size_t size = x.size();
    current_call().add_array("tokens", current_call().keep(std::move(x)), size);
  });
}


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

// self_attention: the costs of self-attention (key and value are the query, n_q = n_k) or of
// cross-attention (separate key and value inputs), said by the caller, never guessed from sizes.
// has_kv: n_kv_heads was given (else n_heads); n_layers: layers of the key/value cache count.
std::string analyze(int d_model, int n_heads, int d_k, int d_v, bool bias, int batch, int n_q, int n_k,
                    bool need_weights, bool scale, bool has_kv, int n_kv_heads, int n_layers, bool self_attention) {
  return run([&](Json& value) {
    const attn::MhaDims d = attn::resolve_dims(config_of(d_model, n_heads, d_k, d_v, bias, has_kv, n_kv_heads));
    attn::require_countable(d, batch, n_q, n_k);
    if (self_attention && n_q != n_k)
      throw std::invalid_argument("self-attention needs n_k = n_q (got n_q " + std::to_string(n_q) + ", n_k " +
                                  std::to_string(n_k) + ")");
    value.begin_object().key("dims").begin_object();
    dims_fields(value, d);
    value.field("batch", batch).field("n_q", n_q).field("n_k", n_k).field("attention", self_attention ? "self" : "cross");
    value.end_object().key("params");
    write(value, attn::parameter_counts(d));
    // params follows n_kv_heads; params_mha is the same layer with n_heads key/value heads.
    value.field("params_mha", attn::parameter_count_gqa(d, d.n_heads));
    if (d.n_kv_heads != d.n_heads) value.field("params_gqa", attn::parameter_counts(d).total);
    value.key("kv_cache");
    write(value, attn::kv_cache_cost(d, batch, n_k, n_layers));
    value.key("flops");
    write(value, attn::flop_counts(d, batch, n_q, n_k, scale));
    value.key("shapes");
    write(value, attn::tensor_trace(d, batch, n_q, n_k, need_weights, scale));
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
    // The core's checks: sizes, the memory budget and the work limit, before anything is allocated.
    attn::validate_matmul(m, k, n);
    const std::uint64_t mk = static_cast<std::uint64_t>(m) * k, kn = static_cast<std::uint64_t>(k) * n,
                        mn = static_cast<std::uint64_t>(m) * n;
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
double heap_allocated() { return static_cast<double>(heap_bytes_live()); }
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
  function("mhaSetHeadPatterns", &bind::mha_set_head_patterns);
  function("mhaHeadPatterns", &bind::mha_head_patterns);
  function("mhaCompareHeads", &bind::mha_compare_heads);
  function("headMetrics", &bind::head_metrics);
  function("embedTokens", &bind::embed_tokens);
  function("mhaTrace", &bind::mha_trace);
  function("scaledDotProductAttention", &bind::scaled_dot_product_attention);
  function("scaledDotProductAttentionBackward", &bind::scaled_dot_product_attention_backward);
  function("traceAttention", &bind::trace_attention);
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
