// Conversions between JavaScript values and the core's types, and the guard that turns a C++
// error into a JavaScript Error carrying the same message. No maths lives here.
#pragma once
#include <emscripten/val.h>

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <string>
#include <vector>

#include "attn/analysis.h"
#include "attn/attention.h"
#include "attn/lesson.h"

namespace bind {

using emscripten::val;

/// Throws a JavaScript Error whose message is the text saved by save_error_message (never returns).
/// Nothing of the C++ side is left behind: the text lives in one reused buffer.
[[noreturn]] void throw_saved_error();
/// Keeps a copy of the message for throw_saved_error.
void save_error_message(const char* message);

/// Drops a JavaScript value's Embind handle now, leaving v empty (its destructor then does nothing).
inline void release(val& v) { val gone(std::move(v)); }

/// Runs f; any C++ exception reaches JavaScript as an Error with the same message. The JS throw
/// happens after the catch block has ended, so the C++ exception object is freed first (a JS
/// throw skips C++ cleanup, and throwing from inside the catch leaked it on every error).
/// `args`: the binding's own val arguments. The JS throw skips their destructors too, so they
/// are released before it; otherwise every failed call would keep its arrays (inputs and
/// `into` destinations) alive in Embind's handle table for good.
template <class F, class... Args>
auto guarded(F&& f, Args&... args) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    save_error_message(e.what());
  }
  (release(args), ...);
  throw_saved_error();
}

/// A Float32Array copied into the wasm heap; a missing value becomes an empty vector.
std::vector<float> to_floats(const val& array);
/// A copy of n floats as a new Float32Array owned by JavaScript (never a view of the heap).
val to_js(const float* data, std::size_t n);
/// Sets result.output (n_output floats) and result.weights (n_weights floats, or null when
/// weights is nullptr), each copied into the caller's Float32Array (`into.output`,
/// `into.weights`; null = none) or into a new one. Both lengths are checked and the new arrays
/// made (allocating can fail) before anything is written into a caller's array, so a call
/// that throws leaves them untouched. Reusing an array skips the page faults of fresh JS
/// memory, most of a large copy's cost.
void set_results(val& result, const float* output, std::size_t n_output, const val& into_output,
                 const float* weights, std::size_t n_weights, const val& into_weights);
/// A whole number from JavaScript (checked for exactness by the JS layer), as 64 bits.
std::uint64_t to_u64(const val& number);

/// { causal: bool, padding: number[] | null, matrix: Uint8Array | null } → Mask.
attn::Mask to_mask(const val& mask);
/// { mask, scale, dropout, training, seed } → the attention options.
void read_attention_options(const val& options, attn::AttentionOptions& out);

/// { name: number, ... } from a list of fields (counts arrive as doubles, exact up to 2^53).
val numbers_to_js(std::initializer_list<std::pair<const char*, double>> fields);

val masked_rows_to_js(const std::vector<attn::MaskedRow>& rows);
val trace_to_js(const std::vector<attn::TensorInfo>& trace);
val params_to_js(const attn::ParameterCounts& p);
val flops_to_js(const attn::FlopCounts& f);
val memory_to_js(const attn::RunMemory& m);
val sqrt_dk_to_js(const attn::SqrtDkStats& s);
val lesson_to_js(const std::vector<attn::LessonExample>& examples);
val presets_to_js(const std::vector<attn::ModelPreset>& presets);

}  // namespace bind
