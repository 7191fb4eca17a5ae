// The bindings both wasm modules share (see layers.h), following the binding pattern of embind.cpp.
#include <emscripten/bind.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/mha.h"
#include "core/simd.h"
#include "call.h"
#include "convert.h"
#include "heap_count.h"
#include "layers.h"
#include "record.h"

namespace bind {
namespace {

// ---- the call slot, driven by the JS wrapper -------------------------------------------

bool call_open() { return current_call().open(); }
void call_close() { current_call().close(); }
double call_input(double bytes) {
  if (!(bytes >= 0) || bytes > 4294967295.0) return 0;
  return static_cast<double>(current_call().add_input(static_cast<std::size_t>(bytes)));
}

// ---- multi-head attention layers, owned by JavaScript through an id ----------------------

// Ids rather than addresses: a stale or forged id is an error message, never a dangling pointer.
std::unordered_map<std::uint32_t, std::unique_ptr<attn::MultiHeadAttention>>& layers() {
  static std::unordered_map<std::uint32_t, std::unique_ptr<attn::MultiHeadAttention>> all;
  return all;
}

attn::MultiHeadAttention& layer(double id) {
  const auto it = id >= 1 && id <= 4294967295.0 ? layers().find(static_cast<std::uint32_t>(id)) : layers().end();
  if (it == layers().end()) throw std::invalid_argument("this MultiHeadAttention was deleted");
  return *it->second;
}

// A layer's sizes from a record: d_model, n_heads, d_k, d_v (0: d_model / n_heads), bias and
// n_kv_heads (absent: not given, n_heads); the core checks the values.
attn::MhaConfig config_of(Record& r) {
  attn::MhaConfig config;
  config.d_model = r.integer("d_model");
  config.n_heads = r.integer("n_heads");
  config.d_k = r.integer("d_k");
  config.d_v = r.integer("d_v");
  config.bias = r.boolean("bias");
  if (r.optional_number("n_kv_heads")) config.n_kv_heads = r.integer("n_kv_heads");
  return config;
}

// value: { layer: id, dims: { d_model, n_heads, n_kv_heads, d_k, d_v, bias } }
std::string mha_create(double options) {
  return run([&](Json& value) {
    Record r("mhaCreate", options);
    attn::MhaConfig config = config_of(r);
    config.seed = r.seed("seed");
    r.done();
    auto made = std::make_unique<attn::MultiHeadAttention>(config);
    static std::uint32_t next_id = 1;
    const std::uint32_t id = next_id++;
    value.begin_object().field("layer", id).key("dims").begin_object();
    dims_fields(value, made->dims());
    value.end_object().end_object();
    layers().emplace(id, std::move(made));  // last: nothing after it can fail and orphan the layer
  });
}

void mha_delete(double id) {
  if (id >= 1 && id <= 4294967295.0) layers().erase(static_cast<std::uint32_t>(id));
  // The table's buckets back to what the layers left need (none when none is left): else the
  // first layer ever made left 8 bytes in heapAllocated() after its delete(). Best effort: a
  // smaller bucket array that cannot be had leaves the larger one.
  try { layers().rehash(0); } catch (...) {}
}

// layer, and wq … bo: each an input of floats (0 = none, for the biases of a layer without them).
std::string mha_set_weights(double options) {
  return run([&](Json&) {
    Record r("mhaSetWeights", options);
    const Call& c = current_call();
    auto vec = [&](const char* name) {
      const Input<float> in = c.input<float>(r.address(name));
      return std::vector<float>(in.data, in.data + in.count);
    };
    attn::MultiHeadAttention& mha = layer(r.number("layer"));
    attn::MhaWeights w;
    w.wq = vec("wq");
    w.wk = vec("wk");
    w.wv = vec("wv");
    w.wo = vec("wo");
    w.bq = vec("bq");
    w.bk = vec("bk");
    w.bv = vec("bv");
    w.bo = vec("bo");
    r.done();
    mha.set_weights(w);
  });
}

// arrays wq, wk, wv, wo and, when the layer has biases, bq, bk, bv, bo.
std::string mha_get_weights(double id) {
  return run([&](Json&) {
    attn::MhaWeights w = layer(id).weights();
    Call& c = current_call();
    std::pair<const char*, std::vector<float>*> all[] = {{"wq", &w.wq}, {"wk", &w.wk}, {"wv", &w.wv}, {"wo", &w.wo},
                                                         {"bq", &w.bq}, {"bk", &w.bk}, {"bv", &w.bv}, {"bo", &w.bo}};
    for (auto& [name, values] : all) {
      if (values->empty()) continue;
      const std::size_t n = values->size();
      c.add_array(name, c.keep(std::move(*values)), n);
    }
  });
}

std::string kernel_isa() { return attn::kernel_isa(); }
double heap_allocated() { return static_cast<double>(heap_bytes_live()); }
double default_memory_budget() { return static_cast<double>(attn::kDefaultMemoryBudget); }

}  // namespace

attn::MultiHeadAttention& layer_by_id(double id) { return layer(id); }
attn::MhaConfig layer_config(Record& r) { return config_of(r); }
}  // namespace bind

EMSCRIPTEN_BINDINGS(layers) {
  using namespace emscripten;
  function("callOpen", &bind::call_open);
  function("callClose", &bind::call_close);
  function("callInput", &bind::call_input);
  function("mhaCreate", &bind::mha_create);
  function("mhaDelete", &bind::mha_delete);
  function("mhaSetWeights", &bind::mha_set_weights);
  function("mhaGetWeights", &bind::mha_get_weights);
  function("kernelIsa", &bind::kernel_isa);
  function("heapAllocated", &bind::heap_allocated);
  function("defaultMemoryBudget", &bind::default_memory_budget);
}
