// MultiHeadAttention against the float64 reference (self, cross, masks, d_k != d_v, bias, batch,
// need_weights), its default weights, set_weights round trip, and forward_into with aliased output.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/kernels.h"
#include "core/mha.h"
#include "check.h"
#include "mha_fixtures.h"
#include "reference.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_mha {

using namespace fixtures;

namespace {

// The bar: normwise relative error max|y − y64| / max|y64| ≤ 1e-5 on every case.
constexpr double kOutputTol = 1e-5;
// Per-head attention weights lie in [0, 1]: max |w − w64| ≤ 1e-5.
constexpr double kWeightTol = 1e-5;

struct MhaCase {
  const char* name;
  int d_model, n_heads, d_k, d_v;  // d_k, d_v 0: d_model / n_heads
  bool bias;
  bool random_weights;  // false: the layer's seeded default weights (biases 0)
  int batch, n_q, n_k;
  bool self;  // self-attention: one buffer for query, key and value (n_k = n_q)
  unsigned mask;
  bool scale;
  float dropout;  // training mode when > 0
};

std::string describe(const MhaCase& c) {
  return std::string(c.name) + " [d_model " + std::to_string(c.d_model) + ", n_heads " + std::to_string(c.n_heads) +
         ", d_k " + std::to_string(c.d_k) + ", d_v " + std::to_string(c.d_v) + ", bias " + std::to_string(c.bias) +
         ", batch " + std::to_string(c.batch) + ", n_q " + std::to_string(c.n_q) + ", n_k " + std::to_string(c.n_k) + "]";
}

// Sizes just past the query block and the key tile, whatever the engine's constants are.
const int kQB = attn::kQueryBlock, kKT = attn::kKeyTile;

const std::vector<MhaCase>& cases() {
  static const std::vector<MhaCase> all = {
      {"self, random weights and biases", 32, 4, 0, 0, true, true, 1, 10, 10, true, kNone, true, 0.0f},
      {"self, default weights, causal, 2 query blocks", 32, 4, 0, 0, true, false, 2, kQB + 6, kQB + 6, true, kCausal, true, 0.0f},
      {"cross, d_k != d_v, no bias, padding", 24, 3, 5, 7, false, true, 3, 9, 17, false, kPadding, true, 0.0f},
      {"cross across key tiles, matrix mask, unscaled", 16, 2, 0, 0, true, true, 2, 65, kKT + 1, false, kMatrix, false, 0.0f},
      {"self, causal + padding, 3 query blocks", 48, 6, 0, 0, true, true, 1, 2 * kQB + 2, 2 * kQB + 2, true, kCausal | kPadding, true, 0.0f},
      {"cross, dropout 0.2", 20, 5, 0, 0, true, true, 2, 33, 40, false, kNone, true, 0.2f},
      {"d_k = 1: as many heads as d_model", 8, 8, 0, 0, true, true, 1, 5, 5, true, kNone, true, 0.0f},
      {"one head, padding + matrix, long keys", 64, 1, 0, 0, true, true, 2, 3, 200, false, kPadding | kMatrix, true, 0.0f},
      {"d_k > d_model / n_heads > d_v, cross, causal, dropout", 16, 2, 12, 3, true, true, 3, 21, 14, false,
       kCausal, true, 0.3f},
      {"default weights, d_k != d_v, no bias", 24, 4, 8, 5, false, false, 2, 12, 12, true, kCausal, true, 0.0f},
  };
  return all;
}

}  // namespace

