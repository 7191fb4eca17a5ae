// The one call from JavaScript into C++ in progress: the input buffers the JS wrapper filled
// before the binding ran, the attention options it staged, and the result arrays the binding
// left for the wrapper to copy out after it returned. Everything lives until close(), which
// the wrapper (web/src/engine/native.js) runs in a finally block: a JavaScript exception at
// any moment of a call frees it all, and no C++ frame is ever live while JavaScript runs.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/buffer.h"
#include "heap_count.h"
#include "json.h"

namespace bind {

/// An input buffer of the call: `count` elements of T at `data` (nullptr and 0 for none).
template <class T>
struct Input {
  T* data = nullptr;
  std::size_t count = 0;
};

class Call {
 public:
  /// Starts a call; false when one is already open (a call made from inside another).
  bool open();
  /// heapAllocated() when the open call started (its inputs come after); SIZE_MAX with none open.
  std::size_t live_at_open() const { return open_ ? live_at_open_ : static_cast<std::size_t>(-1); }
  /// Frees every input and result of the call and ends it. Never throws.
  void close() noexcept;

  /// `bytes` uninitialised bytes for the JS wrapper to fill; their address, or 0 when there
  /// is no call open or no memory left.
  std::uintptr_t add_input(std::size_t bytes) noexcept;
  /// The input at `address` (0: none) seen as elements of T. An address the call did not
  /// hand out is an internal error, reported rather than dereferenced.
  template <class T>
  Input<T> input(double address) const {
    const Buffer* b = find(address);
    if (!b) return {};
    return {reinterpret_cast<T*>(b->data.get()), b->bytes / sizeof(T)};
  }

  /// n floats owned by the call until close(), uninitialised (the core writes every value).
  float* new_floats(std::size_t n);
  /// Keeps v's storage until close() (no copy) and returns it.
  const float* keep(std::vector<float>&& v);
  /// Names `data` (n floats, owned by the call or one of its inputs) as result array `name`.
  void add_array(const char* name, const float* data, std::size_t n);

  /// The options of the attention call, staged by stageAttentionOptions before it runs.
  attn::AttentionOptions attention_options;

  /// {"value": value, "arrays": {"name": [address, length], ...}}: what a binding returns.
  std::string envelope(const Json& value) const;
  /// Drops the results of a binding that failed (its inputs stay until close()).
  void drop_results() noexcept;

 private:
  struct Buffer {
    std::unique_ptr<unsigned char[]> data;
    std::size_t bytes;
  };
  struct Array {
    const char* name;
    const float* data;
    std::size_t n;
  };
  const Buffer* find(double address) const;
  void require_open(const char* what) const;

  bool open_ = false;
  std::size_t live_at_open_ = 0;
  std::vector<Buffer> inputs_;
  std::vector<std::unique_ptr<float[]>> owned_;
  std::vector<std::vector<float>> kept_;
  std::vector<Array> arrays_;
};

/// The call slot of this module (wasm runs one call at a time).
Call& current_call();

/// {"error": message}; an empty string if even that cannot be allocated. Never throws.
std::string error_envelope(const char* message) noexcept;

/// The error of a call that ran out of memory (std::bad_alloc): at least how many bytes it
/// needed, from the failed allocation and what the call held since `live_at_start` (also named:
/// what live layers and trainers held before it), the size
/// of the wasm memory, and what to change. Call it after the call's buffers are freed.
std::string out_of_memory_envelope(std::size_t live_at_start) noexcept;

/// Runs a binding's body f(Json& value) and returns the envelope of its results, or of the
/// error it threw. Every binding that can fail returns through here: C++ errors become text
/// for the JS wrapper to throw, so no JavaScript exception ever unwinds a C++ frame. Whatever
/// the outcome, the engine's scratch buffers are freed before it returns (attn::release_scratch),
/// so heapAllocated() after a call is what it was before, apart from what the call keeps on
/// purpose (a layer, a trainer) and its results until callClose.
template <class F>
std::string run(F&& f) noexcept {
  const std::size_t live_at_start = std::min(current_call().live_at_open(), heap_bytes_live());
  forget_failed_allocation();
  std::string envelope;
  try {
    Json value;
    f(value);
    envelope = current_call().envelope(value);
  } catch (const std::bad_alloc&) {
    current_call().drop_results();
    attn::release_scratch();  // first, so the message itself has room
    envelope = out_of_memory_envelope(live_at_start);
  } catch (const std::exception& e) {
    current_call().drop_results();
    envelope = error_envelope(e.what());
  } catch (...) {
    current_call().drop_results();
    envelope = error_envelope("an unexpected error in the engine");
  }
  attn::release_scratch();
  return envelope;
}

}  // namespace bind
