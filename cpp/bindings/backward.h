// The Embind side of the backward pass: its results as JavaScript objects. No maths lives here.
#pragma once
#include <emscripten/val.h>

#include "attn/backward.h"

namespace bind {

/// { output, grads: { wq, wk, wv, wo, bq, bk, bv, bo, query, key, value }, weights, score_grads,
/// masked_rows }: new Float32Arrays, biases null when off, weights and score_grads null unless asked.
emscripten::val mha_backward_to_js(const attn::MhaBackwardResult& r);

}  // namespace bind
