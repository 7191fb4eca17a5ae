// JavaScript ↔ core conversions. Counts go out as JS numbers (doubles): exact up to 2^53,
// far above GPT-3's largest count.
#include "convert.h"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include "attn/error.h"

// Throws from JavaScript itself: no C++ object is created on the way.
EM_JS(void, throw_js_error_from_utf8, (const char* message), { throw new Error(UTF8ToString(message)); });

namespace bind {

namespace {
std::string g_error_message;  // reused, so a thrown error leaves no allocation behind
}  // namespace

void save_error_message(const char* message) { g_error_message = message; }

void throw_saved_error() {
  throw_js_error_from_utf8(g_error_message.c_str());
  __builtin_unreachable();
}

std::vector<float> to_floats(const val& array) {
  if (array.isUndefined() || array.isNull()) return {};
  return emscripten::convertJSArrayToNumberVector<float>(array);
}

val to_js(const float* data, std::size_t n) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}

namespace {
void require_destination(const char* name, const val& dest, std::size_t n) {
  if (dest.isNull() || dest.isUndefined()) return;
  attn::require_length(name, dest["length"].as<std::size_t>(), n, "the result");
}
bool given(const val& dest) { return !dest.isNull() && !dest.isUndefined(); }
}  // namespace

void set_results(val& result, const float* output, std::size_t n_output, const val& into_output,
                 const float* weights, std::size_t n_weights, const val& into_weights) {
  require_destination("into.output", into_output, n_output);
  if (weights) require_destination("into.weights", into_weights, n_weights);
  // New arrays first; then copies into the caller's arrays, which cannot fail. Each view of the
  // heap is made and consumed at once: nothing in between can grow the memory and detach it.
  if (!given(into_output)) result.set("output", to_js(output, n_output));
  if (!weights) result.set("weights", val::null());
  else if (!given(into_weights)) result.set("weights", to_js(weights, n_weights));
  if (given(into_output)) {
    into_output.call<void>("set", val(emscripten::typed_memory_view(n_output, output)));
    result.set("output", into_output);
  }
  if (weights && given(into_weights)) {
    into_weights.call<void>("set", val(emscripten::typed_memory_view(n_weights, weights)));
    result.set("weights", into_weights);
  }
}

std::uint64_t to_u64(const val& number) { return static_cast<std::uint64_t>(number.as<double>()); }

attn::Mask to_mask(const val& m) {
  attn::Mask mask;
  if (m.isUndefined() || m.isNull()) return mask;
  mask.causal = m["causal"].as<bool>();
  if (!m["padding"].isNull() && !m["padding"].isUndefined())
    mask.key_lengths = emscripten::convertJSArrayToNumberVector<int>(m["padding"]);
  if (!m["matrix"].isNull() && !m["matrix"].isUndefined())
    mask.matrix = emscripten::convertJSArrayToNumberVector<std::uint8_t>(m["matrix"]);
  return mask;
}

void read_attention_options(const val& o, attn::AttentionOptions& out) {
  out.mask = to_mask(o["mask"]);
  out.scale = o["scale"].as<bool>();
  out.dropout = o["dropout"].as<float>();
  out.training = o["training"].as<bool>();
  out.seed = to_u64(o["seed"]);
}

val masked_rows_to_js(const std::vector<attn::MaskedRow>& rows) {
  val out = val::array();
  for (const attn::MaskedRow& r : rows) {
    val row = val::object();
    row.set("batch", r.b);
    row.set("query", r.i);
    out.call<void>("push", row);
  }
  return out;
}

namespace {
val dims_to_js(const std::vector<std::int64_t>& dims) {
  val out = val::array();
  for (std::int64_t d : dims) out.call<void>("push", static_cast<double>(d));
  return out;
}
}  // namespace

val trace_to_js(const std::vector<attn::TensorInfo>& trace) {
  val out = val::array();
  for (const attn::TensorInfo& t : trace) {
    val x = val::object();
    x.set("name", t.name);
    x.set("dims", dims_to_js(t.dims));
    x.set("bytes", static_cast<double>(t.bytes));
    x.set("note", t.note);
    out.call<void>("push", x);
  }
  return out;
}

val numbers_to_js(std::initializer_list<std::pair<const char*, double>> fields) {
  val o = val::object();
  for (const auto& [name, value] : fields) o.set(name, value);
  return o;
}

