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
// 1. A binding with more than a few arguments takes one record: the address of an input of
//    the call holding its options, name by name (record.h, record.js), read with Record, which
//    names an unknown, missing or mistyped field. Other arguments are plain numbers only:
//    int, double, bool (the JS side checks their range first: Embind truncates silently).
//    Never emscripten::val, never std::string or std::vector from JavaScript. Arrays come as
//    the address of an input of the call (a double; 0 = none), which the JS wrapper
//    allocated with callInput() and filled before calling; read it with
//    current_call().input<float>(address) (the length comes with it). Options shared by
//    several bindings are staged first (see stageAttentionOptions) into the call slot.
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
//     const r = c.run('bindingName', c.input('options', record({ x, n, ... })));  // record.js
//                                                      // throws the engine's error
//     return { ...r.value, ...c.arrays(r, { result: o.into ?? null }) };  // copies out
//   });
// and here: std::string binding_name(double options) { return run([&](Json& value) {
//   Record o("bindingName", options); const double x = o.address("x"); const int n = o.integer("n");
//   o.done(); ... }); }
// registered below with function("bindingName", ...).
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/matmul.h"
#include "core/analysis.h"
#include "core/attention.h"
#include "core/backward.h"
#include "core/embedding.h"
#include "core/error.h"
#include "core/head_metrics.h"
#include "core/head_patterns.h"
#include "core/model_presets.h"
#include "core/mha.h"
#include "core/simd.h"
#include "core/trace.h"
#include "call.h"
#include "convert.h"
#include "layers.h"
#include "record.h"

