// The core's results written as JSON for JavaScript (see json.h for why JSON). No maths
// lives here, and nothing here calls JavaScript.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/head_metrics.h"
#include "core/head_patterns.h"
#include "core/attention.h"
#include "core/dims.h"
#include "core/model_presets.h"
#include "json.h"

namespace bind {

/// { d_model, n_heads, n_kv_heads, d_k, d_v, bias } as the fields of the object being written.
void dims_fields(Json& j, const attn::MhaDims& d);
/// [{ batch, query }, ...]
void write(Json& j, const std::vector<attn::MaskedRow>& rows);
/// [{ name, dims, bytes, note }, ...]
void write(Json& j, const std::vector<attn::TensorInfo>& trace);
void write(Json& j, const attn::ParameterCounts& p);
void write(Json& j, const attn::FlopCounts& f);
void write(Json& j, const attn::RunMemory& m);
void write(Json& j, const attn::SqrtDkStats& s);
void write(Json& j, const attn::PositionalProperties& p);
/// Each preset with its layers and its key/value cache per token (kv_cache_cost over n_layers).
void write(Json& j, const std::vector<attn::ModelPreset>& presets);
void write(Json& j, const attn::KVCacheCost& c);
/// { heads: [{ entropy, distance, max_weight, mean_max_weight, rows }], max_entropy, divergence, similarity }
void write(Json& j, const attn::HeadMetrics& m);
/// { ...metrics, ablation: { output_norm, change, order } }
void write(Json& j, const attn::HeadComparison& c);
/// [{ head, kv_head, pattern, strength, k, pairs, word_dims, matchable_words, omega, pair_weight,
///    kernel_margin, self_penalty, vocabulary_q, positions_q, vocabulary_k, positions_k, exact, fit_error }]
void write(Json& j, const std::vector<attn::HeadPatternInfo>& info);
/// [{ head, pattern, strength (null: the pattern's default), k }]
void write(Json& j, const std::vector<attn::HeadSpec>& patterns);

/// Strings from an input of Unicode code points, each string ended by −1 (the JS wrapper
/// writes them so: JavaScript strings never cross into C++), as UTF-8. Throws on a value that
/// is not a code point or a missing end.
std::vector<std::string> strings_from(const std::int32_t* code_points, std::size_t count);

}  // namespace bind
