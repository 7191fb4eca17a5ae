// RoPE and ALiBi on the logits (positional.h) against a float64 layer written here from the
// definitions (rotation of each pair by pos·base^(−2t/d_k), bias −m_h·|i − j|, the paper's slopes):
// forward, the trace of one query, the backward pass against central differences, the slopes of
// head counts that are not powers of two, a worker's heads placed by head_offset, and errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "core/backward.h"
#include "core/mha.h"
#include "core/positional.h"
#include "core/trace.h"
#include "labs/kv_cache.h"
#include "check.h"
#include "mha_fixtures.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_positional {

namespace {

using attn::Positional;

// The paper's get_slopes, written as it reads: powers of two directly, otherwise the closest
// lower power of two's slopes followed by every other slope of twice that power.
std::vector<double> paper_slopes(int n) {
  auto pow2 = [](int p) {
    std::vector<double> s;
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(p) - 3)));
    double x = start;
    for (int i = 0; i < p; ++i, x *= start) s.push_back(x);
    return s;
  };
  const double l = std::log2(n);
  if (l == std::floor(l)) return pow2(n);
  const int closest = 1 << static_cast<int>(std::floor(l));
  std::vector<double> s = pow2(closest), extra = paper_slopes(2 * closest);
  for (int i = 0; static_cast<int>(s.size()) < n; i += 2) s.push_back(extra[i]);
  return s;
}

struct Layer {
  int d_model, n_heads, n_kv, d_k, d_v;
  bool bias;
};
struct DoubleWeights {
  std::vector<double> wq, wk, wv, wo, bq, bk, bv, bo;
};
struct Call {
  int batch, n_q, n_k;
  bool causal = false;
  int window = 0, stride = 0;
  Positional positional = Positional::none;
  double base = 10000.0;
  int head_offset = 0, layer_heads = 0;
  bool scale = true;
};

std::vector<double> dbl(const std::vector<float>& x) { return std::vector<double>(x.begin(), x.end()); }

bool visible(const Call& c, int i, int j) {
  if ((c.causal || c.window || c.stride) && j > i) return false;
  if (c.window && j <= i - c.window) return false;
  if (c.stride && i - j >= c.stride && (i - j) % c.stride != 0) return false;
  return true;
}

// x·W + b for rows of width d_in into d_out columns (W d_in×d_out row-major).
std::vector<double> project(const double* x, int rows, int d_in, const std::vector<double>& w,
                            const std::vector<double>& b, int d_out) {
  std::vector<double> y(static_cast<std::size_t>(rows) * d_out);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < d_out; ++c) {
      double s = b.empty() ? 0.0 : b[c];
      for (int k = 0; k < d_in; ++k) s += x[r * d_in + k] * w[static_cast<std::size_t>(k) * d_out + c];
      y[static_cast<std::size_t>(r) * d_out + c] = s;
    }
  return y;
}

void rotate(std::vector<double>& x, int rows, int width, int d_k, double base) {
  for (int r = 0; r < rows; ++r)
    for (int c0 = 0; c0 < width; c0 += d_k)
      for (int t = 0; t < d_k / 2; ++t) {
        const double angle = r * std::pow(base, -2.0 * t / d_k);
        double& a = x[static_cast<std::size_t>(r) * width + c0 + 2 * t];
        double& b = x[static_cast<std::size_t>(r) * width + c0 + 2 * t + 1];
        const double a0 = a, b0 = b;
        a = std::cos(angle) * a0 - std::sin(angle) * b0;
        b = std::sin(angle) * a0 + std::cos(angle) * b0;
      }
}