val params_to_js(const attn::ParameterCounts& p) {
  auto d = [](std::int64_t x) { return static_cast<double>(x); };
  return numbers_to_js({{"w_q", d(p.w_q)}, {"w_k", d(p.w_k)}, {"w_v", d(p.w_v)}, {"w_o", d(p.w_o)},
                        {"per_head_q", d(p.per_head_q)}, {"per_head_k", d(p.per_head_k)},
                        {"per_head_v", d(p.per_head_v)}, {"per_head_o", d(p.per_head_o)}, {"b_q", d(p.b_q)},
                        {"b_k", d(p.b_k)}, {"b_v", d(p.b_v)}, {"b_o", d(p.b_o)}, {"weights", d(p.weights)},
                        {"biases", d(p.biases)}, {"total", d(p.total)}});
}

val flops_to_js(const attn::FlopCounts& f) {
  auto d = [](std::int64_t x) { return static_cast<double>(x); };
  val lesson = numbers_to_js({{"projections", d(f.lesson_projections)}, {"scores", d(f.lesson_scores)},
                              {"weighted_sum", d(f.lesson_weighted_sum)}, {"softmax", d(f.lesson_softmax)},
                              {"total", d(f.lesson_total)}});
  val stages = val::array();
  for (const attn::StageCost& s : f.stages) {
    val x = val::object();
    x.set("stage", s.stage);
    x.set("macs", static_cast<double>(s.macs));
    x.set("flops", static_cast<double>(s.flops));
    stages.call<void>("push", x);
  }
  val o = numbers_to_js({{"exact_macs", d(f.exact_macs)}, {"exact_flops", d(f.exact_flops)},
                         {"projection_flops", d(f.projection_flops)}, {"attention_flops", d(f.attention_flops)}});
  o.set("lesson", lesson);
  o.set("stages", stages);
  o.set("projections_dominate_lesson", f.projections_dominate_lesson);
  o.set("projections_dominate_exact", f.projections_dominate_exact);
  o.set("dominant_reason", f.dominant_reason);
  return o;
}

val memory_to_js(const attn::RunMemory& m) {
  auto d = [](std::uint64_t x) { return static_cast<double>(x); };
  return numbers_to_js({{"inputs", d(m.inputs)}, {"outputs", d(m.outputs)}, {"weights", d(m.weights)},
                        {"working", d(m.working)}, {"parameters", d(m.parameters)}, {"total", d(m.total)}});
}

val sqrt_dk_to_js(const attn::SqrtDkStats& s) {
  return numbers_to_js({{"d_k", s.d_k}, {"n_k", s.n_k}, {"samples", s.samples}, {"dot_mean", s.dot_mean},
                        {"dot_variance", s.dot_variance}, {"scaled_variance", s.scaled_variance},
                        {"entropy_scaled", s.entropy_scaled}, {"entropy_unscaled", s.entropy_unscaled},
                        {"max_weight_scaled", s.max_weight_scaled}, {"max_weight_unscaled", s.max_weight_unscaled},
                        {"max_entropy", s.max_entropy}});
}

val lesson_to_js(const std::vector<attn::LessonExample>& examples) {
  val out = val::array();
  for (const attn::LessonExample& ex : examples) {
    val figures = val::array();
    for (const attn::LessonFigure& f : ex.figures) {
      val x = val::object();
      x.set("label", f.label);
      x.set("expected", f.expected);
      x.set("computed", f.computed);
      x.set("value", f.value);
      x.set("ok", f.ok);
      figures.call<void>("push", x);
    }
    val config = val::object();
    config.set("d_model", ex.config.d_model);
    config.set("n_heads", ex.config.n_heads);
    config.set("bias", ex.config.bias);
    config.set("batch", ex.batch);
    config.set("n", ex.n);
    val o = val::object();
    o.set("id", ex.id);
    o.set("title", ex.title);
    o.set("config", config);
    o.set("figures", figures);
    o.set("note", ex.note);
    out.call<void>("push", o);
  }
  return out;
}

val presets_to_js(const std::vector<attn::ModelPreset>& presets) {
  val out = val::array();
  for (const attn::ModelPreset& p : presets) {
    val o = val::object();
    o.set("name", p.name);
    o.set("n_heads", p.n_heads);
    o.set("d_model", p.d_model);
    o.set("d_k", p.d_k);
    o.set("parameters", p.parameters);
    o.set("n_kv_heads", p.n_kv_heads);
    o.set("note", p.note);
    out.call<void>("push", o);
  }
  return out;
}

}  // namespace bind