TEST_CASE("MultiHeadAttention matches the float64 reference within 1e-5 normwise on every case", "[mha]") {
  double max_out = 0.0, max_w = 0.0;
  std::uint64_t seed = 10;
  for (const MhaCase& c : cases()) {
    ++seed;
    const attn::MhaConfig cfg = check::mha_config(c.d_model, c.n_heads, c.d_k, c.d_v, c.bias, seed);
    attn::MultiHeadAttention layer(cfg);
    if (c.random_weights) layer.set_weights(random_weights(layer.dims(), seed * 3));
    const attn::MhaDims& d = layer.dims();
    const attn::MhaWeights w = layer.weights();
    const Inputs in = make_inputs(c.d_model, c.batch, c.n_q, c.n_k, seed * 5);
    const attn::MhaInput input = in.view(c.self, c.batch, c.n_q, c.n_k);
    attn::ForwardOptions opt = case_options(c.mask, c.scale, c.dropout, c.batch, c.n_q, input.n_k, seed);
    const reference::MhaRef want = reference::mha(w, d.d_model, d.n_heads, d.d_k, d.d_v, input.query, input.key,
                                                  input.value, c.batch, c.n_q, input.n_k, opt);
    // Three paths: weights returned; no weights with whole rows in scratch (the default at these
    // sizes); no weights, streaming over key tiles (scratch_logits 0).
    for (int path : {0, 1, 2}) {
      const bool need_weights = path == 0;
      INFO(describe(c) << ", mask " << opt.mask.describe() << ", path " << path);
      set_path(opt, path);
      const attn::MhaResult got = layer.forward(input, opt);
      REQUIRE(got.output.size() == want.output.size());
      const check::Worst wo = check::normwise(got.output, want.output);
      INFO("output: " << wo.describe());
      CHECK(wo.err <= kOutputTol);
      max_out = std::max(max_out, wo.err);
      CHECK(rows_of(got.masked_rows) == rows_of(want.masked_rows));
      CHECK(check::count_non_finite(got.output) == 0);
      if (!need_weights) {
        CHECK(got.weights.empty());
        continue;
      }
      // Weights [batch, n_heads, n_q, n_k], compared one head at a time so a failure names it.
      REQUIRE(got.weights.size() == want.weights.size());
      const std::size_t per_head = static_cast<std::size_t>(c.n_q) * input.n_k;
      for (int b = 0; b < c.batch; ++b)
        for (int h = 0; h < d.n_heads; ++h) {
          const std::size_t at = (static_cast<std::size_t>(b) * d.n_heads + h) * per_head;
          const check::Worst ww = check::max_abs(got.weights.data() + at, want.weights.data() + at, per_head);
          INFO("weights of batch item " << b << ", head " << h << ": " << ww.describe());
          CHECK(ww.err <= kWeightTol);
          max_w = std::max(max_w, ww.err);
        }
    }
  }
  WARN("MHA vs float64: max normwise output error " << max_out << ", max per-head weight error " << max_w);
}

TEST_CASE("MHA with one head equals plain attention on the projected inputs", "[mha]") {
  const int D = 16, batch = 2, n_q = attn::kQueryBlock + 6, n_k = 45;
  attn::MultiHeadAttention layer(check::mha_config(D, 1));
  layer.set_weights(random_weights(layer.dims(), 8));
  const attn::MhaWeights w = layer.weights();
  const Inputs in = make_inputs(D, batch, n_q, n_k, 9);
  attn::ForwardOptions opt;
  opt.mask.causal = true;
  opt.mask.key_lengths = {30, 45};

  // Q = X_q·Wᴽ + bᴽ (and K, V alike) with the engine's own matmul, then plain attention with
  // d_k = d_v = d_model, then Concat (one head: the head itself)·Wᴼ + bᴼ.
  auto project = [&](const std::vector<float>& x, int rows, const std::vector<float>& W, const std::vector<float>& bias) {
    std::vector<float> y(static_cast<std::size_t>(rows) * D);
    attn::kern::gemm(rows, D, D, x.data(), D, W.data(), D, false, y.data(), D, 1.0f, bias.data(), false);
    return y;
  };
  const std::vector<float> Q = project(in.query, batch * n_q, w.wq, w.bq);
  const std::vector<float> K = project(in.key, batch * n_k, w.wk, w.bk);
  const std::vector<float> V = project(in.value, batch * n_k, w.wv, w.bv);
  for (bool need_weights : {true, false}) {
    INFO("need_weights " << need_weights);
    const attn::AttentionResult heads = attn::scaled_dot_product_attention(
        Q.data(), Q.size(), K.data(), K.size(), V.data(), V.size(), batch, n_q, n_k, D, D, opt, need_weights,
        attn::kDefaultMemoryBudget);
    const std::vector<float> plain = project(heads.output, batch * n_q, w.wo, w.bo);
    opt.need_weights = need_weights;
    const attn::MhaResult mha = layer.forward({in.query.data(), in.query.size(), in.key.data(), in.key.size(),
                                               in.value.data(), in.value.size(), batch, n_q, n_k},
                                              opt);
    // The same float operations in the same order: equal up to rounding noise (in practice bitwise).
    const check::Worst wo = check::normwise(mha.output, plain);
    INFO("output: " << wo.describe());
    CHECK(wo.err <= 1e-6);
    if (need_weights) {
      const check::Worst ww = check::max_abs(mha.weights, heads.weights);
      INFO("weights: " << ww.describe());
      CHECK(ww.err <= 1e-6);
    }
    CHECK(rows_of(mha.masked_rows) == rows_of(heads.masked_rows));
  }
}

