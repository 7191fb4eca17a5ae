// Worked examples E1, E2, E3, P1, P4, recomputed by the core's analysis code (the model table's rows
// are the core's: core/model_presets.cpp). The expected strings are LESSON.md's figures; every computed
// string comes from the engine.
#include "lesson_examples.h"

#include <cmath>
#include <cstdio>

#include "core/analysis.h"
#include "core/error.h"

namespace attn {
namespace {

LessonFigure figure(std::string label, std::string expected, std::string computed, double value) {
  const bool ok = expected.empty() || expected == computed;
  return {std::move(label), std::move(expected), std::move(computed), value, ok};
}

// A figure the lesson never prints, checked against our own independent count (LESSON.md's exact
// FLOPs of E3): shown as computed, never as the lesson's.
LessonFigure checked(std::string label, std::string expected, std::string computed, double value) {
  LessonFigure f = figure(std::move(label), std::move(expected), std::move(computed), value);
  f.in_lesson = false;
  return f;
}

LessonFigure count(std::string label, std::string expected, std::int64_t value) {
  return figure(std::move(label), std::move(expected), group_digits(static_cast<std::uint64_t>(value)),
                static_cast<double>(value));
}

std::string shape(const std::vector<std::int64_t>& dims, std::size_t last) {
  std::string out;
  for (std::size_t i = dims.size() - last; i < dims.size(); ++i)
    out += (out.empty() ? "" : "×") + std::to_string(dims[i]);
  return out;
}

// The dims of the traced tensor whose name starts with prefix ("Q_i", "A_i", ...).
std::vector<std::int64_t> traced_dims(const std::vector<TensorInfo>& trace, const std::string& prefix) {
  for (const TensorInfo& t : trace)
    if (t.name.rfind(prefix, 0) == 0) return t.dims;
  throw Error("tensor " + prefix + " missing from the trace");
}

// A layer of the lesson: d_k = d_v = d_model / n_heads, one key/value head per query head.
MhaConfig layer(int d_model, int n_heads, bool bias) {
  MhaConfig c;
  c.d_model = d_model;
  c.n_heads = n_heads;
  c.bias = bias;
  return c;
}

double round1(double billions) { return std::round(billions * 10.0) / 10.0; }

LessonExample e1() {
  LessonExample ex;
  ex.id = "E1";
  ex.title = "Shapes through multi-head attention";
  ex.config = layer(768, 12, true);
  ex.batch = 1;
  ex.n = 128;
  ex.note = "Per-head tensors are 128×64; concatenating 12 heads restores 128×768.";
  const MhaDims d = resolve_dims(ex.config);
  const auto t = tensor_trace(d, ex.batch, ex.n, ex.n, true);
  auto find = [&](const std::string& prefix) { return traced_dims(t, prefix); };
  ex.figures = {
      figure("d_k = d_model / h", "64", std::to_string(d.d_k), d.d_k),
      figure("d_v = d_model / h", "64", std::to_string(d.d_v), d.d_v),
      figure("Q_i", "128×64", shape(find("Q_i"), 2), 0),
      figure("K_i", "128×64", shape(find("K_i"), 2), 0),
      figure("V_i", "128×64", shape(find("V_i"), 2), 0),
      figure("S_i", "128×128", shape(find("S_i"), 2), 0),
      figure("A_i", "128×128", shape(find("A_i"), 2), 0),
      figure("head_i", "128×64", shape(find("head_i"), 2), 0),
      figure("Concat", "128×768", shape(find("Concat"), 2), 0),
      figure("output", "128×768", shape(find("output"), 2), 0),
  };
  return ex;
}

LessonExample e2() {
  LessonExample ex;
  ex.id = "E2";
  ex.title = "Parameter count";
  ex.config = layer(512, 8, false);
  ex.batch = 1;
  ex.n = 0;
  ex.note = "Splitting into heads repartitions the same 4·d_model² weights; biases add 4·d_model.";
  const MhaDims d = resolve_dims(ex.config);
  const ParameterCounts p = parameter_counts(d);
  ex.figures = {
      count("per-head W_iᴽ (512×64)", "32,768", p.per_head_q),
      count("8 heads × 3 matrices", "786,432", d.n_heads * (p.per_head_q + p.per_head_k + p.per_head_v)),
      count("Wᴼ (512×512)", "262,144", p.w_o),
      count("total", "1,048,576", p.weights),
      count("4·d_model²", "1,048,576", 4ll * d.d_model * d.d_model),
      count("total with biases (4·d² + 4·d)", "", p.weights + p.biases),
  };
  return ex;
}

LessonExample e3() {
  LessonExample ex;
  ex.id = "E3";
  ex.title = "FLOPs: which term dominates";
  ex.config = layer(4096, 32, false);
  ex.batch = 1;
  ex.n = 2048;
  ex.note = "";
  const MhaDims d = resolve_dims(ex.config);
  const FlopCounts f = flop_counts(d, 1, 2048, 2048, true);
  const double proj = f.lesson_projections / 1e9, scores = f.lesson_scores / 1e9, wsum = f.lesson_weighted_sum / 1e9;
  const double rounded_sum = round1(proj) + round1(scores) + round1(wsum);
  const std::int64_t proj4 = f.stages[0].macs + f.stages[1].macs + f.stages[2].macs + f.stages[6].macs;
  ex.figures = {
      figure("projections n·d² (lesson)", "34.4B", format_billions(f.lesson_projections), f.lesson_projections),
      figure("scores n²·d (lesson)", "17.2B", format_billions(f.lesson_scores), f.lesson_scores),
      figure("weighted sum n²·d (lesson)", "17.2B", format_billions(f.lesson_weighted_sum), f.lesson_weighted_sum),
      figure("total, adding the rounded terms (lesson)", "68.8B", format_billions(rounded_sum * 1e9), rounded_sum * 1e9),
      figure("total, unrounded (one projection)", "", format_billions(f.lesson_total), f.lesson_total),
      checked("all four projections, exact MACs", "137.4B", format_billions(proj4), proj4),
      checked("all four projections, exact FLOPs", "274.9B", format_billions(2.0 * proj4), 2.0 * proj4),
      checked("total exact MACs", "171.8B", format_billions(f.exact_macs), f.exact_macs),
      checked("total matmul FLOPs (2 per MAC)", "343.6B", format_billions(2.0 * f.exact_macs), 2.0 * f.exact_macs),
      figure("total FLOPs with scale and softmax", "", format_billions(f.exact_flops), f.exact_flops),
      figure("projections dominate (d > n)", "yes", f.projections_dominate_lesson && f.projections_dominate_exact ? "yes" : "no", 0),
  };
  ex.note = "The lesson counts one projection and a multiply-add as one operation; the exact count has four "
            "projections (Q, K, V and output) and 2 FLOPs per multiply-add, so it is about 5 times larger. "
            "The lesson's 68.8B adds rounded terms; unrounded the sum is " + format_billions(f.lesson_total) +
            ". Either way the projections dominate because d > n.";
  return ex;
}

LessonExample p1() {
  LessonExample ex;
  ex.id = "P1";
  ex.title = "Head size";
  ex.config = layer(1024, 16, true);
  ex.batch = 1;
  ex.n = 0;
  ex.note = "h·d_k always gives back d_model.";
  const MhaDims d = resolve_dims(ex.config);
  ex.figures = {
      figure("d_k = 1024 / 16", "64", std::to_string(d.d_k), d.d_k),
      figure("h·d_k", "1024", std::to_string(d.qk_width()), static_cast<double>(d.qk_width())),
  };
  return ex;
}

LessonExample p4() {
  LessonExample ex;
  ex.id = "P4";
  ex.title = "Memory of the attention weights";
  ex.config = layer(512, 8, true);
  ex.batch = 32;
  ex.n = 128;
  ex.note = "One n×n matrix per head and per batch item: memory grows with n².";
  const MhaDims d = resolve_dims(ex.config);
  const std::uint64_t bytes = attention_weight_bytes(d.n_heads, ex.batch, ex.n, ex.n);
  const std::vector<std::int64_t> weights = traced_dims(tensor_trace(d, ex.batch, ex.n, ex.n, true), "A_i");
  char mb[32];
  std::snprintf(mb, sizeof mb, "%.1f MB", bytes / 1e6);
  ex.figures = {
      count("attention matrices (h × batch)", "256", weights[0] * weights[1]),
      figure("each matrix", "128×128", shape(weights, 2), 0),
      count("bytes in float32", "16,777,216", static_cast<std::int64_t>(bytes)),
      figure("in MB", "16.8 MB", mb, bytes / 1e6),
  };
  return ex;
}

}  // namespace

std::string format_billions(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fB", value / 1e9);
  return buf;
}

std::vector<LessonExample> lesson_examples() { return {e1(), e2(), e3(), p1(), p4()}; }

}  // namespace attn
