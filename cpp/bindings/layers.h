// What both wasm modules (the core's, embind.cpp, and the labs', labs_embind.cpp) bind alike: the
// call slot the JS wrapper drives (engine/native.js), the table of multi-head attention layers that
// JavaScript owns through an id, and the module's facts (heap, budget, kernel set). layers.cpp
// registers them; each module has its own heap and so its own table (the labs module holds copies of
// the core's layers, engine/labs.js).
#pragma once

#include "core/mha.h"
#include "record.h"

namespace bind {

// A live layer by its id, or the deleted-layer error.
attn::MultiHeadAttention& layer_by_id(double id);
// A layer's sizes from a record: d_model, n_heads, d_k, d_v (0: d_model / n_heads), bias and
// n_kv_heads (absent: not given, n_heads); the core checks the values.
attn::MhaConfig layer_config(Record& r);

}  // namespace bind