// The layer in float64: output [batch, n_q, d_model], weights [batch, n_heads, n_q, n_k].
std::vector<double> reference(const Layer& L, const DoubleWeights& w, const std::vector<double>& query,
                              const std::vector<double>& key, const std::vector<double>& value, const Call& c,
                              std::vector<double>* weights = nullptr) {
  const int D = L.d_model, H = L.n_heads, G = L.n_heads / L.n_kv;
  const int total = c.layer_heads ? c.layer_heads : H;
  const std::vector<double> slopes = paper_slopes(total);
  std::vector<double> out(static_cast<std::size_t>(c.batch) * c.n_q * D, 0.0);
  if (weights) weights->assign(static_cast<std::size_t>(c.batch) * H * c.n_q * c.n_k, 0.0);
  for (int b = 0; b < c.batch; ++b) {
    std::vector<double> q = project(query.data() + static_cast<std::size_t>(b) * c.n_q * D, c.n_q, D, w.wq, w.bq, H * L.d_k);
    std::vector<double> k = project(key.data() + static_cast<std::size_t>(b) * c.n_k * D, c.n_k, D, w.wk, w.bk, L.n_kv * L.d_k);
    std::vector<double> v = project(value.data() + static_cast<std::size_t>(b) * c.n_k * D, c.n_k, D, w.wv, w.bv, L.n_kv * L.d_v);
    if (c.positional == Positional::rope) {
      rotate(q, c.n_q, H * L.d_k, L.d_k, c.base);
      rotate(k, c.n_k, L.n_kv * L.d_k, L.d_k, c.base);
    }
    std::vector<double> concat(static_cast<std::size_t>(c.n_q) * H * L.d_v, 0.0);
    for (int h = 0; h < H; ++h) {
      const int g = h / G;
      for (int i = 0; i < c.n_q; ++i) {
        std::vector<double> s(c.n_k);
        double mx = -INFINITY;
        for (int j = 0; j < c.n_k; ++j) {
          if (!visible(c, i, j)) {
            s[j] = -INFINITY;
            continue;
          }
          double dot = 0.0;
          for (int t = 0; t < L.d_k; ++t)
            dot += q[static_cast<std::size_t>(i) * H * L.d_k + h * L.d_k + t] *
                   k[static_cast<std::size_t>(j) * L.n_kv * L.d_k + g * L.d_k + t];
          s[j] = dot / (c.scale ? std::sqrt(static_cast<double>(L.d_k)) : 1.0);
          if (c.positional == Positional::alibi) s[j] -= slopes[c.head_offset + h] * std::abs(i - j);
          mx = std::max(mx, s[j]);
        }
        if (mx == -INFINITY) continue;  // every key masked: weights and output 0
        double sum = 0.0;
        for (double& x : s) sum += (x = std::exp(x - mx));
        for (int j = 0; j < c.n_k; ++j) {
          const double a = s[j] / sum;
          if (weights) (*weights)[((static_cast<std::size_t>(b) * H + h) * c.n_q + i) * c.n_k + j] = a;
          for (int t = 0; t < L.d_v; ++t)
            concat[static_cast<std::size_t>(i) * H * L.d_v + h * L.d_v + t] +=
                a * v[static_cast<std::size_t>(j) * L.n_kv * L.d_v + g * L.d_v + t];
        }
      }
    }
    const std::vector<double> y = project(concat.data(), c.n_q, H * L.d_v, w.wo, w.bo, D);
    std::copy(y.begin(), y.end(), out.begin() + static_cast<std::ptrdiff_t>(b) * c.n_q * D);
  }
  return out;
}

attn::MhaDims dims_of(const Layer& L) {
  attn::MhaConfig cfg = check::mha_config(L.d_model, L.n_heads, L.d_k, L.d_v, L.bias);
  cfg.n_kv_heads = L.n_kv;
  return attn::resolve_dims(cfg);
}

attn::ForwardOptions options_of(const Call& c) {
  attn::ForwardOptions o;
  o.mask.causal = c.causal;
  o.mask.window = c.window;
  o.mask.stride = c.stride;
  o.positional = c.positional;
  if (c.positional == Positional::rope) o.rope_base = c.base;  // given with another method it is refused
  o.head_offset = c.head_offset;
  o.layer_heads = c.layer_heads;
  o.scale = c.scale;
  return o;
}

DoubleWeights double_weights(const attn::MhaWeights& w) {
  return {dbl(w.wq), dbl(w.wk), dbl(w.wv), dbl(w.wo), dbl(w.bq), dbl(w.bk), dbl(w.bv), dbl(w.bo)};
}

}  // namespace

TEST_CASE("ALiBi slopes follow the paper's rule for every head count, powers of two or not", "[positional]") {
  for (const int n : {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 32}) {
    const std::vector<double> want = paper_slopes(n), got = attn::alibi_slopes(n);
    REQUIRE(got.size() == want.size());
    for (int h = 0; h < n; ++h) {
      INFO("n_heads " << n << ", head " << h << ": got " << got[h] << ", want " << want[h]);
      CHECK(std::fabs(got[h] - want[h]) <= 1e-12 * want[h]);  // the paper multiplies: rounding
    }
  }
  // Spot values written out: 8 heads 1/2 … 1/256; 6 heads: 4's (1/4, 1/16, 1/64, 1/256) then 8's 1st and 3rd.
  CHECK(attn::alibi_slope(0, 8) == 0.5);
  CHECK(attn::alibi_slope(7, 8) == 1.0 / 256);
  CHECK(attn::alibi_slope(4, 6) == 0.5);
  CHECK(attn::alibi_slope(5, 6) == 0.125);
}