namespace bind {
namespace {

// The layer table is layers.cpp's (shared with the labs module).
attn::MultiHeadAttention& layer(double id) { return layer_by_id(id); }
attn::MhaConfig config_of(Record& r) { return layer_config(r); }

// Mask and options shared by every attention binding. padding: an input of int32 key lengths
// (0 = none); matrix: an input of n_q×n_k bytes, 1 = masked (0 = none). The core checks them
// against the sizes when the attention binding runs.
std::string stage_attention_options(double options) {
  return run([&](Json&) {
    Record r("stageAttentionOptions", options);
    const bool causal = r.boolean("causal"), scale = r.boolean("scale"), training = r.boolean("training");
    const double padding = r.address("padding"), matrix = r.address("matrix"), dropout = r.number("dropout");
    const std::uint64_t seed = r.seed("seed");
    // Sparse masks and positional methods: absent = off (0), for callers that stage none of them.
    const int window = static_cast<int>(r.optional_number("window").value_or(0));
    const int stride = static_cast<int>(r.optional_number("stride").value_or(0));
    const int positional = static_cast<int>(r.optional_number("positional").value_or(0));
    const std::optional<double> rope_base = r.optional_number("rope_base");  // absent: not given
    const int head_offset = static_cast<int>(r.optional_number("head_offset").value_or(0));
    const int layer_heads = static_cast<int>(r.optional_number("layer_heads").value_or(0));
    r.done();
    Call& c = current_call();
    attn::AttentionOptions& o = c.attention_options;
    o.mask.causal = causal;
    o.mask.window = window;
    o.mask.stride = stride;
    if (positional < 0 || positional > 2) throw std::invalid_argument("internal error: positional is 0, 1 or 2");
    o.positional = static_cast<attn::Positional>(positional);
    o.rope_base = rope_base;
    o.head_offset = head_offset;
    o.layer_heads = layer_heads;
    const Input<std::int32_t> lengths = c.input<std::int32_t>(padding);
    o.mask.key_lengths.assign(lengths.data, lengths.data + lengths.count);
    const Input<std::uint8_t> m = c.input<std::uint8_t>(matrix);
    o.mask.matrix.assign(m.data, m.data + m.count);
    o.scale = scale;
    o.dropout = static_cast<float>(dropout);
    o.training = training;
    o.seed = seed;
  });
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

// query, key, value: inputs of floats; key = value = 0 for self-attention on query. The query
// input doubles as the output buffer (the core writes each block's output after projecting
// its queries), so the output costs no allocation and no copy inside the heap.
// value: { masked_rows, shapes }; arrays output and, with need_weights, weights.
// The layer input of a call: key = value = 0 for self-attention on the query input.
// Record fields query, key, value (addresses), batch, n_q, n_k.
attn::MhaInput layer_input(Record& r) {
  const Call& c = current_call();
  const double key = r.address("key");
  const Input<float> q = c.input<float>(r.address("query")), k = c.input<float>(key), v = c.input<float>(r.address("value"));
  const bool self = key == 0;
  attn::MhaInput in;
  in.query = q.data;
  in.query_len = q.count;
  in.key = self ? q.data : k.data;
  in.key_len = self ? q.count : k.count;
  in.value = self ? q.data : v.data;
  in.value_len = self ? q.count : v.count;
  in.batch = r.integer("batch");
  in.n_q = r.integer("n_q");
  in.n_k = r.integer("n_k");
  return in;
}

// The staged attention options with the layer's own: need_weights (false when the binding has
// none), memory_budget, head_mask (an input, 0 = none).
attn::ForwardOptions forward_options(Record& r, bool has_need_weights = true) {
  attn::ForwardOptions opt;
  static_cast<attn::AttentionOptions&>(opt) = current_call().attention_options;
  opt.need_weights = has_need_weights && r.boolean("need_weights");
  opt.memory_budget = static_cast<std::uint64_t>(r.number("memory_budget"));
  opt.head_mask = head_mask_of(r.address("head_mask"));
  return opt;
}

// head_mask: an input of n_heads floats (0 = none).
std::string mha_forward(double options) {
  return run([&](Json& value) {
    Call& c = current_call();
    Record r("mhaForward", options);
    const attn::MultiHeadAttention& mha = layer(r.number("layer"));
    const attn::ForwardOptions opt = forward_options(r);
    const attn::MhaInput in = layer_input(r);
    float* const q_data = c.input<float>(r.address("query")).data;
    r.done();
    const bool need_weights = opt.need_weights;
    const int batch = in.batch, n_q = in.n_q, n_k = in.n_k;
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
std::string mha_set_head_patterns(double options) {
  return run([&](Json& value) {
    Call& c = current_call();
    Record r("mhaSetHeadPatterns", options);
    attn::MultiHeadAttention& mha = layer(r.number("layer"));
    const double heads = r.address("heads"), strengths = r.address("strengths"), names = r.address("names");
    const double query_words = r.address("query_words"), key_words = r.address("key_words");
    const int batch = r.integer("batch"), n_q = r.integer("n_q"), key_batch = r.integer("key_batch"), n_k = r.integer("n_k");
    const std::uint64_t input_seed = r.seed("input_seed");
    r.done();
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
    in.input_seed = input_seed;
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
std::string mha_compare_heads(double options) {
  return run([&](Json& value) {
    Record r("mhaCompareHeads", options);
    const attn::MultiHeadAttention& mha = layer(r.number("layer"));
    attn::ForwardOptions opt = forward_options(r, false);
    opt.need_weights = true;
    const attn::MhaInput in = layer_input(r);
    r.done();
    write(value, attn::compare_heads(mha, in, opt));
  });
}

// ---- the trace of one query (core/trace.h) ---------------------------------------------

// Names `v` (moved into the call) as result array `name`.
void add_kept(Call& c, const char* name, std::vector<float>& v) {
  const std::size_t n = v.size();
  c.add_array(name, c.keep(std::move(v)), n);
}

// A traced row: arrays scores, scaled, logits, exp, weights, dropped (1.0 where dropout zeroed a weight)
// and the head's output as `output_name`; the fields max, sum, masked, logit_scale, keep_scale
// of `value`, an object the caller has opened.
void write_row_trace(Call& c, Json& value, attn::HeadRowTrace& t, const char* output_name) {
  std::vector<float> dropped(t.dropped.begin(), t.dropped.end());
  add_kept(c, "scores", t.scores);
  add_kept(c, "scaled", t.scaled);
  add_kept(c, "logits", t.logits);
  add_kept(c, "exp", t.exp);
  add_kept(c, "weights", t.weights);
  add_kept(c, "dropped", dropped);
  add_kept(c, output_name, t.output);
  value.field("max", t.max).field("sum", t.sum).field("masked", t.masked);
  value.field("logit_scale", t.logit_scale).field("keep_scale", t.keep_scale);
  if (!t.bias.empty()) {  // ALiBi: the bias added to each logit, and the head's slope
    add_kept(c, "bias", t.bias);
    value.field("slope", t.slope);
  }
}

// query, key, value, head_mask: as for mha_forward. value: { kv_head } and write_row_trace's
// fields; arrays x, q, k, v, the row's (write_row_trace, head_output), concat and output.
std::string mha_trace(double options) {
  return run([&](Json& value) {
    Call& c = current_call();
    Record r("mhaTrace", options);
    const attn::MultiHeadAttention& mha = layer(r.number("layer"));
    const attn::MhaInput in = layer_input(r);
    const attn::ForwardOptions opt = forward_options(r, false);
    const int item = r.integer("item"), head = r.integer("head"), query_index = r.integer("query_index");
    r.done();
    attn::MhaTrace t = mha.trace(in, opt, item, head, query_index);
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
std::string trace_attention(double options) {
  return run([&](Json& value) {
    Call& c = current_call();
    Record r("traceAttention", options);
    const double q = r.address("q"), k = r.address("k"), v = r.address("v"), memory_budget = r.number("memory_budget");
    const int batch = r.integer("batch"), n_q = r.integer("n_q"), n_k = r.integer("n_k"), d_k = r.integer("d_k"),
              d_v = r.integer("d_v"), item = r.integer("item"), query_index = r.integer("query_index");
    r.done();
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

// ---- the backward pass (core/backward.h) ----------------------------------------------

// Names each non-empty vector (moved into the call) as the result array of its name; an empty
// one (a bias of a layer without biases, weights not asked for) is left out.
void add_kept_arrays(std::initializer_list<std::pair<const char*, std::vector<float>*>> all) {
  for (const auto& [name, values] : all)
    if (!values->empty()) add_kept(current_call(), name, *values);
}

// As mha_forward, and grad_output: an input of floats [batch, n_q, d_model].
// value: { masked_rows }; arrays output, grads.wq … grads.bo (biases when the layer has them),
// grads.query, grads.key, grads.value and, with need_weights, weights and score_grads.
std::string mha_backward(double options) {
  return run([&](Json& value) {
    Record o("mhaBackward", options);
    const attn::MultiHeadAttention& mha = layer(o.number("layer"));
    const attn::ForwardOptions opt = forward_options(o);
    const attn::MhaInput in = layer_input(o);
    const Input<float> g = current_call().input<float>(o.address("grad_output"));
    o.done();
    attn::MhaBackwardResult r = attn::multi_head_attention_backward(mha, in, g.data, g.count, opt);
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
std::string scaled_dot_product_attention_backward(double options) {
  return run([&](Json& value) {
    Call& c = current_call();
    Record o("scaledDotProductAttentionBackward", options);
    const double q = o.address("q"), k = o.address("k"), v = o.address("v"), grad_output = o.address("grad_output");
    const int batch = o.integer("batch"), n_q = o.integer("n_q"), n_k = o.integer("n_k"), d_k = o.integer("d_k"),
              d_v = o.integer("d_v");
    const bool need_weights = o.boolean("need_weights");
    const double memory_budget = o.number("memory_budget");
    o.done();
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
std::string head_metrics(double options) {
  return run([&](Json& value) {
    Record r("headMetrics", options);
    const Input<float> w = current_call().input<float>(r.address("weights"));
    const int batch = r.integer("batch"), n_heads = r.integer("n_heads"), n_q = r.integer("n_q"), n_k = r.integer("n_k");
    r.done();
    write(value, attn::head_metrics(w.data, w.count, batch, n_heads, n_q, n_k));
  });
}

// words: an input of code points, batch × n words. array tokens [batch, n, d_model].
std::string embed_tokens(double options) {
  return run([&](Json&) {
    Record r("embedTokens", options);
    const double words = r.address("words");
    const int batch = r.integer("batch"), n = r.integer("n"), d_model = r.integer("d_model");
    const std::uint64_t seed = r.seed("seed");
    r.done();
    std::vector<float> x = attn::embed_tokens(word_rows(words, batch, n), d_model, seed);
    const std::size_t size = x.size();
    current_call().add_array("tokens", current_call().keep(std::move(x)), size);
  });
}


// q, k, v: inputs of floats. value: { masked_rows }; arrays output and, with need_weights, weights.
std::string scaled_dot_product_attention(double options) {
  return run([&](Json& value) {
    Call& c = current_call();
    Record o("scaledDotProductAttention", options);
    const double q = o.address("q"), k = o.address("k"), v = o.address("v"), memory_budget = o.number("memory_budget");
    const int batch = o.integer("batch"), n_q = o.integer("n_q"), n_k = o.integer("n_k"), d_k = o.integer("d_k"),
              d_v = o.integer("d_v");
    const bool need_weights = o.boolean("need_weights");
    o.done();
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
// The layer's sizes as for mhaCreate (n_kv_heads absent: n_heads); n_layers: layers of the
// key/value cache count; self_attention: true or false.
std::string analyze(double options) {
  return run([&](Json& value) {
    Record r("analyze", options);
    const attn::MhaConfig config = config_of(r);
    const int batch = r.integer("batch"), n_q = r.integer("n_q"), n_k = r.integer("n_k"), n_layers = r.integer("n_layers");
    const bool need_weights = r.boolean("need_weights"), scale = r.boolean("scale");
    const bool self_attention = r.boolean("self_attention");
    attn::Mask mask;  // optional: causal, window, stride (the visible pairs below)
    mask.causal = r.optional_number("causal").value_or(0) != 0;
    mask.window = static_cast<int>(r.optional_number("window").value_or(0));
    mask.stride = static_cast<int>(r.optional_number("stride").value_or(0));
    r.done();
    mask.validate(batch, n_q, n_k);
    const attn::MhaDims d = attn::resolve_dims(config);
    attn::require_countable(d, batch, n_q, n_k);
    if (self_attention && n_q != n_k)
      throw std::invalid_argument("self-attention needs n_k = n_q (got n_q " + std::to_string(n_q) + ", n_k " +
                                  std::to_string(n_k) + ")");
    value.begin_object().key("dims").begin_object();
    dims_fields(value, d);
    value.field("batch", batch).field("n_q", n_q).field("n_k", n_k).field("attention", self_attention ? "self" : "cross");
    // The sizes the page shows that follow from the dims: the projections' widths, the query heads per
    // key/value head, the attention maps, and the sinusoidal encoding's slowest pair and its wavelength.
    const int slowest = std::max(0, d.d_model / 2 - 1);
    value.end_object().key("derived").begin_object().field("qk_width", d.qk_width()).field("v_width", d.v_width())
        .field("kv_k_width", d.kv_k_width()).field("kv_v_width", d.kv_v_width()).field("group", d.group())
        .field("attention_maps", static_cast<std::int64_t>(batch) * d.n_heads)
        .field("square", d.qk_width() == d.d_model && d.d_v == d.d_k && d.n_kv_heads == d.n_heads)
        .field("encoding_slowest_pair", slowest).field("encoding_wavelength", attn::encoding_wavelength(slowest, d.d_model));
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
    // The pairs a sparse kernel computes: Q·Kᵀ and weights·V only where the mask lets the query see.
    const double pairs = static_cast<double>(attn::visible_pairs(mask, 0, n_q, n_k)), all = double(n_q) * n_k;
    const double per_pair = 2.0 * batch * d.n_heads;
    value.key("sparse").begin_object().field("mask", mask.describe()).field("visible_pairs", pairs)
        .field("total_pairs", all).field("fraction", pairs / all)
        .field("score_flops", per_pair * pairs * d.d_k).field("weighted_sum_flops", per_pair * pairs * d.d_v)
        .field("dense_score_flops", per_pair * all * d.d_k).field("dense_weighted_sum_flops", per_pair * all * d.d_v)
        .end_object();
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

// value: ALiBi's slope of each of n_heads heads (attn::alibi_slopes).
std::string alibi_slopes(int n_heads) {
  return run([&](Json& value) {
    value.begin_array();
    for (double m : attn::alibi_slopes(n_heads)) value.number(m);
    value.end_array();
  });
}

// q, k: inputs of d_k floats; offset, rope_base, scale, positions: an input of int32 query
// positions. value: the RoPE logits of q at each position i against k at i − offset.
std::string rope_logits(double options) {
  return run([&](Json& value) {
    Record r("ropeLogits", options);
    const double q = r.address("q"), k = r.address("k"), positions = r.address("positions");
    const int offset = r.integer("offset");
    const double base = r.optional_number("rope_base").value_or(attn::kRopeBase);
    const bool scale = r.boolean("scale");
    r.done();
    Call& c = current_call();
    const Input<float> qi = c.input<float>(q), ki = c.input<float>(k);
    const Input<std::int32_t> pi = c.input<std::int32_t>(positions);
    const std::vector<double> out = attn::rope_logits(std::vector<float>(qi.data, qi.data + qi.count),
                                                      std::vector<float>(ki.data, ki.data + ki.count), offset,
                                                      std::vector<int>(pi.data, pi.data + pi.count), base, scale);
    value.begin_array();
    for (double x : out) value.number(x);
    value.end_array();
  });
}

std::string sqrt_dk_stats(int d_k, int n_k, int samples, double seed) {
  return run([&](Json& value) { write(value, attn::sqrt_dk_stats(d_k, n_k, samples, static_cast<std::uint64_t>(seed))); });
}

// a, b: inputs of floats. array c [m, n].
std::string matmul(double options) {
  return run([&](Json&) {
    Record r("matmul", options);
    const double a = r.address("a"), b = r.address("b");
    const int m = r.integer("m"), k = r.integer("k"), n = r.integer("n");
    r.done();
    // The core's checks: sizes, the memory budget and the work limit, before anything is allocated.
    attn::validate_matmul(m, k, n);
    const std::uint64_t mk = static_cast<std::uint64_t>(m) * k, kn = static_cast<std::uint64_t>(k) * n,
                        mn = static_cast<std::uint64_t>(m) * n;
    Call& c = current_call();
    const Input<float> av = c.input<float>(a), bv = c.input<float>(b);
    attn::require_length("a", av.count, mk, "m×k");
    attn::require_length("b", bv.count, kn, "k×n");
    // As every other call: NaN and ±∞ are refused, and so is a product of finite values past float32's range.
    attn::require_finite("a", av.data, mk, k);
    attn::require_finite("b", bv.data, kn, n);
    float* out = c.new_floats(mn);
    attn::kern::gemm(m, n, k, av.data, k, bv.data, n, false, out, n, 1.0f, nullptr, false);
    if (attn::first_non_finite(out, mn) != mn)
      throw attn::Error("the product a·b overflowed float32: the input values are too large, scale them down");
    c.add_array("c", out, mn);
  });
}

// The mask of a record: causal (true/false) and padding (an input of int32 key lengths, 0 = none).
attn::Mask mask_of(Record& r) {
  attn::Mask m;
  m.causal = r.boolean("causal");
  m.window = static_cast<int>(r.optional_number("window").value_or(0));
  m.stride = static_cast<int>(r.optional_number("stride").value_or(0));
  const Input<std::int32_t> lengths = current_call().input<std::int32_t>(r.address("padding"));
  m.key_lengths.assign(lengths.data, lengths.data + lengths.count);
  return m;
}

// The page's view checked by the core: d_model, n_heads, batch, n_q, n_k (numbers as typed:
// the core says what is wrong with 1.5, 0 or 2^40), d_k, d_v, n_kv_heads (absent: derived),
// causal and padding as in mask_of; positional (1: rope) and rope_base, whose rules (an even d_k, a base
// above 1) the core checks too. value: { ok: true, dims: { d_model, n_heads, n_kv_heads, d_k, d_v, n_q,
// n_k, batch, rope_base (with rope), kv_head_of } } or { ok: false, field, message }.
std::string resolve_view(double options) {
  return run([&](Json& value) {
    Record r("resolveView", options);
    attn::ViewRequest request;
    request.d_model = r.number("d_model");
    request.n_heads = r.number("n_heads");
    request.n_kv_heads = r.optional_number("n_kv_heads");
    request.d_k = r.optional_number("d_k");
    request.d_v = r.optional_number("d_v");
    request.batch = r.number("batch");
    request.n_q = r.number("n_q");
    request.n_k = r.number("n_k");
    request.mask = mask_of(r);
    // The positional method's rules of the sizes (RoPE turns pairs: an even d_k; a base above 1): 0 none, 1 rope, 2 alibi.
    const int positional = static_cast<int>(r.optional_number("positional").value_or(0));
    const bool rope = positional == 1;
    const std::optional<double> given_base = r.optional_number("rope_base");  // absent: not given
    const double rope_base = attn::rope_base_or_default(given_base);
    r.done();
    attn::ViewResult v = attn::resolve_view(request);
    if (v.ok) {
      try {
        // One rule with forward: a base given with another method is refused, not ignored.
        attn::require_rope_base_applies(static_cast<attn::Positional>(std::min(std::max(positional, 0), 2)), given_base);
        if (rope) attn::require_rope(v.dims.d_k, rope_base);
      } catch (const std::exception& e) {
        v.ok = false;
        v.message = e.what();
        v.field = v.message.rfind("rope_base", 0) == 0 ? "rope_base" : "positional";
      }
    }
    value.begin_object().field("ok", v.ok);
    if (!v.ok) {
      value.field("field", v.field).field("message", v.message).end_object();
      return;
    }
    const attn::MhaDims& d = v.dims;
    value.key("dims").begin_object().field("d_model", d.d_model).field("n_heads", d.n_heads)
        .field("n_kv_heads", d.n_kv_heads).field("d_k", d.d_k).field("d_v", d.d_v).field("n_q", v.n_q)
        .field("n_k", v.n_k).field("batch", v.batch);
    if (rope) value.field("rope_base", rope_base);  // the base the layer turns by
    value.key("kv_head_of").begin_array();
    for (int g : v.kv_head_of) value.number(g);
    value.end_array();
    // The shape of each tensor the export writes and importTensors takes, by its name: the core's, not the page's.
    value.key("tensors").begin_object();
    for (const attn::NamedShape& t : attn::layer_tensor_shapes(d, v.batch, v.n_q, v.n_k)) {
      value.key(t.name).begin_array();
      for (int i = 0; i < t.rank; ++i) value.number(static_cast<double>(t.dims[i]));
      value.end_array();
    }
    value.end_object().end_object().end_object();
  });
}

// The masked cells of a heatmap (attn::mask_grid): causal, padding as in mask_of, item, n_q,
// n_k, row_step, col_step. array grid [rows × cols] of 0 and 1.
std::string mask_grid(double options) {
  return run([&](Json&) {
    Record r("maskGrid", options);
    const attn::Mask m = mask_of(r);
    const int item = r.integer("item"), n_q = r.integer("n_q"), n_k = r.integer("n_k");
    const int row_step = r.integer("row_step"), col_step = r.integer("col_step");
    r.done();
    const std::vector<std::uint8_t> grid = attn::mask_grid(m, item, n_q, n_k, row_step, col_step);
    std::vector<float> cells(grid.begin(), grid.end());
    add_kept(current_call(), "grid", cells);
  });
}

// array values: `count` N(0, 1) numbers of the page's stream for `seed` (attn::random_normal).
std::string random_normal(double seed, double count) {
  return run([&](Json&) {
    if (!(seed >= 0 && seed <= 9007199254740991.0 && seed == static_cast<double>(static_cast<std::uint64_t>(seed))))
      throw std::invalid_argument("internal error: the seed is not a whole number in [0, 2^53)");
    if (!(count >= 0 && count <= 4294967295.0)) throw std::invalid_argument("internal error: bad count");
    std::vector<float> x = attn::random_normal(static_cast<std::uint64_t>(seed), static_cast<std::size_t>(count));
    add_kept(current_call(), "values", x);
  });
}

std::string model_presets() {
  return run([](Json& value) { write(value, attn::model_presets()); });
}

}  // namespace

}  // namespace bind

EMSCRIPTEN_BINDINGS(attention) {
  using namespace emscripten;
  function("stageAttentionOptions", &bind::stage_attention_options);
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
  function("resolveView", &bind::resolve_view);
  function("maskGrid", &bind::mask_grid);
  function("randomNormal", &bind::random_normal);
  function("positionalEncoding", &bind::positional_encoding);
  function("positionalProperties", &bind::positional_properties);
  function("alibiSlopes", &bind::alibi_slopes);
  function("ropeLogits", &bind::rope_logits);
  function("sqrtDkStats", &bind::sqrt_dk_stats);
  function("matmul", &bind::matmul);
  function("modelPresets", &bind::model_presets);
}