TEST_CASE("default weights are seeded, within their documented bounds, biases 0", "[mha][weights]") {
  struct Shape {
    int d_model, n_heads, d_k, d_v, n_kv_heads;
  };
  // The last two: grouped-query (4 query heads per key/value head) and multi-query attention.
  for (const Shape s : {Shape{64, 4, 0, 0, 4}, Shape{24, 3, 5, 7, 3}, Shape{30, 6, 0, 0, 6}, Shape{64, 8, 0, 0, 2},
                        Shape{24, 6, 5, 3, 1}}) {
    attn::MhaConfig cfg = check::mha_config(s.d_model, s.n_heads, s.d_k, s.d_v, true, 7);
    cfg.n_kv_heads = s.n_kv_heads;
    const attn::MultiHeadAttention a(cfg), b(cfg);
    cfg.seed = 8;
    const attn::MultiHeadAttention c(cfg);
    const attn::MhaDims& d = a.dims();
    INFO("d_model " << d.d_model << ", n_heads " << d.n_heads << ", d_k " << d.d_k << ", d_v " << d.d_v
                    << ", n_kv_heads " << d.n_kv_heads);
    const attn::MhaWeights wa = a.weights(), wb = b.weights(), wc = c.weights();
    // Same seed, same weights; another seed, other weights.
    CHECK(wa.wq == wb.wq);
    CHECK(wa.wk == wb.wk);
    CHECK(wa.wv == wb.wv);
    CHECK(wa.wo == wb.wo);
    CHECK(wa.wq != wc.wq);
    CHECK(wa.wo != wc.wo);
    CHECK(wa.wq != wa.wk);  // one stream, drawn in turn: the matrices differ from each other
    const attn::MhaWeights wd = attn::default_weights(d, 7);
    CHECK(wd.wq == wa.wq);
    CHECK(wd.wo == wa.wo);

    // mha.h: Xavier/Glorot uniform, bound √(6 / (fan_in + fan_out)); as one (3·d_model)×d_model
    // matrix (PyTorch's in_proj_weight) when every width equals d_model. Wᴼ: 1/√(h·d_v).
    // Grouped-query: Wᴷ and Wⱽ are d_model × n_kv_heads·d_k (·d_v), each with its own fan_out.
    const double D = d.d_model, QK = static_cast<double>(d.qk_width()), V = static_cast<double>(d.v_width());
    const double KK = static_cast<double>(d.kv_k_width()), KV = static_cast<double>(d.kv_v_width());
    const bool packed = QK == D && V == D && KK == D && KV == D;
    const double bound_q = packed ? std::sqrt(6.0 / (D + 3 * D)) : std::sqrt(6.0 / (D + QK));
    const double bound_k = packed ? std::sqrt(6.0 / (D + 3 * D)) : std::sqrt(6.0 / (D + KK));
    const double bound_v = packed ? std::sqrt(6.0 / (D + 3 * D)) : std::sqrt(6.0 / (D + KV));
    const double bound_o = 1.0 / std::sqrt(V);
    REQUIRE(wa.wk.size() == static_cast<std::size_t>(D * KK));
    REQUIRE(wa.wv.size() == static_cast<std::size_t>(D * KV));
    const std::pair<const std::vector<float>*, double> mats[] = {
        {&wa.wq, bound_q}, {&wa.wk, bound_k}, {&wa.wv, bound_v}, {&wa.wo, bound_o}};
    const char* names[] = {"wq", "wk", "wv", "wo"};
    for (int m = 0; m < 4; ++m) {
      const std::vector<float>& x = *mats[m].first;
      const double bound = mats[m].second;
      double max_abs = 0.0, mean = 0.0;
      for (float v : x) {
        max_abs = std::max(max_abs, static_cast<double>(std::fabs(v)));
        mean += v;
      }
      mean /= x.size();
      INFO(names[m] << ": max |w| " << max_abs << ", bound " << bound << ", mean " << mean);
      CHECK(max_abs <= bound * (1 + 1e-6));
      // Uniform on (−bound, bound): hundreds of draws reach 90% of the bound, and the mean is
      // within 5 standard deviations (bound/√(3N)) of 0.
      CHECK(max_abs >= 0.9 * bound);
      CHECK(std::fabs(mean) <= 5 * bound / std::sqrt(3.0 * x.size()));
    }
    // Biases on by default, all 0, with the right lengths.
    REQUIRE(wa.bq.size() == static_cast<std::size_t>(QK));
    REQUIRE(wa.bk.size() == static_cast<std::size_t>(KK));
    REQUIRE(wa.bv.size() == static_cast<std::size_t>(KV));
    REQUIRE(wa.bo.size() == static_cast<std::size_t>(D));
    int nonzero = 0;
    for (const std::vector<float>* bias : {&wa.bq, &wa.bk, &wa.bv, &wa.bo})
      for (float v : *bias) nonzero += v != 0.0f;
    CHECK(nonzero == 0);
  }
  attn::MhaConfig no_bias;
  no_bias.d_model = 16;
  no_bias.n_heads = 2;
  no_bias.bias = false;
  const attn::MhaWeights w = attn::MultiHeadAttention(no_bias).weights();
  CHECK(w.bq.empty());
  CHECK(w.bk.empty());
  CHECK(w.bv.empty());
  CHECK(w.bo.empty());
}