TEST_CASE("MHA forward with RoPE and ALiBi matches a float64 layer (masks, GQA, cross-attention, batch)",
          "[positional]") {
  struct Case {
    Layer L;
    Call c;
  };
  std::vector<Case> cases;
  for (const Positional p : {Positional::rope, Positional::alibi}) {
    cases.push_back({{16, 4, 4, 4, 4, true}, {2, 7, 7, true, 0, 0, p}});
    cases.push_back({{16, 4, 2, 4, 6, true}, {1, 9, 9, false, 0, 0, p}});       // GQA, d_v ≠ d_k, no mask
    cases.push_back({{12, 3, 3, 4, 4, false}, {2, 5, 8, false, 0, 0, p}});      // 3 heads, cross n_q ≠ n_k
    cases.push_back({{10, 5, 5, 2, 2, true}, {1, 11, 11, false, 3, 0, p}});     // 5 heads, sliding window 3
    cases.push_back({{12, 6, 3, 2, 2, true}, {1, 10, 10, false, 0, 3, p}});     // 6 heads, strided 3
    cases.push_back({{8, 1, 1, 8, 8, true}, {1, 6, 6, true, 0, 0, p, 100.0}});  // 1 head, rope_base 100
  }
  cases.push_back({{24, 12, 12, 2, 2, true}, {1, 5, 5, true, 0, 0, Positional::alibi}});  // 12 heads
  // Streaming over key tiles (n_k > 128) with the bias added tile by tile.
  cases.push_back({{8, 2, 2, 4, 4, true}, {1, 3, 300, false, 0, 0, Positional::alibi}});
  int n = 0;
  for (const Case& tc : cases) {
    const attn::MhaDims d = dims_of(tc.L);
    attn::MhaConfig cfg = check::mha_config(tc.L.d_model, tc.L.n_heads, tc.L.d_k, tc.L.d_v, tc.L.bias);
    cfg.n_kv_heads = tc.L.n_kv;
    attn::MultiHeadAttention layer(cfg);
    const attn::MhaWeights w = fixtures::random_weights(d, 40 + n);
    layer.set_weights(w);
    check::TestRng rng(70 + n++);
    const Call& c = tc.c;
    const std::vector<float> q = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * d.d_model, -1.5f, 1.5f);
    const std::vector<float> kv = rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * d.d_model, -1.5f, 1.5f);
    const bool self = c.n_q == c.n_k && n % 2 == 1;
    const std::vector<float>& k = self ? q : kv;
    std::vector<double> want_w;
    const std::vector<double> want = reference(tc.L, double_weights(w), dbl(q), dbl(k), dbl(k), c, &want_w);
    for (const bool need_weights : {false, true}) {
      attn::ForwardOptions opt = options_of(c);
      opt.need_weights = need_weights;
      if (c.n_k > 128) opt.scratch_logits = 0;  // the streaming path
      const attn::MhaResult r = layer.forward({q.data(), q.size(), k.data(), k.size(), k.data(), k.size(), c.batch, c.n_q, c.n_k}, opt);
      const check::Worst e = check::normwise(r.output, want);
      INFO("case " << n << " positional " << attn::positional_name(c.positional) << " heads " << tc.L.n_heads
                   << " need_weights " << need_weights << ": " << e.describe());
      CHECK(e.err < 1e-5);
      if (need_weights) {
        const check::Worst ew = check::max_abs(r.weights, want_w);
        INFO("weights: " << ew.describe());
        CHECK(ew.err < 1e-5);
      }
    }
  }
}

