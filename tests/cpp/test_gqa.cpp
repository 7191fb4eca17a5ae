// Grouped-query and multi-query attention: the engine against the float64 reference run on
// multi-head weights whose K and V heads were repeated by hand (repeat_interleave), bit for bit
// against plain MHA, every bad n_kv_heads by its message, the analysis that follows n_kv_heads
// (parameters, FLOPs, shapes, memory, key/value cache), and head_mask.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/model_presets.h"
#include "core/mha.h"
#include "check.h"
#include "mha_fixtures.h"
#include "reference.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_gqa {

using namespace fixtures;

namespace {

struct GqaCase {
  const char* name;
  int d_model, n_heads, n_kv_heads, d_k, d_v;  // d_k, d_v 0: d_model / n_heads
  bool bias;
  int batch, n_q, n_k;
  bool self;
  unsigned mask;
  bool scale;
  float dropout;  // training mode when > 0
};

const std::vector<GqaCase>& gqa_cases() {
  const int QB = attn::kQueryBlock, KT = attn::kKeyTile;
  static const std::vector<GqaCase> all = {
      {"GQA 4 heads / 2, self, causal", 32, 4, 2, 0, 0, true, 2, 11, 11, true, kCausal, true, 0.0f},
      {"MQA 8 heads / 1, cross, padding", 32, 8, 1, 0, 0, true, 3, 7, 19, false, kPadding, true, 0.0f},
      {"GQA 6 / 3, d_k != d_v, matrix mask, dropout", 24, 6, 3, 5, 7, false, 2, 9, 13, false, kMatrix, true, 0.2f},
      {"GQA 6 / 2, two query blocks, causal + padding", 48, 6, 2, 0, 0, true, 1, QB + 6, QB + 6, true,
       kCausal | kPadding, true, 0.0f},
      {"GQA 4 / 2 across key tiles, unscaled", 16, 4, 2, 0, 0, true, 2, 33, KT + 1, false, kNone, false, 0.0f},
      {"MQA 12 / 1, d_k = 2", 24, 12, 1, 0, 0, true, 1, 6, 6, true, kNone, true, 0.0f},
  };
  return all;
}

attn::MhaConfig gqa_config(int d_model, int n_heads, int n_kv_heads, int d_k = 0, int d_v = 0, bool bias = true,
                           std::uint64_t seed = 1) {
  attn::MhaConfig c = check::mha_config(d_model, n_heads, d_k, d_v, bias, seed);
  c.n_kv_heads = n_kv_heads;
  return c;
}

}  // namespace

TEST_CASE("GQA and MQA match the float64 reference with K and V heads repeated by hand", "[gqa]") {
  double max_out = 0.0, max_w = 0.0;
  std::uint64_t seed = 40;
  for (const GqaCase& c : gqa_cases()) {
    ++seed;
    attn::MultiHeadAttention layer(gqa_config(c.d_model, c.n_heads, c.n_kv_heads, c.d_k, c.d_v, c.bias, seed));
    layer.set_weights(random_weights(layer.dims(), seed * 3));
    const attn::MhaDims& d = layer.dims();
    REQUIRE(d.n_kv_heads == c.n_kv_heads);
    const attn::MhaWeights expanded = repeated_as_mha(layer.weights(), d);
    const Inputs in = make_inputs(c.d_model, c.batch, c.n_q, c.n_k, seed * 5);
    const attn::MhaInput input = in.view(c.self, c.batch, c.n_q, c.n_k);
    attn::ForwardOptions opt = case_options(c.mask, c.scale, c.dropout, c.batch, c.n_q, input.n_k, seed);
    const reference::MhaRef want = reference::mha(expanded, d.d_model, d.n_heads, d.d_k, d.d_v, input.query, input.key,
                                                  input.value, c.batch, c.n_q, input.n_k, opt);
    for (int path : {0, 1, 2}) {
      INFO(c.name << ", path " << path);
      set_path(opt, path);
      const attn::MhaResult got = layer.forward(input, opt);
      const check::Worst wo = check::normwise(got.output, want.output);
      INFO("output: " << wo.describe());
      CHECK(wo.err <= 1e-5);
      max_out = std::max(max_out, wo.err);
      CHECK(rows_of(got.masked_rows) == rows_of(want.masked_rows));
      if (path != 0) continue;
      const check::Worst ww = check::max_abs(got.weights, want.weights);
      INFO("weights: " << ww.describe());
      CHECK(ww.err <= 1e-5);
      max_w = std::max(max_w, ww.err);
    }
  }
  WARN("GQA vs float64 with repeated heads: max normwise output error " << max_out << ", max weight error " << max_w);
}