TEST_CASE("set_weights then weights() round-trips exactly, a rejected set changes nothing", "[mha][weights]") {
  attn::MhaConfig cfg;
  cfg.d_model = 24;
  cfg.n_heads = 4;
  cfg.d_k = 5;
  cfg.d_v = 3;
  attn::MultiHeadAttention layer(cfg);
  const attn::MhaWeights w = random_weights(layer.dims(), 77);
  layer.set_weights(w);
  const attn::MhaWeights got = layer.weights();
  CHECK(got.wq == w.wq);
  CHECK(got.wk == w.wk);
  CHECK(got.wv == w.wv);
  CHECK(got.wo == w.wo);
  CHECK(got.bq == w.bq);
  CHECK(got.bk == w.bk);
  CHECK(got.bv == w.bv);
  CHECK(got.bo == w.bo);

  attn::MhaWeights bad = random_weights(layer.dims(), 78);
  bad.wo[5] = NAN;
  CHECK_THROWS_AS(layer.set_weights(bad), attn::Error);
  CHECK(layer.weights().wq == w.wq);  // the valid Wq of the rejected set was not taken
  CHECK(layer.weights().wo == w.wo);
}

TEST_CASE("forward_into with the output in the query buffer equals separate buffers", "[mha]") {
  attn::MhaConfig cfg;
  cfg.d_model = 16;
  cfg.n_heads = 4;
  attn::MultiHeadAttention layer(cfg);
  layer.set_weights(random_weights(layer.dims(), 5));
  // Three query blocks: the output rows of one block overwrite query rows another has not read.
  const int D = 16, batch = 2, n_q = 2 * attn::kQueryBlock + 2, n_k = 50;
  const Inputs in = make_inputs(D, batch, n_q, n_k, 6);
  for (bool need_weights : {false, true}) {
    attn::ForwardOptions opt;
    opt.need_weights = need_weights;
    opt.mask.causal = true;
    std::vector<float> weights(need_weights ? static_cast<std::size_t>(batch) * 4 * n_q * n_q : 0);
    SECTION(std::string("self-attention: query = key = value = output, need_weights ") + (need_weights ? "on" : "off")) {
      const attn::MhaResult separate = layer.forward(in.view(true, batch, n_q, n_q), opt);
      std::vector<float> buffer = in.query;
      const attn::MhaInput aliased{buffer.data(), buffer.size(), buffer.data(), buffer.size(), buffer.data(),
                                   buffer.size(), batch, n_q, n_q};
      layer.forward_into(aliased, opt, buffer.data(), need_weights ? weights.data() : nullptr);
      const check::Worst w = check::max_abs(buffer, separate.output);
      INFO(w.describe());
      CHECK(w.err == 0.0);
      if (need_weights) CHECK(weights == separate.weights);
    }
    SECTION(std::string("cross-attention: output = query, need_weights ") + (need_weights ? "on" : "off")) {
      opt.mask.causal = false;
      opt.mask.key_lengths = {50, 20};
      weights.resize(need_weights ? static_cast<std::size_t>(batch) * 4 * n_q * n_k : 0);
      const attn::MhaResult separate = layer.forward(in.view(false, batch, n_q, n_k), opt);
      std::vector<float> buffer = in.query;
      const attn::MhaInput aliased{buffer.data(), buffer.size(), in.key.data(), in.key.size(), in.value.data(),
                                   in.value.size(), batch, n_q, n_k};
      const auto masked = layer.forward_into(aliased, opt, buffer.data(), need_weights ? weights.data() : nullptr);
      const check::Worst w = check::max_abs(buffer, separate.output);
      INFO(w.describe());
      CHECK(w.err == 0.0);
      CHECK(masked.size() == separate.masked_rows.size());
      if (need_weights) CHECK(weights == separate.weights);
    }
  }
}

}  // namespace test_mha