TEST_CASE("RoPE changes the output and ALiBi favours near keys: the methods are not silently off", "[positional]") {
  const Layer L{16, 4, 4, 4, 4, true};
  attn::MultiHeadAttention layer(check::mha_config(16, 4));
  check::TestRng rng(5);
  const std::vector<float> x = rng.vec(8 * 16, -1.0f, 1.0f);
  const attn::MhaInput in{x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 1, 8, 8};
  attn::ForwardOptions none, rope, alibi;
  none.need_weights = rope.need_weights = alibi.need_weights = true;
  rope.positional = Positional::rope;
  alibi.positional = Positional::alibi;
  const attn::MhaResult a = layer.forward(in, none), b = layer.forward(in, rope), c = layer.forward(in, alibi);
  CHECK(check::max_abs(a.output, b.output).err > 1e-3);
  // Head 0's slope is 1/4 with 4 heads: the weight on the diagonal grows relative to far keys.
  double near_none = 0, near_alibi = 0;
  for (int i = 0; i < 8; ++i) {
    near_none += a.weights[i * 8 + i];
    near_alibi += c.weights[i * 8 + i];
  }
  CHECK(near_alibi > near_none);
  (void)L;
}

TEST_CASE("a layer holding heads 2..3 of 4 gives them their slopes in the whole layer (head_offset, layer_heads)",
          "[positional]") {
  const Layer whole{8, 4, 4, 2, 2, true}, part{8, 2, 2, 2, 2, true};
  const attn::MhaDims dw = dims_of(whole);
  const attn::MhaWeights w = fixtures::random_weights(dw, 3);
  DoubleWeights wd = double_weights(w);
  // The worker's layer: heads 2 and 3's columns of Wq, Wk, Wv, their rows of Wo, no bᴼ.
  attn::MhaWeights s;
  for (int r = 0; r < 8; ++r)
    for (int c = 4; c < 8; ++c) {
      s.wq.push_back(w.wq[r * 8 + c]);
      s.wk.push_back(w.wk[r * 8 + c]);
      s.wv.push_back(w.wv[r * 8 + c]);
    }
  s.wo.assign(w.wo.begin() + 4 * 8, w.wo.end());
  s.bq.assign(w.bq.begin() + 4, w.bq.end());
  s.bk.assign(w.bk.begin() + 4, w.bk.end());
  s.bv.assign(w.bv.begin() + 4, w.bv.end());
  s.bo.assign(8, 0.0f);
  attn::MultiHeadAttention layer(check::mha_config(8, 2, 2, 2, true));
  layer.set_weights(s);
  check::TestRng rng(9);
  const std::vector<float> x = rng.vec(6 * 8, -1.0f, 1.0f);
  Call c{1, 6, 6, true, 0, 0, Positional::alibi};
  c.head_offset = 2;
  c.layer_heads = 4;
  const std::vector<double> want = reference(part, double_weights(s), dbl(x), dbl(x), dbl(x), c);
  const attn::MhaResult r = layer.forward({x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 1, 6, 6}, options_of(c));
  const check::Worst e = check::normwise(r.output, want);
  INFO(e.describe());
  CHECK(e.err < 1e-5);
  // Without the offset the heads would take the slopes of heads 0 and 1 of a 2-head layer: different.
  c.head_offset = 0;
  c.layer_heads = 0;
  const attn::MhaResult alone = layer.forward({x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 1, 6, 6}, options_of(c));
  CHECK(check::max_abs(alone.output, r.output).err > 1e-4);
  (void)wd;
}

