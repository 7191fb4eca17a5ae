// The Embind surface of efficient attention's teaching paths: FlashAttention one tile at a time
// (labs/flash.h) and linear attention (labs/linear_attention.h), following the binding pattern at
// the top of embind.cpp: one record in, a JSON envelope out, float arrays kept by the call. The
// JavaScript side is web/src/engine/efficient.js.
#include <emscripten/bind.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "labs/flash.h"
#include "labs/linear_attention.h"
#include "call.h"
#include "record.h"

namespace bind {
namespace {

void keep_array(const char* name, std::vector<float>&& v) {
  Call& c = current_call();
  const std::size_t n = v.size();
  c.add_array(name, c.keep(std::move(v)), n);
}

template <class T>
void numbers(Json& j, const T* values, std::size_t n) {
  j.begin_array();
  for (std::size_t x = 0; x < n; ++x) j.number(static_cast<double>(values[x]));
  j.end_array();
}

// { reads: [...], writes: [...], read_total, write_total, total, order_value } (terms in flash.h's order).
template <int N>
void write_side(Json& j, const char* name, const attn::IoSide<N>& s) {
  j.key(name).begin_object().key("reads");
  numbers(j, s.reads, N);
  j.key("writes");
  numbers(j, s.writes, N);
  j.field("read_total", s.read_total).field("write_total", s.write_total).field("total", s.total)
      .field("order_value", s.order_value).end_object();
}

void write_io(Json& j, const attn::FlashIo& io) {
  j.begin_object().field("sram", io.sram).field("block_q", io.block_q).field("block_k", io.block_k)
      .field("query_blocks", io.query_blocks).field("key_blocks", io.key_blocks)
      .field("default_block_q", io.default_block_q).field("default_block_k", io.default_block_k)
      .field("paper_block_q", io.paper_block_q).field("paper_block_k", io.paper_block_k)
      .field("sram_needed", io.sram_needed).field("s_tile", io.s_tile).field("fits", io.fits)
      .field("blocks_loaded", io.blocks_loaded);
  write_side(j, "standard", io.standard);
  write_side(j, "tiled", io.tiled);
  j.field("ratio", io.ratio).end_object();
}

// The sizes shared by both attentions' records.
struct Sizes {
  int batch, n_q, n_k, d_k, d_v;
};
Sizes sizes_of(Record& r) {
  return {r.integer("batch"), r.integer("n_q"), r.integer("n_k"), r.integer("d_k"), r.integer("d_v")};
}

// flashAttention: query, key, value: inputs of floats; causal, scale; block_q, block_k (0: the default for sram);
// sram; item, query_index (−1: no trace). value: { stats, logits, io }; arrays output and tile_o
// (d_v per key block of the trace).
void flash_attention(Record& r, Json& value) {
  Call& c = current_call();
  const Input<float> q = c.input<float>(r.address("query")), k = c.input<float>(r.address("key")),
                     v = c.input<float>(r.address("value"));
  const Sizes s = sizes_of(r);
  attn::FlashOptions o;
  o.causal = r.boolean("causal");
  o.scale = r.boolean("scale");
  o.block_q = r.integer("block_q");
  o.block_k = r.integer("block_k");
  // A whole number checked by the wrapper, its range by the core; absent: FlashOptions' default, the only one.
  if (const std::optional<double> sram = r.optional_number("sram")) o.sram = static_cast<std::int64_t>(*sram);
  o.trace_item = r.integer("item");
  o.trace_row = r.integer("query_index");
  r.done();
  attn::FlashResult f = attn::flash_attention(q.data, q.count, k.data, k.count, v.data, v.count, s.batch, s.n_q,
                                              s.n_k, s.d_k, s.d_v, o);
  keep_array("output", std::move(f.output));
  keep_array("tile_o", std::move(f.trace.o));
  // stats: kTileFields numbers per key block (flash.h's order); logits: the row's n_k logits (or []).
  value.begin_object().key("stats");
  numbers(value, f.trace.stats.data(), f.trace.stats.size());
  value.key("logits");
  numbers(value, f.trace.logits.data(), f.trace.logits.size());
  value.key("io");
  write_io(value, f.io);
  value.end_object();
}

// linearAttention: query, key, value: inputs of floats; causal. array output.
void linear_attention(Record& r) {
  Call& c = current_call();
  const Input<float> q = c.input<float>(r.address("query")), k = c.input<float>(r.address("key")),
                     v = c.input<float>(r.address("value"));
  const Sizes s = sizes_of(r);
  const bool causal = r.boolean("causal");
  r.done();
  keep_array("output", attn::linear_attention(q.data, q.count, k.data, k.count, v.data, v.count, s.batch, s.n_q,
                                              s.n_k, s.d_k, s.d_v, causal));
}

// linearAttentionCost: n, d_k, d_v, causal. value: { softmax: [3 terms], linear: [6 terms], softmax_total,
// linear_total, crossover_n, ratio } (terms in linear_attention.h's order).
void linear_attention_cost(Record& r, Json& value) {
  const int n = r.integer("n"), d_k = r.integer("d_k"), d_v = r.integer("d_v");
  const bool causal = r.boolean("causal");
  r.done();
  const attn::LinearAttentionCost c = attn::linear_attention_cost(n, d_k, d_v, causal);
  value.begin_object().key("softmax");
  numbers(value, c.softmax, 3);
  value.key("linear");
  numbers(value, c.linear, 6);
  value.field("softmax_total", c.softmax_total).field("linear_total", c.linear_total)
      .field("crossover_n", c.crossover_n).field("ratio", c.ratio).end_object();
}

// The one entry point of the three calls (one run() instantiation in the module, not three): `call`
// says which (0 flashAttention, 1 linearAttention, 2 linearAttentionCost), `options` is its record.
const char* const kCalls[] = {"flashAttention", "linearAttention", "linearAttentionCost"};
std::string efficient_call(int call, double options) {
  return run([&](Json& value) {
    if (call < 0 || call > 2) throw std::invalid_argument("internal error: no efficient-attention call " + std::to_string(call));
    Record r(kCalls[call], options);
    if (call == 0) flash_attention(r, value);
    else if (call == 1) linear_attention(r);
    else linear_attention_cost(r, value);
  });
}

}  // namespace
}  // namespace bind

EMSCRIPTEN_BINDINGS(efficient) {
  using namespace emscripten;
  function("efficientCall", &bind::efficient_call);
}
