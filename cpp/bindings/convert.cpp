// The core's results as JSON. Counts go out as numbers, exact up to 2^53, far above GPT-3's
// largest count; the JS side parses them into the objects the API documents.
#include "convert.h"

namespace bind {

void dims_fields(Json& j, const attn::MhaDims& d) {
  j.field("d_model", d.d_model).field("n_heads", d.n_heads).field("d_k", d.d_k).field("d_v", d.d_v).field("bias", d.bias);
}

void write(Json& j, const std::vector<attn::MaskedRow>& rows) {
  j.begin_array();
  for (const attn::MaskedRow& r : rows) j.begin_object().field("batch", r.b).field("query", r.i).end_object();
  j.end_array();
}

void write(Json& j, const std::vector<attn::TensorInfo>& trace) {
  j.begin_array();
  for (const attn::TensorInfo& t : trace) {
    j.begin_object().field("name", t.name).key("dims").begin_array();
    for (const std::int64_t d : t.dims) j.number(static_cast<double>(d));
    j.end_array().field("bytes", t.bytes).field("note", t.note).end_object();
  }
  j.end_array();
}

void write(Json& j, const attn::ParameterCounts& p) {
  j.begin_object()
      .field("w_q", p.w_q).field("w_k", p.w_k).field("w_v", p.w_v).field("w_o", p.w_o)
      .field("per_head_q", p.per_head_q).field("per_head_k", p.per_head_k)
      .field("per_head_v", p.per_head_v).field("per_head_o", p.per_head_o)
      .field("b_q", p.b_q).field("b_k", p.b_k).field("b_v", p.b_v).field("b_o", p.b_o)
      .field("weights", p.weights).field("biases", p.biases).field("total", p.total)
      .end_object();
}

void write(Json& j, const attn::FlopCounts& f) {
  j.begin_object()
      .field("exact_macs", f.exact_macs).field("exact_flops", f.exact_flops)
      .field("projection_flops", f.projection_flops).field("attention_flops", f.attention_flops);
  j.key("lesson").begin_object()
      .field("projections", f.lesson_projections).field("scores", f.lesson_scores)
      .field("weighted_sum", f.lesson_weighted_sum).field("softmax", f.lesson_softmax).field("total", f.lesson_total)
      .end_object();
  j.key("stages").begin_array();
  for (const attn::StageCost& s : f.stages)
    j.begin_object().field("stage", s.stage).field("macs", s.macs).field("flops", s.flops).end_object();
  j.end_array();
  j.field("projections_dominate_lesson", f.projections_dominate_lesson)
      .field("projections_dominate_exact", f.projections_dominate_exact)
      .field("dominant_reason", f.dominant_reason)
      .end_object();
}

void write(Json& j, const attn::RunMemory& m) {
  j.begin_object()
      .field("inputs", m.inputs).field("outputs", m.outputs).field("weights", m.weights)
      .field("working", m.working).field("parameters", m.parameters).field("total", m.total)
      .end_object();
}

void write(Json& j, const attn::SqrtDkStats& s) {
  j.begin_object()
      .field("d_k", s.d_k).field("n_k", s.n_k).field("samples", s.samples)
      .field("dot_mean", s.dot_mean).field("dot_variance", s.dot_variance).field("scaled_variance", s.scaled_variance)
      .field("entropy_scaled", s.entropy_scaled).field("entropy_unscaled", s.entropy_unscaled)
      .field("max_weight_scaled", s.max_weight_scaled).field("max_weight_unscaled", s.max_weight_unscaled)
      .field("max_entropy", s.max_entropy)
      .end_object();
}

void write(Json& j, const attn::PositionalProperties& p) {
  j.begin_object().field("max_abs", p.max_abs).field("min_distance", p.min_distance);
  j.key("closest").begin_array().number(p.closest_a).number(p.closest_b).end_array();
  j.field("rotation_max_error", p.rotation_max_error).field("offset_k", p.offset_k).end_object();
}

void write(Json& j, const std::vector<attn::LessonExample>& examples) {
  j.begin_array();
  for (const attn::LessonExample& ex : examples) {
    j.begin_object().field("id", ex.id).field("title", ex.title);
    j.key("config").begin_object()
        .field("d_model", ex.config.d_model).field("n_heads", ex.config.n_heads).field("bias", ex.config.bias)
        .field("batch", ex.batch).field("n", ex.n)
        .end_object();
    j.key("figures").begin_array();
    for (const attn::LessonFigure& f : ex.figures) {
      j.begin_object().field("label", f.label).field("expected", f.expected).field("computed", f.computed)
          .field("value", f.value).field("ok", f.ok).end_object();
    }
    j.end_array().field("note", ex.note).end_object();
  }
  j.end_array();
}

void write(Json& j, const std::vector<attn::ModelPreset>& presets) {
  j.begin_array();
  for (const attn::ModelPreset& p : presets) {
    j.begin_object().field("name", p.name).field("n_heads", p.n_heads).field("d_model", p.d_model).field("d_k", p.d_k)
        .field("parameters", p.parameters).field("n_kv_heads", p.n_kv_heads).field("note", p.note).end_object();
  }
  j.end_array();
}

}  // namespace bind
