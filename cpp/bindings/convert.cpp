// The core's results as JSON. Counts go out as numbers, exact up to 2^53, far above GPT-3's
// largest count; the JS side parses them into the objects the API documents.
#include "convert.h"

#include <cmath>
#include <stdexcept>

namespace bind {

void dims_fields(Json& j, const attn::MhaDims& d) {
  j.field("d_model", d.d_model).field("n_heads", d.n_heads).field("n_kv_heads", d.n_kv_heads).field("d_k", d.d_k)
      .field("d_v", d.d_v).field("bias", d.bias);
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
      .field("sqrt_d_k", std::sqrt(static_cast<double>(s.d_k)))  // the divisor of the scaled scores, as the page shows it
      .end_object();
}

void write(Json& j, const attn::PositionalProperties& p) {
  j.begin_object().field("max_abs", p.max_abs).field("min_distance", p.min_distance);
  j.key("closest").begin_array().number(p.closest_a).number(p.closest_b).end_array();
  j.field("rotation_max_error", p.rotation_max_error).field("offset_k", p.offset_k).end_object();
}

void write(Json& j, const std::vector<attn::ModelPreset>& presets) {
  j.begin_array();
  for (const attn::ModelPreset& p : presets) {
    j.begin_object().field("name", p.name).field("n_heads", p.n_heads).field("d_model", p.d_model).field("d_k", p.d_k)
        .field("parameters", p.parameters).field("n_kv_heads", p.n_kv_heads).field("n_layers", p.n_layers)
        .field("note", p.note);
    attn::MhaConfig config;
    config.d_model = p.d_model;
    config.n_heads = p.n_heads;
    config.d_k = config.d_v = p.d_k;
    config.n_kv_heads = p.n_kv_heads;
    attn::MhaConfig derived = config;  // d_k_derived: the model's d_k is the one the core derives (d_model / n_heads)
    derived.d_k = derived.d_v = 0;
    j.field("d_k_derived", attn::resolve_dims(derived).d_k == p.d_k);
    j.key("kv_cache_per_token");  // one token, every layer
    write(j, attn::kv_cache_cost(attn::resolve_dims(config), 1, 1, p.n_layers));
    j.end_object();
  }
  j.end_array();
}

void write(Json& j, const attn::KVCacheCost& c) {
  j.begin_object()
      .field("n_heads", c.n_heads).field("n_kv_heads", c.n_kv_heads).field("n_layers", c.n_layers)
      .field("numbers_per_token", c.numbers_per_token).field("bytes_per_token", c.bytes_per_token)
      .field("tokens", c.tokens).field("bytes", c.bytes)
      .field("mha_bytes_per_token", c.mha_bytes_per_token).field("mha_bytes", c.mha_bytes)
      .field("saved_bytes", c.saved_bytes).field("ratio", c.ratio)
      .end_object();
}

namespace {
void numbers(Json& j, const char* name, const std::vector<double>& values) {
  j.key(name).begin_array();
  for (double v : values) j.number(v);
  j.end_array();
}
void metrics_fields(Json& j, const attn::HeadMetrics& m) {
  j.key("heads").begin_array();
  for (const attn::HeadStats& s : m.heads)
    j.begin_object().field("entropy", s.entropy).field("distance", s.distance).field("max_weight", s.max_weight)
        .field("mean_max_weight", s.mean_max_weight).field("rows", s.rows).end_object();
  j.end_array().field("max_entropy", m.max_entropy);
  numbers(j, "divergence", m.divergence);
  numbers(j, "similarity", m.similarity);
}
}  // namespace

void write(Json& j, const attn::HeadMetrics& m) {
  j.begin_object();
  metrics_fields(j, m);
  j.end_object();
}

void write(Json& j, const attn::HeadComparison& c) {
  j.begin_object();
  metrics_fields(j, c.metrics);
  j.key("ablation").begin_object().field("output_norm", c.ablation.output_norm);
  numbers(j, "change", c.ablation.change);
  j.key("order").begin_array();
  for (int h : c.ablation.order) j.number(h);
  j.end_array().end_object().end_object();
}

void write(Json& j, const std::vector<attn::HeadPatternInfo>& info) {
  j.begin_array();
  for (const attn::HeadPatternInfo& r : info) {
    j.begin_object().field("head", r.head).field("kv_head", r.kv_head).field("pattern", attn::head_pattern_name(r.pattern))
        .field("strength", r.strength).field("k", r.k).field("pairs", r.pairs).field("word_dims", r.word_dims)
        .field("matchable_words", r.matchable_words);
    numbers(j, "omega", r.omega);
    numbers(j, "pair_weight", r.pair_weight);
    j.field("kernel_margin", r.kernel_margin).field("self_penalty", r.self_penalty)
        .field("vocabulary_q", r.vocabulary_q).field("positions_q", r.positions_q)
        .field("vocabulary_k", r.vocabulary_k).field("positions_k", r.positions_k)
        .field("exact", r.exact).field("fit_error", r.fit_error).end_object();
  }
  j.end_array();
}

void write(Json& j, const std::vector<attn::HeadSpec>& patterns) {
  j.begin_array();
  for (const attn::HeadSpec& p : patterns) {
    j.begin_object().field("head", p.head).field("pattern", attn::head_pattern_name(p.pattern)).key("strength");
    if (p.strength) j.number(*p.strength);
    else j.null();
    j.field("k", p.k).end_object();
  }
  j.end_array();
}

std::vector<std::string> strings_from(const std::int32_t* cp, std::size_t count) {
  std::vector<std::string> out;
  std::string word;
  for (std::size_t i = 0; i < count; ++i) {
    const std::int32_t c = cp[i];
    if (c == -1) {
      out.push_back(std::move(word));
      word.clear();
      continue;
    }
    if (c < 0 || c > 0x10FFFF) throw std::invalid_argument("internal error: " + std::to_string(c) + " is not a code point");
    // UTF-8, surrogates included as three bytes (a lone one stays what JavaScript had).
    const auto u = static_cast<std::uint32_t>(c);
    if (u < 0x80) {
      word += static_cast<char>(u);
    } else if (u < 0x800) {
      word += static_cast<char>(0xC0 | (u >> 6));
      word += static_cast<char>(0x80 | (u & 0x3F));
    } else if (u < 0x10000) {
      word += static_cast<char>(0xE0 | (u >> 12));
      word += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
      word += static_cast<char>(0x80 | (u & 0x3F));
    } else {
      word += static_cast<char>(0xF0 | (u >> 18));
      word += static_cast<char>(0x80 | ((u >> 12) & 0x3F));
      word += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
      word += static_cast<char>(0x80 | (u & 0x3F));
    }
  }
  if (!word.empty()) throw std::invalid_argument("internal error: the last string has no end marker");
  return out;
}

}  // namespace bind
