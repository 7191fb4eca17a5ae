// The Embind surface of decoding with a key/value cache (labs/kv_cache.h), following the binding
// pattern at the top of embind.cpp: one record in, a JSON envelope out, float arrays kept by the
// call. One binding serves every operation (its record's `op`), because each binding's run() is
// a copy of the envelope code in the module (about 0.7 kB each). Caches are owned by JavaScript
// through an id, as layers are, and remember the id of the layer that made them (ids are never
// reused, addresses may be). The JavaScript side is web/src/engine/kv_cache.js.
#include <emscripten/bind.h>

#include <algorithm>
#include <initializer_list>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "labs/kv_cache.h"
#include "call.h"
#include "convert.h"
#include "layers.h"
#include "record.h"

namespace bind {

namespace {

struct CacheEntry {
  std::uint32_t id;
  double layer;
  std::unique_ptr<attn::KVCache> cache;
};

// A short list (a page holds a few caches): searched by id; emptied to no storage at all, so
// heapAllocated() is back where it was once every cache is deleted.
std::vector<CacheEntry>& caches() {
  static std::vector<CacheEntry> all;
  return all;
}

CacheEntry& entry(double id) {
  for (CacheEntry& e : caches())
    if (e.id == id) return e;
  throw std::invalid_argument("this KV cache was deleted");
}

void keep(const char* name, std::vector<float>& v) {
  Call& c = current_call();
  const std::size_t n = v.size();
  c.add_array(name, c.keep(std::move(v)), n);
}

// The value of a call: numbers in an order kv_cache.js names (a JSON array costs the module less
// than named fields).
void numbers(Json& j, std::initializer_list<double> values) {
  j.begin_array();
  for (double v : values) j.number(v);
  j.end_array();
}

enum Op { create, decode, read, clear, cost };

// op 0 create: layer, max_len, memory_budget.
// op 1 decode: layer, cache, x (an input of d_model floats), scale, positional (0 none, 1 rope,
//   2 alibi), rope_base (absent: not given) → arrays output [d_model], weights [n_heads, t].
// op 2 read: cache → arrays keys [n_kv_heads, length, d_k], values [n_kv_heads, length, d_v].
// op 3 clear: cache.
// Each of these values [length, max_len, bytes, bytes_used, bytes_per_token, the newest cache's
// id] after it (the id is the made cache's for create).
// op 4 cost: the layer's sizes as for mhaCreate, t, n_layers, scale → [d_model, n_heads,
//   n_kv_heads, d_k, d_v], then attn::DecodeCost's fields in their order.
std::string kv_cache(double options) {
  return run([&](Json& value) {
    Record r("kvCache", options);
    const int op = r.integer("op");
    if (op == cost) {
      const attn::MhaConfig config = layer_config(r);
      const int t = r.integer("t"), n_layers = r.integer("n_layers");
      const bool scale = r.boolean("scale");
      r.done();
      const attn::MhaDims d = attn::resolve_dims(config);
      const attn::DecodeCost c = attn::decode_cost(d, t, n_layers, scale);
      numbers(value, {double(d.d_model), double(d.n_heads), double(d.n_kv_heads), double(d.d_k), double(d.d_v), double(c.t),
                      double(c.n_layers), double(c.cache_bytes_per_token), double(c.cache_bytes), double(c.model_cache_bytes),
                      double(c.mha_model_cache_bytes), double(c.step_flops), double(c.step_projection_flops),
                      double(c.step_attention_flops), double(c.recompute_flops), double(c.recompute_projection_flops),
                      double(c.recompute_attention_flops), c.speedup, double(c.total_flops), double(c.total_recompute_flops),
                      double(c.model_step_flops), double(c.model_recompute_flops)});
      return;
    }
    attn::KVCache* cache = nullptr;
    if (op == create) {
      const double layer = r.number("layer");
      const int max_len = r.integer("max_len");
      const double budget = r.number("memory_budget");
      r.done();
      auto made = std::make_unique<attn::KVCache>(layer_by_id(layer), max_len, static_cast<std::uint64_t>(budget));
      static std::uint32_t next_id = 1;
      caches().push_back({next_id++, layer, std::move(made)});  // nothing after it can fail
      cache = caches().back().cache.get();
    } else {
      CacheEntry& e = entry(r.number("cache"));
      // A deleted layer's caches are deleted with it (kv_cache.js); this never reads a dangling one.
      const attn::MultiHeadAttention& layer = layer_by_id(e.layer);
      cache = e.cache.get();
      if (op == decode) {
        if (e.layer != r.number("layer"))
          throw std::invalid_argument("this KV cache was made by another layer: a cache holds the keys and values of the "
                                      "layer that made it (layer.createKVCache)");
        const Input<float> x = current_call().input<float>(r.address("x"));
        attn::DecodeOptions opt;
        opt.scale = r.boolean("scale");
        opt.positional = static_cast<attn::Positional>(std::min(std::max(r.integer("positional"), 0), 2));
        opt.rope_base = r.optional_number("rope_base");  // absent: not given
        r.done();
        attn::DecodeResult d = attn::decode_step(layer, *cache, x.data, x.count, opt);
        keep("output", d.output);
        keep("weights", d.weights);
      } else if (op == read) {
        r.done();
        const attn::MhaDims& d = layer.dims();
        const std::size_t n = cache->length();
        std::vector<float> keys(n * d.n_kv_heads * d.d_k), values(n * d.n_kv_heads * d.d_v);
        for (int g = 0; g < d.n_kv_heads; ++g) {
          std::copy_n(cache->keys(g), n * d.d_k, keys.data() + g * n * d.d_k);
          std::copy_n(cache->values(g), n * d.d_v, values.data() + g * n * d.d_v);
        }
        keep("keys", keys);
        keep("values", values);
      } else {
        r.done();
        cache->clear();
      }
    }
    numbers(value, {double(cache->length()), double(cache->max_len()), double(cache->bytes()), double(cache->bytes_used()),
                    double(cache->bytes_per_token()), double(caches().back().id)});
  });
}

void kv_cache_delete(double id) {
  std::vector<CacheEntry>& all = caches();
  for (CacheEntry& e : all)
    if (e.id == id) {
      std::swap(e, all.back());
      all.pop_back();
      break;
    }
  // The list's spare capacity too (libc++'s shrink_to_fit reallocates to the exact size, and
  // keeps the list as it was if that fails): two caches, then one deleted, left 24 bytes counted.
  if (all.empty()) std::vector<CacheEntry>().swap(all);
  else all.shrink_to_fit();
}

}  // namespace
}  // namespace bind

EMSCRIPTEN_BINDINGS(kv_cache) {
  using namespace emscripten;
  emscripten::function("kvCache", &bind::kv_cache);
  emscripten::function("kvCacheDelete", &bind::kv_cache_delete);
}
