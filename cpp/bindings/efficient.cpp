// The Embind surface of efficient attention's teaching paths: FlashAttention one tile at a time
// (attn/flash.h) and linear attention (attn/linear_attention.h), following the binding pattern at
// the top of embind.cpp: one record in, a JSON envelope out, float arrays kept by the call. The
// JavaScript side is web/src/engine/efficient.js.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "attn/flash.h"
#include "attn/linear_attention.h"
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
void numbers(Json& j, const std::vector<T>& values) {
  j.begin_array();
  for (T x : values) j.number(static_cast<double>(x));
  j.end_array();
}

void write_count(Json& j, const char* name, const attn::IoCount& c) {
  j.key(name).begin_object().key("terms").begin_array();
  for (const attn::IoTerm& t : c.terms)
    j.begin_object().field("what", t.what).field("formula", t.formula).field("reads", t.reads)
        .field("writes", t.writes).end_object();
  j.end_array().field("reads", c.reads).field("writes", c.writes).field("total", c.total)
      .field("order", c.order).field("order_value", c.order_value).end_object();
}

void write_io(Json& j, const attn::FlashIo& io) {
  j.begin_object().field("sram", io.sram).field("block_q", io.block_q).field("block_k", io.block_k)
      .field("query_blocks", io.query_blocks).field("key_blocks", io.key_blocks)
      .field("default_block_q", io.default_block_q).field("default_block_k", io.default_block_k)
      .field("sram_needed", io.sram_needed).field("s_tile", io.s_tile).field("fits", io.fits)
      .field("blocks_loaded", io.blocks_loaded);
  write_count(j, "standard", io.standard);
  write_count(j, "tiled", io.tiled);
  j.field("ratio", io.ratio).end_object();
}

// The sizes shared by both attentions' records.
struct Sizes {
  int batch, n_q, n_k, d_k, d_v;
};
Sizes sizes_of(Record& r) {
  return {r.integer("batch"), r.integer("n_q"), r.integer("n_k"), r.integer("d_k"), r.integer("d_v")};
}

// query, key, value: inputs of floats; causal, scale; block_q, block_k (0: the default for sram);
// sram; item, query_index (−1: no trace). value: { tiles: [...], io }; array output.
std::string flash_attention(double options) {
  return run([&](Json& value) {
    Call& c = current_call();
    Record r("flashAttention", options);
    const Input<float> q = c.input<float>(r.address("query")), k = c.input<float>(r.address("key")),
                       v = c.input<float>(r.address("value"));
    const Sizes s = sizes_of(r);
    attn::FlashOptions o;
    o.causal = r.boolean("causal");
    o.scale = r.boolean("scale");
    o.block_q = r.integer("block_q");
    o.block_k = r.integer("block_k");
    o.sram = static_cast<std::int64_t>(r.number("sram"));  // a whole number checked by the wrapper; range by the core
    o.trace_item = r.integer("item");
    o.trace_row = r.integer("query_index");
    r.done();
    attn::FlashResult f = attn::flash_attention(q.data, q.count, k.data, k.count, v.data, v.count, s.batch, s.n_q,
                                                s.n_k, s.d_k, s.d_v, o);
    keep_array("output", std::move(f.output));
    value.begin_object().key("tiles").begin_array();
    for (const attn::FlashTile& t : f.tiles) {
      value.begin_object().field("key_start", t.key_start).field("key_end", t.key_end).field("m", t.m)
          .field("l", t.l).key("o");
      numbers(value, t.o);
      value.field("m_prev", t.m_prev).field("rescale", t.rescale).field("block_max", t.block_max)
          .field("block_sum", t.block_sum).field("visible", t.visible).field("skipped", t.skipped).key("logits");
      numbers(value, t.logits);
      value.end_object();
    }
    value.end_array().key("io");
    write_io(value, f.io);
    value.end_object();
  });
}

// The IO model alone: batch, n_q, n_k, d_k, d_v, causal, block_q, block_k, sram. value: io.
std::string flash_io(double options) {
  return run([&](Json& value) {
    Record r("flashIo", options);
    const Sizes s = sizes_of(r);
    const bool causal = r.boolean("causal");
    const int block_q = r.integer("block_q"), block_k = r.integer("block_k");
    const auto sram = static_cast<std::int64_t>(r.number("sram"));
    r.done();
    write_io(value, attn::flash_io(s.batch, s.n_q, s.n_k, s.d_k, s.d_v, causal, block_q, block_k, sram));
  });
}

// query, key, value: inputs of floats; causal. array output.
std::string linear_attention(double options) {
  return run([&](Json&) {
    Call& c = current_call();
    Record r("linearAttention", options);
    const Input<float> q = c.input<float>(r.address("query")), k = c.input<float>(r.address("key")),
                       v = c.input<float>(r.address("value"));
    const Sizes s = sizes_of(r);
    const bool causal = r.boolean("causal");
    r.done();
    keep_array("output", attn::linear_attention(q.data, q.count, k.data, k.count, v.data, v.count, s.batch, s.n_q,
                                                s.n_k, s.d_k, s.d_v, causal));
  });
}

void write_flops(Json& j, const char* name, const attn::FlopCount& c) {
  j.key(name).begin_object().key("terms").begin_array();
  for (const attn::FlopTerm& t : c.terms)
    j.begin_object().field("what", t.what).field("formula", t.formula).field("flops", t.flops).end_object();
  j.end_array().field("total", c.total).field("order", c.order).end_object();
}

// value: { softmax, linear, crossover_n, ratio }.
std::string linear_attention_cost(int n, int d_k, int d_v, bool causal) {
  return run([&](Json& value) {
    const attn::LinearAttentionCost c = attn::linear_attention_cost(n, d_k, d_v, causal);
    value.begin_object();
    write_flops(value, "softmax", c.softmax);
    write_flops(value, "linear", c.linear);
    value.field("crossover_n", c.crossover_n).field("ratio", c.ratio).end_object();
  });
}

}  // namespace
}  // namespace bind

EMSCRIPTEN_BINDINGS(efficient) {
  using namespace emscripten;
  function("flashAttention", &bind::flash_attention);
  function("flashIo", &bind::flash_io);
  function("linearAttention", &bind::linear_attention);
  function("linearAttentionCost", &bind::linear_attention_cost);
}
