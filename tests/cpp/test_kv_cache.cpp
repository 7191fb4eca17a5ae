// Decoding with a key/value cache: every step's output and weights against a float64 causal
// self-attention written out here from the definitions (query head h reads key/value head
// ⌊h / (n_heads / n_kv_heads)⌋), and against the engine's own causal forward pass; the cached
// keys and values themselves; MHA, GQA and MQA, biases on and off; every refusal by its message,
// with the cache left as it was; and the costs of a step against recomputing the prefix.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "labs/kv_cache.h"
#include "check.h"
#include "mha_fixtures.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_kv_cache {

namespace {

struct Ref {
  std::vector<double> output;   // [n, d_model]
  std::vector<double> weights;  // [n, n_heads, n]: row i of head h, zero beyond i
  std::vector<double> k, v;     // [n, n_kv_heads·d_k], [n, n_kv_heads·d_v]
};

// y (n × out) = x (n × in)·W + b, in double.
std::vector<double> project(const std::vector<float>& x, int n, int in, const std::vector<float>& w,
                            const std::vector<float>& b, int out) {
  std::vector<double> y(static_cast<std::size_t>(n) * out);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < out; ++c) {
      double s = b.empty() ? 0.0 : b[c];
      for (int r = 0; r < in; ++r) s += static_cast<double>(x[i * in + r]) * w[static_cast<std::size_t>(r) * out + c];
      y[static_cast<std::size_t>(i) * out + c] = s;
    }
  return y;
}

// Rotates each pair (2u, 2u+1) of the d_k-wide slice at y by pos·base^(−2u/d_k) (RoPE), in double.
void rotate(double* y, int d_k, int pos, double base) {
  for (int u = 0; 2 * u + 1 < d_k; ++u) {
    const double angle = pos * std::pow(base, -2.0 * u / d_k), c = std::cos(angle), s = std::sin(angle);
    const double a = y[2 * u], b = y[2 * u + 1];
    y[2 * u] = a * c - b * s;
    y[2 * u + 1] = a * s + b * c;
  }
}

enum class Pos { none, rope, alibi };

// Causal self-attention of one sequence x [n, d_model] through the layer's weights, in float64,
// with RoPE (base 10000) on every head's q and k, or ALiBi (n_heads a power of two: slope
// 2^(−8(h+1)/n_heads)) subtracting slope·(i − j) from the scaled logits.
Ref causal_reference(const attn::MhaDims& d, const attn::MhaWeights& w, const std::vector<float>& x, int n,
                     Pos positional = Pos::none) {
  const int D = d.d_model, H = d.n_heads, dk = d.d_k, dv = d.d_v, G = d.group();
  const int QK = H * dk, KK = d.n_kv_heads * dk, KV = d.n_kv_heads * dv, V = H * dv;
  Ref r;
  std::vector<double> q = project(x, n, D, w.wq, w.bq, QK);
  r.k = project(x, n, D, w.wk, w.bk, KK);
  if (positional == Pos::rope)
    for (int i = 0; i < n; ++i) {
      for (int h = 0; h < H; ++h) rotate(&q[i * QK + h * dk], dk, i, 10000.0);
      for (int g = 0; g < d.n_kv_heads; ++g) rotate(&r.k[i * KK + g * dk], dk, i, 10000.0);
    }
  r.v = project(x, n, D, w.wv, w.bv, KV);
  std::vector<double> concat(static_cast<std::size_t>(n) * V, 0.0);
  r.weights.assign(static_cast<std::size_t>(n) * H * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int h = 0; h < H; ++h) {
      const int g = h / G;
      std::vector<double> a(i + 1);
      double m = -INFINITY, sum = 0.0;
      for (int j = 0; j <= i; ++j) {
        double s = 0.0;
        for (int c = 0; c < dk; ++c) s += q[i * QK + h * dk + c] * r.k[j * KK + g * dk + c];
        a[j] = s / std::sqrt(static_cast<double>(dk));
        if (positional == Pos::alibi) a[j] -= std::pow(2.0, -8.0 * (h + 1) / H) * (i - j);
        m = std::max(m, a[j]);
      }
      for (int j = 0; j <= i; ++j) sum += (a[j] = std::exp(a[j] - m));
      for (int j = 0; j <= i; ++j) {
        a[j] /= sum;
        r.weights[(static_cast<std::size_t>(i) * H + h) * n + j] = a[j];
        for (int c = 0; c < dv; ++c) concat[i * V + h * dv + c] += a[j] * r.v[j * KV + g * dv + c];
      }
    }
  std::vector<float> concat_f(concat.begin(), concat.end());  // only to reuse project's signature
  r.output.assign(static_cast<std::size_t>(n) * D, 0.0);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < D; ++c) {
      double s = w.bo.empty() ? 0.0 : w.bo[c];
      for (int r2 = 0; r2 < V; ++r2) s += concat[i * V + r2] * w.wo[static_cast<std::size_t>(r2) * D + c];
      r.output[static_cast<std::size_t>(i) * D + c] = s;
    }
  return r;
}

