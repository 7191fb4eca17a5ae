// The call slot: input buffers, staged options and result arrays of the call in progress.
#include "call.h"

#include <new>
#include <stdexcept>

namespace bind {

bool Call::open() {
  if (open_) return false;
  open_ = true;
  return true;
}

void Call::close() noexcept {
  inputs_.clear();
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
  arrays_.clear();
  owned_.clear();
  kept_.clear();
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

}  // namespace bind