TEST_CASE("n_kv_heads = n_heads is multi-head attention bit for bit, and GQA equals MHA on repeated weights", "[gqa]") {
  const Inputs in = make_inputs(32, 2, attn::kQueryBlock + 3, 40, 3);
  attn::ForwardOptions opt;
  opt.mask.causal = true;
  SECTION("n_kv_heads given as n_heads: the same default weights and outputs as not given") {
    const attn::MultiHeadAttention mha(check::mha_config(32, 4, 0, 0, true, 9));
    const attn::MultiHeadAttention gqa(gqa_config(32, 4, 4, 0, 0, true, 9));
    CHECK(gqa.dims().n_kv_heads == 4);
    CHECK(mha.dims().n_kv_heads == 4);
    CHECK(gqa.weights().wk == mha.weights().wk);
    CHECK(gqa.weights().wv == mha.weights().wv);
    for (int path : {0, 1, 2}) {
      INFO("path " << path);
      set_path(opt, path);
      const attn::MhaResult a = mha.forward(in.view(true, 2, attn::kQueryBlock + 3, 0), opt);
      const attn::MhaResult b = gqa.forward(in.view(true, 2, attn::kQueryBlock + 3, 0), opt);
      CHECK(a.output == b.output);
      CHECK(a.weights == b.weights);
    }
  }
  SECTION("a GQA layer and the MHA layer holding its K and V heads repeated give the same bits") {
    // The K and V columns of a repeated head are the same dot products in the same order, and
    // each query head then sees the same K and V: nothing but the memory traffic differs.
    for (int n_kv : {1, 2}) {
      attn::MultiHeadAttention gqa(gqa_config(32, 4, n_kv, 0, 0, true, 9));
      gqa.set_weights(random_weights(gqa.dims(), 10 + n_kv));
      attn::MultiHeadAttention mha(check::mha_config(32, 4, 0, 0, true, 9));
      mha.set_weights(repeated_as_mha(gqa.weights(), gqa.dims()));
      for (bool self : {true, false})
        for (int path : {0, 1, 2}) {
          INFO("n_kv_heads " << n_kv << ", self " << self << ", path " << path);
          set_path(opt, path);
          const attn::MhaInput input = in.view(self, 2, attn::kQueryBlock + 3, 40);
          attn::ForwardOptions o = opt;
          o.mask.causal = self;
          const attn::MhaResult a = mha.forward(input, o), b = gqa.forward(input, o);
          const check::Worst w = check::max_abs(b.output, a.output);
          INFO(w.describe());
          CHECK(w.err == 0.0);
          CHECK(a.weights == b.weights);
        }
    }
  }
}