TEST_CASE("MHA backward with RoPE and ALiBi: every gradient matches float64 central differences", "[positional]") {
  for (const Positional p : {Positional::rope, Positional::alibi}) {
    for (const bool gqa : {false, true}) {
      const Layer L{8, 4, gqa ? 2 : 4, 2, 3, true};
      const attn::MhaDims d = dims_of(L);
      attn::MhaConfig cfg = check::mha_config(8, 4, 2, 3, true);
      cfg.n_kv_heads = L.n_kv;
      attn::MultiHeadAttention layer(cfg);
      const attn::MhaWeights w = fixtures::random_weights(d, gqa ? 11 : 12);
      layer.set_weights(w);
      check::TestRng rng(gqa ? 21 : 22);
      Call c{2, 5, gqa ? 6 : 5, !gqa, 0, 0, p};
      const std::vector<float> xq = rng.vec(static_cast<std::size_t>(c.batch) * c.n_q * 8, -1.0f, 1.0f);
      const std::vector<float> xk = gqa ? rng.vec(static_cast<std::size_t>(c.batch) * c.n_k * 8, -1.0f, 1.0f) : xq;
      const std::vector<float> dy = rng.vec(xq.size(), -1.0f, 1.0f);
      const attn::MhaBackwardResult r = attn::multi_head_attention_backward(
          layer, {xq.data(), xq.size(), xk.data(), xk.size(), xk.data(), xk.size(), c.batch, c.n_q, c.n_k}, dy.data(),
          dy.size(), options_of(c));
      DoubleWeights wd = double_weights(w);
      std::vector<double> q = dbl(xq), k = dbl(xk), v = dbl(xk);
      auto loss = [&] {
        const std::vector<double> y = reference(L, wd, q, k, v, c);
        double s = 0.0;
        for (std::size_t i = 0; i < y.size(); ++i) s += y[i] * dy[i];
        return s;
      };
      auto fd = [&](std::vector<double>& x) {
        std::vector<double> g(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
          const double x0 = x[i];
          x[i] = x0 + 1e-5;
          const double up = loss();
          x[i] = x0 - 1e-5;
          const double down = loss();
          x[i] = x0;
          g[i] = (up - down) / 2e-5;
        }
        return g;
      };
      const std::pair<const char*, std::pair<const std::vector<float>*, std::vector<double>*>> all[] = {
          {"wq", {&r.grads.wq, &wd.wq}}, {"wk", {&r.grads.wk, &wd.wk}}, {"wv", {&r.grads.wv, &wd.wv}},
          {"bq", {&r.grads.bq, &wd.bq}}, {"bk", {&r.grads.bk, &wd.bk}}, {"query", {&r.query, &q}},
          {"key", {&r.key, &k}}};
      for (const auto& [name, pair] : all) {
        const std::vector<double> want = fd(*pair.second);
        const check::Worst e = check::normwise(*pair.first, want);
        INFO(attn::positional_name(p) << (gqa ? " GQA cross" : " causal self") << " d" << name << ": " << e.describe());
        // dbk is 0 in exact arithmetic without RoPE (q·b_k shifts a whole row of logits): absolute there.
        if (e.scale < 1e-6) CHECK(check::max_abs(*pair.first, want).err < 1e-6);
        else CHECK(e.err < 1e-4);
      }
    }
  }
}

TEST_CASE("the trace of one query shows the rotated q and k, ALiBi's bias, and the forward pass's weights",
          "[positional]") {
  const Layer L{8, 4, 4, 2, 2, true};
  attn::MultiHeadAttention layer(check::mha_config(8, 4, 2, 2, true));
  const attn::MhaWeights w = fixtures::random_weights(dims_of(L), 4);
  layer.set_weights(w);
  check::TestRng rng(2);
  const std::vector<float> x = rng.vec(7 * 8, -1.0f, 1.0f);
  const attn::MhaInput in{x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 1, 7, 7};
  for (const Positional p : {Positional::rope, Positional::alibi}) {
    attn::ForwardOptions opt;
    opt.positional = p;
    opt.need_weights = true;
    const attn::MhaResult full = layer.forward(in, opt);
    const int head = 3, query = 5;
    const attn::MhaTrace t = layer.trace(in, opt, 0, head, query);
    for (int j = 0; j < 7; ++j) CHECK(t.head.weights[j] == full.weights[(head * 7 + query) * 7 + j]);
    CHECK(check::max_abs(t.output.data(), full.output.data() + query * 8, 8).err < 1e-6);
    if (p == Positional::alibi) {
      const double m = paper_slopes(4)[head];
      CHECK(t.head.slope == static_cast<float>(m));
      REQUIRE(t.head.bias.size() == 7);
      for (int j = 0; j < 7; ++j) CHECK(t.head.bias[j] == static_cast<float>(-m * std::abs(query - j)));
    } else {
      CHECK(t.head.bias.empty());
      // q of the trace is the projected q rotated at position `query`: its pair norms are the projection's.
      std::vector<double> qp = project(dbl(x).data() + query * 8, 1, 8, dbl(w.wq), dbl(w.bq), 8);
      const double n0 = std::hypot(qp[head * 2], qp[head * 2 + 1]);
      CHECK(std::fabs(std::hypot(t.q[0], t.q[1]) - n0) < 1e-5);
      const double angle = query * 1.0;  // t = 0: the angle is pos·base^0
      CHECK(std::fabs(t.q[0] - (std::cos(angle) * qp[head * 2] - std::sin(angle) * qp[head * 2 + 1])) < 1e-5);
    }
  }
}

