// The core's results written as JSON for JavaScript (see json.h for why JSON). No maths
// lives here, and nothing here calls JavaScript.
#pragma once
#include <vector>

#include "attn/analysis.h"
#include "attn/attention.h"
#include "attn/dims.h"
#include "attn/lesson.h"
#include "json.h"

namespace bind {

/// { d_model, n_heads, d_k, d_v, bias } as the fields of the object being written.
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
void write(Json& j, const std::vector<attn::LessonExample>& examples);
void write(Json& j, const std::vector<attn::ModelPreset>& presets);

}  // namespace bind
