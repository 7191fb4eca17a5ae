// The call slot: input buffers, staged options and result arrays of the call in progress.
#include "call.h"

#include <new>
#include <stdexcept>

#include "core/error.h"

namespace bind {

bool Call::open() {
  if (open_) return false;
  open_ = true;
  live_at_open_ = heap_bytes_live();
  return true;
}

void Call::close() noexcept {
  // The list's storage too: a call with more inputs than any before (a record each) must not
  // leave a larger list behind in heapAllocated().
  std::vector<Buffer>().swap(inputs_);
  drop_results();
  attention_options = attn::AttentionOptions{};
  open_ = false;
}

void Call::require_open(const char* what) const {
  if (!open_) throw std::logic_error(std::string("internal error: ") + what + " outside a call");
}

std::uintptr_t Call::add_input(std::size_t bytes) noexcept {
  if (!open_) return 0;
  try {
    // At least one byte, so that an empty input still has an address of its own.
    std::unique_ptr<unsigned char[]> data(new (std::nothrow) unsigned char[bytes > 0 ? bytes : 1]);
    if (!data) return 0;
    const auto address = reinterpret_cast<std::uintptr_t>(data.get());
    inputs_.push_back({std::move(data), bytes});
    return address;
  } catch (...) {
    return 0;  // the list itself could not grow
  }
}

const Call::Buffer* Call::find(double address) const {
  if (address == 0) return nullptr;
  for (const Buffer& b : inputs_)
    if (static_cast<double>(reinterpret_cast<std::uintptr_t>(b.data.get())) == address) return &b;
  throw std::logic_error("internal error: a binding was given an address that is not an input of this call");
}

float* Call::new_floats(std::size_t n) {
  require_open("a result array");
  std::unique_ptr<float[]> data(new float[n > 0 ? n : 1]);
  owned_.push_back(std::move(data));  // if the list cannot grow, data is still freed
  return owned_.back().get();
}

const float* Call::keep(std::vector<float>&& v) {
  require_open("a result array");
  kept_.push_back(std::move(v));
  return kept_.back().data();
}

void Call::add_array(const char* name, const float* data, std::size_t n) {
  require_open("a result array");
  arrays_.push_back({name, data, n});
}

std::string Call::envelope(const Json& value) const {
  std::string out = "{\"value\":";
  out += value.empty() ? "null" : value.text();
  Json arrays;
  arrays.begin_object();
  for (const Array& a : arrays_) {
    arrays.key(a.name).begin_array();
    arrays.number(static_cast<double>(reinterpret_cast<std::uintptr_t>(a.data))).number(static_cast<double>(a.n));
    arrays.end_array();
  }
  arrays.end_object();
  out += ",\"arrays\":";
  out += arrays.text();
  out += '}';
  return out;
}

void Call::drop_results() noexcept {
  // With their storage: see close().
  decltype(arrays_)().swap(arrays_);
  decltype(owned_)().swap(owned_);
  decltype(kept_)().swap(kept_);
}

Call& current_call() {
  static Call call;
  return call;
}

std::string error_envelope(const char* message) noexcept {
  try {
    Json j;
    j.begin_object().key("error").string(message).end_object();
    return j.text();
  } catch (...) {
    return std::string();  // the JS side reports an engine out of memory
  }
}

std::string out_of_memory_envelope(std::size_t live_at_start) noexcept {
  const FailedAllocation failed = last_failed_allocation();
  try {
    using attn::group_digits;
    using attn::human_bytes;
    const auto bytes = [](std::uint64_t b) { return group_digits(b) + " bytes (" + human_bytes(static_cast<double>(b)) + ")"; };
    std::string message = "the engine ran out of memory: ";
    if (failed.bytes > 0) {
      // What the call held when the allocation failed, plus what it asked for then: a lower
      // bound on what it needed (a later step might have needed more).
      const std::uint64_t held = failed.live > live_at_start ? failed.live - live_at_start : 0;
      message += "this call needed more than " + bytes(held + failed.bytes) + " (it held " + group_digits(held) +
                 " bytes when a further " + group_digits(failed.bytes) + " could not be allocated)";
    } else {
      message += "this call asked for a block larger than the address space";
    }
    if (memory_bytes_max() > 0)
      message += ", and the wasm memory (" + human_bytes(static_cast<double>(memory_bytes_now())) +
                 " now) cannot grow past " + human_bytes(static_cast<double>(memory_bytes_max()));
    // What was live as the call began is what JavaScript keeps: layers and trainers (a layer's
    // constructor has no n or batch to reduce; its cause is often the layers made before it).
    message += ". Layers and trainers alive held " + bytes(live_at_start) +
               " before it: delete() those no longer needed, use smaller sizes (d_model, n_q, n_k, batch, n_heads) "
               "or split the work into several calls; the engine is still usable.";
    return error_envelope(message.c_str());
  } catch (...) {
    return error_envelope("the engine ran out of memory: delete() layers and trainers no longer needed or use smaller "
                          "sizes (d_model, n_q, n_k, batch, n_heads); the engine is still usable.");
  }
}

}  // namespace bind