struct Case {
  const char* name;
  int d_model, n_heads, n_kv_heads, d_k, d_v;
  bool bias;
  int n;
};

}  // namespace

TEST_CASE("decode_step gives the rows of float64 causal attention and of the causal forward pass", "[kv_cache]") {
  const Case cases[] = {
      {"MHA 16 / 4, bias", 16, 4, 4, 0, 0, true, 9},
      {"GQA 6 heads / 2 kv heads, d_k 5, d_v 7, no bias", 24, 6, 2, 5, 7, false, 11},
      {"MQA 8 heads / 1, bias", 32, 8, 1, 0, 0, true, 7},
      {"one head, 150 tokens (past a key tile)", 8, 1, 1, 0, 0, true, 150},
  };
  std::uint64_t seed = 70;
  for (const Case& c : cases) {
    INFO(c.name);
    attn::MhaConfig config = check::mha_config(c.d_model, c.n_heads, c.d_k, c.d_v, c.bias, 3);
    config.n_kv_heads = c.n_kv_heads;
    attn::MultiHeadAttention layer(config);
    const attn::MhaDims& d = layer.dims();
    layer.set_weights(fixtures::random_weights(d, ++seed));
    check::TestRng rng(++seed);
    const std::vector<float> x = rng.vec(static_cast<std::size_t>(c.n) * c.d_model, -1.5f, 1.5f);
    const Ref ref = causal_reference(d, layer.weights(), x, c.n);
    attn::ForwardOptions opt;
    opt.mask.causal = true;
    opt.need_weights = true;
    const attn::MhaResult fwd = layer.forward({x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 1, c.n, c.n}, opt);

    attn::KVCache cache(layer, c.n);
    REQUIRE(cache.bytes() == 4ull * d.n_kv_heads * (d.d_k + d.d_v) * c.n);
    double worst_out = 0, worst_w = 0, worst_fwd = 0;
    for (int i = 0; i < c.n; ++i) {
      const attn::DecodeResult r = attn::decode_step(layer, cache, x.data() + i * c.d_model, c.d_model);
      REQUIRE(cache.length() == i + 1);
      REQUIRE(r.output.size() == static_cast<std::size_t>(c.d_model));
      REQUIRE(r.weights.size() == static_cast<std::size_t>(d.n_heads) * (i + 1));
      const check::Worst o = check::normwise(r.output.data(), ref.output.data() + i * c.d_model, c.d_model);
      INFO("step " << i + 1 << ", output: " << o.describe());
      CHECK(o.err < 1e-5);
      worst_out = std::max(worst_out, o.err);
      const check::Worst f = check::max_abs(r.output.data(), fwd.output.data() + i * c.d_model, c.d_model);
      INFO("against forward's row: " << f.describe());
      CHECK(f.err < 1e-6);
      worst_fwd = std::max(worst_fwd, f.err);
      for (int h = 0; h < d.n_heads; ++h) {
        const float* row = r.weights.data() + static_cast<std::size_t>(h) * (i + 1);
        const check::Worst a = check::max_abs(row, ref.weights.data() + (static_cast<std::size_t>(i) * d.n_heads + h) * c.n, i + 1);
        const check::Worst b = check::max_abs(row, fwd.weights.data() + (static_cast<std::size_t>(h) * c.n + i) * c.n, i + 1);
        INFO("head " << h << ": " << a.describe() << "; against forward: " << b.describe());
        CHECK(a.err < 1e-6);
        CHECK(b.err < 1e-6);
        worst_w = std::max(worst_w, a.err);
      }
    }
    // The cache holds K and V of every token, per key/value head, as projected in float64.
    const int KK = d.n_kv_heads * d.d_k, KV = d.n_kv_heads * d.d_v;
    for (int g = 0; g < d.n_kv_heads; ++g)
      for (int j = 0; j < c.n; ++j) {
        for (int col = 0; col < d.d_k; ++col)
          REQUIRE(std::fabs(cache.keys(g)[j * d.d_k + col] - ref.k[j * KK + g * d.d_k + col]) < 1e-5);
        for (int col = 0; col < d.d_v; ++col)
          REQUIRE(std::fabs(cache.values(g)[j * d.d_v + col] - ref.v[j * KV + g * d.d_v + col]) < 1e-5);
      }
    // max_len reached: refused, naming max_len, and the cache keeps its tokens.
    CHECK_THROWS_WITH(attn::decode_step(layer, cache, x.data(), c.d_model),
                      Catch::Contains("cache is full") && Catch::Contains("max_len = " + std::to_string(c.n)));
    CHECK(cache.length() == c.n);
    // clear() starts a new sequence: its first step is the first row again.
    cache.clear();
    const attn::DecodeResult again = attn::decode_step(layer, cache, x.data(), c.d_model);
    CHECK(check::max_abs(again.output.data(), fwd.output.data(), c.d_model).err < 1e-6);
    INFO(c.name << ": worst output error " << worst_out << ", weights " << worst_w << ", against forward " << worst_fwd);
  }
}