TEST_CASE("every bad n_kv_heads is refused with a message naming the values", "[gqa][errors]") {
  auto message_of = [](const attn::MhaConfig& c) {
    try {
      attn::resolve_dims(c);
    } catch (const attn::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  using Catch::Contains;
  CHECK_THAT(message_of(gqa_config(64, 8, 0)), Contains("n_kv_heads must be at least 1 (got 0)") &&
                                                   Contains("1 key/value head is multi-query attention") &&
                                                   Contains("n_heads (8) is multi-head attention"));
  CHECK_THAT(message_of(gqa_config(64, 8, -2)), Contains("n_kv_heads must be at least 1 (got -2)"));
  CHECK_THAT(message_of(gqa_config(64, 8, 3)), Contains("n_heads (8) is not divisible by n_kv_heads (3)") &&
                                                   Contains("choose one of 1, 2, 4, 8"));
  CHECK_THAT(message_of(gqa_config(64, 8, 16)), Contains("n_kv_heads (16) is larger than n_heads (8)"));
  CHECK_THAT(message_of(gqa_config(96, 12, 5)), Contains("n_heads (12) is not divisible by n_kv_heads (5)") &&
                                                    Contains("1, 2, 3, 4, 6, 12"));
  CHECK_THROWS_WITH(attn::MultiHeadAttention(gqa_config(64, 8, 3)), Contains("not divisible by n_kv_heads (3)"));
  CHECK_THROWS_WITH(attn::parameter_count_gqa(attn::resolve_dims(check::mha_config(64, 8)), 0),
                    Contains("n_kv_heads must be at least 1 (got 0)"));
  for (int ok : {1, 2, 4, 8}) CHECK(attn::resolve_dims(gqa_config(64, 8, ok)).n_kv_heads == ok);

  // Weights of multi-head size on a grouped layer: the message gives the grouped shape.
  attn::MultiHeadAttention layer(gqa_config(32, 4, 2));
  attn::MhaWeights w = layer.weights();
  w.wk.resize(32 * 32);
  CHECK_THROWS_WITH(layer.set_weights(w), Contains("wk") && Contains("d_model×(n_kv_heads·d_k) = 32×16"));
  w = layer.weights();
  w.bv.resize(32);
  CHECK_THROWS_WITH(layer.set_weights(w), Contains("bv") && Contains("n_kv_heads·d_v = 16"));
}

TEST_CASE("the analysis follows n_kv_heads: parameters, FLOPs, shapes, memory, key/value cache", "[gqa][analysis]") {
  // LLaMA-70B's attention: d_model 8192, 64 query heads of d_k 128, 8 key/value heads, 80 layers.
  const attn::MhaDims mha = attn::resolve_dims(check::mha_config(8192, 64, 0, 0, false));
  const attn::MhaDims gqa = attn::resolve_dims(gqa_config(8192, 64, 8, 0, 0, false));
  const attn::ParameterCounts p = attn::parameter_counts(gqa);
  CHECK(p.w_q == 8192LL * 8192);
  CHECK(p.w_k == 8192LL * 1024);
  CHECK(p.w_v == 8192LL * 1024);
  CHECK(p.w_o == 8192LL * 8192);
  CHECK(p.per_head_k == 8192LL * 128);
  CHECK(p.total == 150994944LL);  // the lesson's d·(h·d_k) + 2·d·(n_kv·d_k) + (h·d_v)·d
  CHECK(p.total == attn::parameter_count_gqa(mha, 8));
  CHECK(attn::parameter_counts(attn::resolve_dims(gqa_config(8192, 64, 8))).total ==
        150994944LL + 8192 + 1024 + 1024 + 8192);

  // FLOPs: K and V projections shrink 8×, the attention itself (per query head) does not.
  const int n = 4096;
  const attn::FlopCounts fm = attn::flop_counts(mha, 1, n, n, true), fg = attn::flop_counts(gqa, 1, n, n, true);
  CHECK(fg.stages[0].macs == fm.stages[0].macs);
  CHECK(fg.stages[1].macs == static_cast<std::int64_t>(n) * 8192 * 1024);
  CHECK(fg.stages[2].macs == static_cast<std::int64_t>(n) * 8192 * 1024);
  CHECK(fm.stages[1].macs == 8 * fg.stages[1].macs);
  for (int s : {3, 4, 5, 6}) CHECK(fg.stages[s].flops == fm.stages[s].flops);
  CHECK(fm.exact_macs - fg.exact_macs == 2LL * 7 * n * 8192 * 1024);
  CHECK(fg.lesson_total == fm.lesson_total);  // the lesson's count has one projection, of Q

  // Shapes: K, V and their heads have n_kv_heads columns blocks; the query side keeps n_heads.
  const auto trace = attn::tensor_trace(gqa, 2, 16, 16, true);
  auto dims_of = [&](const std::string& prefix) {
    for (const attn::TensorInfo& t : trace)
      if (t.name.rfind(prefix, 0) == 0) return t.dims;
    return std::vector<std::int64_t>{};
  };
  CHECK(dims_of("K = ") == std::vector<std::int64_t>{2, 16, 1024});
  CHECK(dims_of("V_i") == std::vector<std::int64_t>{2, 8, 16, 128});
  CHECK(dims_of("Q_i") == std::vector<std::int64_t>{2, 64, 16, 128});
  CHECK(dims_of("S_i") == std::vector<std::int64_t>{2, 64, 16, 16});

  // Working memory: K and V of one batch item, n_k × n_kv_heads·(d_k + d_v) floats, not n_heads.
  const attn::MhaDims small_mha = attn::resolve_dims(check::mha_config(64, 8));
  const attn::MhaDims small_gqa = attn::resolve_dims(gqa_config(64, 8, 2));
  const attn::RunMemory mm = attn::run_memory(small_mha, 1, 100, 300, false, false);
  const attn::RunMemory mg = attn::run_memory(small_gqa, 1, 100, 300, false, false);
  CHECK(mm.working - mg.working == 4ull * 300 * (64 - 16) * 2);
  CHECK(mm.parameters - mg.parameters ==
        8ull * static_cast<std::uint64_t>(attn::parameter_counts(small_mha).total - attn::parameter_counts(small_gqa).total));

  // The key/value cache: 2·n_kv·d_k numbers per token and layer; 80 layers give the lesson's
  // 163,840 numbers per token, 8× fewer than with 64 key/value heads.
  const attn::KVCacheCost c = attn::kv_cache_cost(gqa, 1, n, 80);
  CHECK(c.numbers_per_token == 163840);
  CHECK(c.bytes_per_token == 655360);
  CHECK(c.mha_bytes_per_token == 8 * 655360);
  CHECK(c.tokens == n);
  CHECK(c.bytes == 655360LL * n);
  CHECK(c.saved_bytes == 7LL * 655360 * n);
  CHECK(c.ratio == 8.0);
  // One layer, d_k != d_v: n_kv·(d_k + d_v) numbers.
  const attn::KVCacheCost one = attn::kv_cache_cost(attn::resolve_dims(gqa_config(24, 6, 3, 5, 7)), 2, 10);
  CHECK(one.numbers_per_token == 3 * (5 + 7));
  CHECK(one.bytes == 4LL * 36 * 20);
  CHECK(one.ratio == 2.0);
  CHECK_THROWS_WITH(attn::kv_cache_cost(gqa, 1, n, 0), Catch::Contains("n_layers must be a positive integer (got 0)"));
  CHECK_THROWS_WITH(attn::kv_cache_cost(gqa, 1 << 20, 1 << 20, 80), Catch::Contains("too large to count exactly"));
}

TEST_CASE("head_mask: a masked head contributes exactly zero, all masked leaves bᴼ alone", "[gqa][head_mask]") {
  const int D = 24, H = 4, batch = 2, n_q = 9, n_k = 13;
  for (int n_kv : {4, 2}) {
    attn::MultiHeadAttention layer(gqa_config(D, H, n_kv));
    layer.set_weights(random_weights(layer.dims(), 21 + n_kv));
    const attn::MhaDims& d = layer.dims();
    const Inputs in = make_inputs(D, batch, n_q, n_k, 22);
    const attn::MhaInput input = in.view(false, batch, n_q, n_k);
    attn::ForwardOptions opt;
    opt.mask.key_lengths = {13, 5};
    opt.need_weights = true;
    const attn::MhaResult plain = layer.forward(input, opt);

    for (int off = 0; off < H; ++off) {
      INFO("n_kv_heads " << n_kv << ", head " << off << " switched off");
      opt.head_mask.assign(H, 1.0f);
      opt.head_mask[off] = 0.0f;
      const attn::MhaResult masked = layer.forward(input, opt);
      // The same layer with that head's rows of Wᴼ zeroed: equal to the last bit, so the masked
      // head adds nothing at all (not even rounding) to Concat·Wᴼ.
      attn::MultiHeadAttention cut = layer;
      attn::MhaWeights w = layer.weights();
      std::fill(w.wo.begin() + static_cast<std::ptrdiff_t>(off) * d.d_v * D,
                w.wo.begin() + static_cast<std::ptrdiff_t>(off + 1) * d.d_v * D, 0.0f);
      cut.set_weights(w);
      attn::ForwardOptions unmasked = opt;
      unmasked.head_mask.clear();
      const attn::MhaResult zeroed = cut.forward(input, unmasked);
      CHECK(masked.output == zeroed.output);
      CHECK(masked.output != plain.output);
      CHECK(masked.weights == plain.weights);  // the mask acts on head outputs, not on the maps
    }

    // Any multipliers against the float64 reference with Wᴼ's rows scaled by them.
    opt.head_mask = {1.0f, 0.0f, 0.5f, -2.0f};
    attn::MhaWeights scaled = repeated_as_mha(layer.weights(), d);
    for (int h = 0; h < H; ++h)
      for (int r = 0; r < d.d_v; ++r)
        for (int c = 0; c < D; ++c) scaled.wo[(static_cast<std::size_t>(h) * d.d_v + r) * D + c] *= opt.head_mask[h];
    const reference::MhaRef want = reference::mha(scaled, D, H, d.d_k, d.d_v, input.query, input.key, input.value,
                                                  batch, n_q, n_k, opt);
    for (int path : {0, 1, 2}) {
      set_path(opt, path);
      const check::Worst wo = check::normwise(layer.forward(input, opt).output, want.output);
      INFO("n_kv_heads " << n_kv << ", path " << path << ", mask 1, 0, 0.5, -2: " << wo.describe());
      CHECK(wo.err <= 1e-5);
    }

    // Every head off: Concat is 0, the output is bᴼ in every row, exactly.
    opt.head_mask.assign(H, 0.0f);
    const attn::MhaResult none = layer.forward(input, opt);
    const std::vector<float> bo = layer.weights().bo;
    for (std::size_t i = 0; i < none.output.size(); ++i) {
      INFO("output element " << i);
      REQUIRE(none.output[i] == bo[i % D]);
    }
  }
  // Without biases the output is all zeros.
  attn::MultiHeadAttention no_bias(gqa_config(D, H, 1, 0, 0, false));
  const Inputs in = make_inputs(D, 1, 3, 3, 1);
  attn::ForwardOptions opt;
  opt.head_mask.assign(H, 0.0f);
  for (float y : no_bias.forward(in.view(true, 1, 3, 3), opt).output) CHECK(y == 0.0f);

  // Bad masks: the wrong length, or not finite.
  opt.head_mask = {1.0f, 1.0f};
  CHECK_THROWS_WITH(no_bias.forward(in.view(true, 1, 3, 3), opt),
                    Catch::Contains("head_mask has 2 values; it needs one per head, n_heads = 4"));
  opt.head_mask = {1.0f, NAN, 1.0f, 1.0f};
  CHECK_THROWS_WITH(no_bias.forward(in.view(true, 1, 3, 3), opt), Catch::Contains("head_mask contains NaN at index 1"));
}

TEST_CASE("the model table's key/value caches: LLaMA-70B keeps 163,840 numbers per token", "[gqa][analysis][models]") {
  // Per token over every layer, float32: n_layers · n_kv_heads · (d_k + d_v).
  const struct {
    const char* name;
    std::int64_t numbers, mha_numbers;
  } want[] = {
      {"Transformer (base, 2017)", 6 * 8 * 128, 6 * 8 * 128}, {"BERT-Base", 12 * 12 * 128, 12 * 12 * 128},
      {"BERT-Large", 24 * 16 * 128, 24 * 16 * 128},           {"GPT-2 (small)", 12 * 12 * 128, 12 * 12 * 128},
      {"GPT-3", 96LL * 96 * 256, 96LL * 96 * 256},            {"LLaMA-7B", 32 * 32 * 256, 32 * 32 * 256},
      {"LLaMA-70B", 163840, 80LL * 64 * 256},
  };
  const auto presets = attn::model_presets();
  REQUIRE(presets.size() == 7);
  std::string table;
  for (std::size_t i = 0; i < presets.size(); ++i) {
    const attn::ModelPreset& m = presets[i];
    INFO(m.name);
    CHECK(m.name == want[i].name);
    attn::MhaConfig cfg = check::mha_config(m.d_model, m.n_heads, m.d_k, m.d_k);
    cfg.n_kv_heads = m.n_kv_heads;
    const attn::KVCacheCost c = attn::kv_cache_cost(attn::resolve_dims(cfg), 1, 4096, m.n_layers);
    CHECK(c.numbers_per_token == want[i].numbers);
    CHECK(c.mha_bytes_per_token == 4 * want[i].mha_numbers);
    table += "\n" + m.name + ": " + attn::group_digits(c.numbers_per_token) + " numbers = " +
             attn::group_digits(c.bytes_per_token) + " B per token (" + std::to_string(m.n_layers) + " layers); 4,096 tokens " +
             attn::human_bytes(static_cast<double>(c.bytes)) + (c.ratio > 1 ? ", multi-head " + attn::human_bytes(static_cast<double>(c.mha_bytes)) : "");
  }
  CHECK(presets[6].n_layers == 80);  // LESSON.md
  WARN("key/value cache, float32:" << table);
}

// resolve_view: the one place the page's dimension rules live (the page's validation and the
// heatmaps' key/value head of each query head come from it).
namespace {
attn::ViewRequest view_of(double d_model, double n_heads) {
  attn::ViewRequest r;
  r.d_model = d_model;
  r.n_heads = n_heads;
  r.batch = 2;
  r.n_q = 5;
  r.n_k = 7;
  return r;
}
}  // namespace

TEST_CASE("resolve_view: dims and kv_head_of against the lesson's rules", "[gqa][view]") {
  for (int h : {1, 2, 4, 6, 8, 12}) {
    for (int kv = 1; kv <= h; ++kv) {
      if (h % kv != 0) continue;
      attn::ViewRequest r = view_of(96, h);
      r.n_kv_heads = kv;
      const attn::ViewResult v = attn::resolve_view(r);
      INFO("n_heads " << h << ", n_kv_heads " << kv);
      REQUIRE(v.ok);
      CHECK(v.dims.d_k == 96 / h);
      CHECK(v.dims.d_v == 96 / h);
      CHECK(v.dims.n_kv_heads == kv);
      CHECK((v.batch == 2 && v.n_q == 5 && v.n_k == 7));
      REQUIRE(v.kv_head_of.size() == static_cast<std::size_t>(h));
      // Written out, not through kv_head(): consecutive query heads share, h / (h / kv) each.
      for (int q = 0; q < h; ++q) CHECK(v.kv_head_of[q] == q / (h / kv));
    }
  }
  const attn::ViewResult mha = attn::resolve_view(view_of(64, 4));  // n_kv_heads absent: one per query head
  REQUIRE(mha.ok);
  CHECK(mha.dims.n_kv_heads == 4);
  CHECK(mha.kv_head_of == std::vector<int>{0, 1, 2, 3});
  attn::ViewRequest given = view_of(10, 3);  // d_k and d_v given: no divisibility needed
  given.d_k = 5;
  given.d_v = 2;
  const attn::ViewResult g = attn::resolve_view(given);
  REQUIRE(g.ok);
  CHECK((g.dims.d_k == 5 && g.dims.d_v == 2));
}

TEST_CASE("resolve_view names the field and the core's limit of each bad value", "[gqa][view][errors]") {
  using Catch::Contains;
  auto fails = [](const attn::ViewRequest& r, const char* field, const char* text) {
    const attn::ViewResult v = attn::resolve_view(r);
    INFO("expected " << field << ": " << text << "; got " << v.field << ": " << v.message);
    CHECK(!v.ok);
    CHECK(v.field == field);
    CHECK_THAT(v.message, Contains(text) && Contains(field));
    CHECK(v.kv_head_of.empty());
  };
  fails(view_of(0, 4), "d_model", "d_model must be a positive integer (got 0)");
  fails(view_of(-8, 4), "d_model", "(got -8)");
  fails(view_of(64.5, 4), "d_model", "d_model must be a whole number (got 64.5)");
  fails(view_of(NAN, 4), "d_model", "whole number (got nan)");
  fails(view_of(INFINITY, 4), "d_model", "whole number");
  fails(view_of(1099511627776.0, 4), "d_model", "d_model (1,099,511,627,776) is larger than the 1,048,576 this engine accepts");
  fails(view_of(1e300, 4), "d_model", "is larger than the 1,048,576");
  fails(view_of(64, 0), "n_heads", "n_heads must be a positive integer (got 0)");
  fails(view_of(64, 3), "n_heads", "d_model (64) is not divisible by n_heads (3)");
  fails(view_of(510, 8), "n_heads", "Try n_heads = 6 or 10, or give d_k and d_v explicitly");
  fails(view_of(4, 8), "n_heads", "n_heads (8) is larger than d_model (4)");
  attn::ViewRequest r = view_of(64, 8);
  r.n_kv_heads = 3;
  fails(r, "n_kv_heads", "n_heads (8) is not divisible by n_kv_heads (3)");
  r.n_kv_heads = 16;
  fails(r, "n_kv_heads", "n_kv_heads (16) is larger than n_heads (8)");
  r.n_kv_heads = 0;
  fails(r, "n_kv_heads", "n_kv_heads must be at least 1 (got 0)");
  r.n_kv_heads = -3;
  fails(r, "n_kv_heads", "(got -3)");
  r.n_kv_heads = 2.5;
  fails(r, "n_kv_heads", "n_kv_heads must be a whole number (got 2.5)");
  r.n_kv_heads = 1e12;
  fails(r, "n_kv_heads", "is larger than");
  r = view_of(64, 8);
  r.d_k = 0;
  fails(r, "d_k", "d_k must be a positive integer (got 0)");
  r = view_of(64, 8);
  r.batch = 1.5;
  fails(r, "batch", "batch must be a whole number (got 1.5)");
  r = view_of(64, 8);
  r.n_q = 0;
  fails(r, "n_q", "n_q must be a positive integer (got 0)");
  r = view_of(64, 8);
  r.n_k = 2097152;
  fails(r, "n_k", "n_k (2,097,152) is larger than the 1,048,576 this engine accepts");
  r = view_of(64, 8);
  r.mask.key_lengths = {3, 9};
  fails(r, "mask", "key length of batch item 1 is 9, outside 0..7 (n_k)");
  r.mask.key_lengths = {3};
  fails(r, "mask", "padding mask has 1 key lengths but batch is 2");
}

}  // namespace test_gqa