TEST_CASE("RoPE's logits depend only on the offset i − j", "[positional]") {
  check::TestRng rng(31);
  const std::vector<float> q = rng.vec(8, -1.0f, 1.0f), k = rng.vec(8, -1.0f, 1.0f);
  for (const int offset : {0, 1, 3}) {
    const std::vector<double> l = attn::rope_logits(q, k, offset, {3, 7, 20, 100}, 10000.0, true);
    for (double x : l) CHECK(std::fabs(x - l[0]) < 1e-5);
  }
  const std::vector<double> a = attn::rope_logits(q, k, 0, {5}, 10000.0, true), b = attn::rope_logits(q, k, 2, {5}, 10000.0, true);
  CHECK(std::fabs(a[0] - b[0]) > 1e-3);
}

TEST_CASE("positional errors: odd d_k with RoPE, a bad rope_base, heads outside the layer, SDPA", "[positional]") {
  attn::MultiHeadAttention odd(check::mha_config(6, 2, 3, 3));
  const std::vector<float> x(4 * 6, 0.5f);
  const attn::MhaInput in{x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 1, 4, 4};
  attn::ForwardOptions opt;
  opt.positional = Positional::rope;
  CHECK_THROWS_WITH(odd.forward(in, opt), Catch::Contains("d_k must be even") && Catch::Contains("d_k 3"));
  attn::MultiHeadAttention even(check::mha_config(8, 2));
  const std::vector<float> y(4 * 8, 0.5f);
  const attn::MhaInput in8{y.data(), y.size(), y.data(), y.size(), y.data(), y.size(), 1, 4, 4};
  opt.rope_base = 0.5;
  CHECK_THROWS_WITH(even.forward(in8, opt), Catch::Contains("rope_base"));
  opt.positional = Positional::alibi;
  opt.rope_base.reset();  // ALiBi has no base (given, it is refused: see the next test)
  opt.head_offset = 3;
  opt.layer_heads = 4;
  CHECK_THROWS_WITH(even.forward(in8, opt), Catch::Contains("head_offset"));
  CHECK_THROWS_WITH(attn::parse_positional("sinusoid"), Catch::Contains("'none', 'rope' or 'alibi'"));
  attn::AttentionOptions sdpa;
  sdpa.positional = Positional::alibi;
  CHECK_THROWS_WITH(attn::scaled_dot_product_attention(y.data(), 8, y.data(), 8, y.data(), 8, 1, 2, 2, 4, 4, sdpa, false,
                                                       attn::kDefaultMemoryBudget),
                    Catch::Contains("MultiHeadAttention"));
}

// Issue 35, item 17: rope_base given with positional 'none' (or 'alibi') was silently ignored, while
// window with a mask other than sliding is refused. One rule: an option that does not apply is an error.
TEST_CASE("rope_base is refused unless positional is 'rope', in forward and in decode_step", "[positional]") {
  attn::MultiHeadAttention layer(check::mha_config(8, 2));
  const std::vector<float> y(4 * 8, 0.5f);
  const attn::MhaInput in{y.data(), y.size(), y.data(), y.size(), y.data(), y.size(), 1, 4, 4};
  for (const Positional p : {Positional::none, Positional::alibi}) {
    attn::ForwardOptions opt;
    opt.positional = p;
    opt.rope_base = 500.0;
    const std::string want = std::string("rope_base is only used with positional 'rope' (positional is '") +
                             attn::positional_name(p) + "')";
    CHECK_THROWS_WITH(layer.forward(in, opt), want);
    opt.rope_base = attn::kRopeBase;  // the default value given explicitly is still an option that does not apply
    CHECK_THROWS_WITH(layer.forward(in, opt), want);
    attn::KVCache cache(layer, 4);
    attn::DecodeOptions step;
    step.positional = p;
    step.rope_base = 500.0;
    CHECK_THROWS_WITH(attn::decode_step(layer, cache, y.data(), 8, step), want);
    CHECK(cache.length() == 0);
    step.rope_base.reset();
    CHECK_NOTHROW(attn::decode_step(layer, cache, y.data(), 8, step));
  }
  attn::ForwardOptions rope;  // with RoPE a base applies, and an absent one is 10000
  rope.positional = Positional::rope;
  const attn::MhaResult absent = layer.forward(in, rope);
  rope.rope_base = 10000.0;
  const attn::MhaResult given = layer.forward(in, rope);
  CHECK(absent.output == given.output);
}

}  // namespace test_positional