TEST_CASE("decode_step with RoPE and ALiBi: the new token at position length, as the causal forward pass", "[kv_cache]") {
  for (const Pos positional : {Pos::rope, Pos::alibi}) {
    const bool rope = positional == Pos::rope;
    INFO((rope ? "rope" : "alibi"));
    attn::MhaConfig config = check::mha_config(32, 4, 0, 0, true, 5);
    config.n_kv_heads = 2;
    attn::MultiHeadAttention layer(config);
    const attn::MhaDims& d = layer.dims();
    layer.set_weights(fixtures::random_weights(d, rope ? 91 : 92));
    const int n = 13;
    check::TestRng rng(93);
    const std::vector<float> x = rng.vec(static_cast<std::size_t>(n) * d.d_model, -1.5f, 1.5f);
    const Ref ref = causal_reference(d, layer.weights(), x, n, positional);
    attn::ForwardOptions opt;
    opt.mask.causal = true;
    opt.need_weights = true;
    opt.positional = rope ? attn::Positional::rope : attn::Positional::alibi;
    const attn::MhaResult fwd = layer.forward({x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 1, n, n}, opt);
    attn::DecodeOptions step;
    step.positional = opt.positional;
    attn::KVCache cache(layer, n);
    for (int i = 0; i < n; ++i) {
      const attn::DecodeResult r = attn::decode_step(layer, cache, x.data() + i * d.d_model, d.d_model, step);
      const check::Worst o = check::normwise(r.output.data(), ref.output.data() + i * d.d_model, d.d_model);
      const check::Worst f = check::max_abs(r.output.data(), fwd.output.data() + i * d.d_model, d.d_model);
      INFO("step " << i + 1 << ": against float64 " << o.describe() << "; against forward " << f.describe());
      CHECK(o.err < 1e-5);
      CHECK(f.err < 1e-6);
      for (int h = 0; h < d.n_heads; ++h) {
        const float* row = r.weights.data() + static_cast<std::size_t>(h) * (i + 1);
        const check::Worst a = check::max_abs(row, ref.weights.data() + (static_cast<std::size_t>(i) * d.n_heads + h) * n, i + 1);
        INFO("head " << h << ": " << a.describe());
        CHECK(a.err < 1e-6);
      }
      if (i == 2) {  // a cache filled with one method refuses another, and stays as it was
        attn::DecodeOptions other;
        other.positional = rope ? attn::Positional::alibi : attn::Positional::none;
        CHECK_THROWS_WITH(attn::decode_step(layer, cache, x.data(), d.d_model, other),
                          Catch::Contains(std::string("filled with positional '") + (rope ? "rope" : "alibi")));
        if (rope) {
          attn::DecodeOptions base = step;
          base.rope_base = 500.0;
          CHECK_THROWS_WITH(attn::decode_step(layer, cache, x.data(), d.d_model, base), Catch::Contains("filled with positional 'rope' and its rope_base"));
        }
        CHECK(cache.length() == 3);
      }
    }
  }
  // RoPE needs an even d_k: the layer's own check.
  attn::MultiHeadAttention odd(check::mha_config(6, 2));
  attn::KVCache cache(odd, 2);
  attn::DecodeOptions rope;
  rope.positional = attn::Positional::rope;
  std::vector<float> x(6, 0.25f);
  CHECK_THROWS(attn::decode_step(odd, cache, x.data(), x.size(), rope));
  CHECK(cache.length() == 0);
}

TEST_CASE("decode_step refuses bad steps by name and leaves the cache as it was", "[kv_cache]") {
  attn::MhaConfig config = check::mha_config(8, 2);
  config.n_kv_heads = 1;
  attn::MultiHeadAttention layer(config), other(config);
  attn::KVCache cache(layer, 4);
  std::vector<float> x(8, 0.5f);
  const attn::DecodeResult first = attn::decode_step(layer, cache, x.data(), x.size());
  CHECK_THROWS_WITH(attn::decode_step(other, cache, x.data(), x.size()), Catch::Contains("made by another layer"));
  CHECK_THROWS_WITH(attn::decode_step(layer, cache, x.data(), 7), Catch::Contains("x has 7") && Catch::Contains("d_model = 8"));
  x[3] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(attn::decode_step(layer, cache, x.data(), x.size()), Catch::Contains("x contains NaN at index 3"));
  x[3] = 3e38f;  // finite, but the projections overflow
  x[4] = 3e38f;
  CHECK_THROWS_WITH(attn::decode_step(layer, cache, x.data(), x.size()), Catch::Contains("overflowed float32"));
  CHECK(cache.length() == 1);
  // The next good step is the second row, as if the refused ones never happened.
  std::fill(x.begin(), x.end(), 0.5f);
  const attn::DecodeResult second = attn::decode_step(layer, cache, x.data(), x.size());
  CHECK(cache.length() == 2);
  CHECK(second.weights.size() == 4);
  CHECK(second.weights[0] == Approx(0.5).margin(1e-6));  // two equal tokens: equal weights
  CHECK(check::max_abs(second.output, first.output).err < 1e-6);

  CHECK_THROWS_WITH(attn::KVCache(layer, 0), Catch::Contains("max_len must be a positive integer (got 0)"));
  CHECK_THROWS_WITH(attn::KVCache(layer, (1 << 20) + 1), Catch::Contains("max_len (1,048,577) is larger than"));
  CHECK_THROWS_WITH(attn::KVCache(layer, 1000, 1000), Catch::Contains("key/value cache"));
}

TEST_CASE("decode_cost: cache bytes and FLOPs of a step against recomputing the prefix", "[kv_cache]") {
  attn::MhaConfig config = check::mha_config(24, 6, 5, 7, true);
  config.n_kv_heads = 2;
  const attn::MhaDims d = attn::resolve_dims(config);
  const int t = 10, layers = 3;
  const attn::DecodeCost c = attn::decode_cost(d, t, layers);
  // Written out: projections 24·30 (q) + 24·10 (k) + 24·14 (v) + 42·24 (Wᴼ) multiply-adds, biases
  // 30 + 10 + 14 + 24; per visible pair and head 2·5 + 2·7 + 5 + 1.
  const std::int64_t per_token = 2 * (24 * 30 + 24 * 10 + 24 * 14 + 42 * 24) + (30 + 10 + 14 + 24);
  const std::int64_t per_pair = 6 * (10 + 14 + 5 + 1);
  CHECK(c.step_flops == per_token + per_pair * t);
  CHECK(c.recompute_flops == per_token * t + per_pair * t * (t + 1) / 2);
  CHECK(c.speedup == Approx(static_cast<double>(c.recompute_flops) / c.step_flops));
  std::int64_t sum_cached = 0, sum_recompute = 0;
  for (int s = 1; s <= t; ++s) {
    const attn::DecodeCost one = attn::decode_cost(d, s, layers);
    sum_cached += one.step_flops;
    sum_recompute += one.recompute_flops;
  }
  CHECK(c.total_flops == sum_cached);
  CHECK(c.total_recompute_flops == sum_recompute);
  CHECK(c.cache_bytes_per_token == 4 * 2 * (5 + 7));
  CHECK(c.cache_bytes == c.cache_bytes_per_token * t);
  CHECK(c.model_cache_bytes == c.cache_bytes * layers);
  CHECK(c.mha_model_cache_bytes == c.model_cache_bytes * 3);
  CHECK(c.model_step_flops == c.step_flops * layers);
  CHECK_THROWS_WITH(attn::decode_cost(d, 0), Catch::Contains("t must be a positive integer (got 0)"));
  CHECK_THROWS_WITH(attn::decode_cost(d, 4, 0), Catch::Contains("n_layers must be a positive integer (got 0)"));
  // GPT-3's 96 layers at its 2,048-token context: every figure fits 2^53 (refused once, when the
  // check multiplied the one-layer generation total by n_layers).
  const attn::DecodeCost gpt3 = attn::decode_cost(attn::resolve_dims(check::mha_config(12288, 96)), 2048, 96);
  CHECK(gpt3.model_cache_bytes == 4ll * 96 * (128 + 128) * 2048 * 96);
  CHECK(gpt3.total_recompute_flops > gpt3.total_flops);
  attn::MhaConfig huge = check::mha_config(1 << 14, 128);
  CHECK_THROWS_WITH(attn::decode_cost(attn::resolve_dims(huge), 1 << 20, 1 << 10), Catch::Contains("too large to count exactly"));
}

}  // namespace test_kv_cache
