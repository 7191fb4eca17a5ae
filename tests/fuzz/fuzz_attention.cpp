// libFuzzer driver over the core's public C++ API (built with ASan and UBSan, see fuzz.cmake).
// Each input becomes one call (plain attention, a multi-head layer, or an analysis, table or
// matmul call; fuzz_case.h) and the oracle holds the engine to this: it either throws an
// attn::Error whose message names the problem (and must, for bad input), or returns finite
// results that match the float64 reference (tests/cpp/reference.h) within an error bound derived
// from float's rounding, with the fully masked rows exactly those the reference finds. Attention
// runs every input on all three paths: weights requested, whole rows in scratch, streaming.
// A finding prints the case and aborts, so libFuzzer saves the input as a crash artifact.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis.h"
#include "core/attention.h"
#include "core/error.h"
#include "core/matmul.h"
#include "core/mha.h"
#include "fuzz_case.h"
#include "reference.h"

namespace {

using fuzz::Api;
using fuzz::Case;

constexpr double kU = 1.0 / 16777216.0;  // float's unit roundoff, 2^-24
// The absolute floor of the error of a sum of n float terms: each may round by a subnormal step.
double subnormal_steps(int n) { return 4.0 * (n + 1) * 1.4e-45; }
const Case* g_case = nullptr;            // for the report of a finding

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "\n==== FUZZ FINDING: %s\n     case: %s\n", what.c_str(), g_case ? fuzz::describe(*g_case).c_str() : "?");
  std::fflush(stderr);
  std::abort();
}

bool contains_any(const std::string& text, const std::vector<std::string>& words) {
  for (const std::string& w : words)
    if (text.find(w) != std::string::npos) return true;
  return false;
}

// What the oracle predicts before the call: invalid input (with the words one of the messages
// must contain), or valid, and then whether every intermediate provably stays finite (the
// engine must succeed) or may overflow (it may refuse, naming the overflow).
struct Prediction {
  std::vector<std::string> invalid;  // message words of each reason the input is bad; empty: valid
  bool must_succeed = true;
  void bad(std::initializer_list<const char*> words) { invalid.insert(invalid.end(), words.begin(), words.end()); }
};

bool all_finite(const std::vector<float>& x) {
  for (float v : x)
    if (!std::isfinite(v)) return false;
  return true;
}

long double product(std::initializer_list<long long> dims) {
  long double n = 1;
  for (long long d : dims) n *= static_cast<long double>(d);
  return n;
}

void predict_mask_and_dropout(const Case& c, Prediction& p) {
  if (!(c.opt.dropout >= 0.0f && c.opt.dropout < 1.0f)) p.bad({"dropout must be in [0, 1)"});
  const auto& len = c.opt.mask.key_lengths;
  if (!len.empty()) {
    if (static_cast<long long>(len.size()) != c.batch) p.bad({"padding mask has"});
    for (int l : len)
      if (l < 0 || l > c.n_k) p.bad({"padding mask: key length"});
  }
  if (!c.opt.mask.matrix.empty() && static_cast<long double>(c.opt.mask.matrix.size()) != product({c.n_q, c.n_k}))
    p.bad({"mask matrix has"});
}

// Whether the call should be run at all: valid inputs are kept to work a reference can check
// in milliseconds (raw sizes can describe valid problems of hours).
bool affordable(const Case& c, int widths) {
  return product({c.batch, c.n_q, c.n_k, widths + 1}) <= 4e6 && product({c.batch, c.n_q, c.n_k}) <= 4e5;
}

double keep_scale(const Case& c) {
  return c.opt.training && c.opt.dropout > 0.0f ? 1.0 / (1.0 - static_cast<double>(c.opt.dropout)) : 1.0;
}

std::vector<std::pair<int, int>> sorted_rows(const std::vector<attn::MaskedRow>& rows) {
  std::vector<std::pair<int, int>> out;
  for (const attn::MaskedRow& r : rows) out.emplace_back(r.b, r.i);
  std::sort(out.begin(), out.end());
  return out;
}

// The three paths through attend_head.
struct Path {
  const char* name;
  bool need_weights;
  std::size_t scratch_logits;
};
const Path kPaths[] = {{"weights", true, std::size_t{1} << 21},
                       {"whole rows", false, std::size_t{1} << 21},
                       {"streaming", false, 0}};

// A thrown attn::Error is judged against the prediction; returns false (nothing more to check).
void judge_refusal(const Prediction& p, const std::string& message, const char* path) {
  if (message.size() < 12) finding(std::string("a message too short to say anything: '") + message + "' (" + path + ")");
  if (!p.invalid.empty()) {
    if (!contains_any(message, p.invalid)) finding(std::string("bad input refused with an unrelated message: '") + message + "' (" + path + ")");
    return;
  }
  if (p.must_succeed) finding(std::string("valid input whose every intermediate fits float was refused: '") + message + "' (" + path + ")");
  if (!contains_any(message, {"overflow", "memory budget", "too large"}))
    finding(std::string("valid input refused without naming an overflow or a budget: '") + message + "' (" + path + ")");
}

// Runs one engine call, which returns its fully masked rows. A refusal is judged against the
// prediction (false: nothing more to check); an accepted call must have been predicted valid and
// must report exactly the reference's masked rows.
template <class F>
bool accepted(const Prediction& p, const char* path, const std::vector<attn::MaskedRow>& want_masked, F&& call) {
  std::vector<attn::MaskedRow> masked;
  try {
    masked = call();
  } catch (const attn::Error& e) {
    judge_refusal(p, e.what(), path);
    return false;
  } catch (const std::exception& e) {
    finding(std::string("an exception other than attn::Error: ") + e.what() + " (" + path + ")");
  }
  if (!p.invalid.empty()) finding(std::string("bad input accepted (") + path + "), expected: " + p.invalid[0]);
  if (sorted_rows(masked) != sorted_rows(want_masked))
    finding(std::string("masked rows differ from the float64 reference's (") + path + ")");
  return true;
}

// --------------------------------------------------------------------------- row checks
// One row of attention weights and its output, for plain attention and for a layer's head.
// Inputs in double: logits' error bound E, the reference row (weights w_ref with dropout, the
// unmasked keys), the value columns (|v| + their error bound dv), and the engine's row.
struct RowCheck {
  int n_k;
  double E;                                  // bound of the absolute error of every logit
  double keep;                               // 1/(1−p) under dropout, else 1
  bool masked_row;
  const double* w_ref;                       // n_k
  const std::vector<bool>* masked;           // n_k: masked by the mask rule
  const float* w_got;                        // n_k or nullptr when weights were not requested
  double floor;                              // absolute floor of output errors (subnormal steps)
};

// Subnormal rounding in the weighted sums, magnified when they are damped by a power of two
// (values whose n_k-fold sum could overflow): the absolute floor of an output error.
double subnormal_floor(int n_k, double keep, double v_bound) {
  return subnormal_steps(n_k) * std::max(1.0, 2.0 * keep * n_k * v_bound / 1e37);
}

void check_weights(const RowCheck& r, const char* path) {
  if (!r.w_got) return;
  double sum = 0.0;
  for (int j = 0; j < r.n_k; ++j) {
    const double got = r.w_got[j];
    if (!std::isfinite(got)) finding(std::string("non-finite weight (") + path + ")");
    if (((*r.masked)[j] || r.masked_row) && got != 0.0)
      finding("weight " + std::to_string(j) + " is masked but " + std::to_string(got) + " (" + path + ")");
    if (r.E <= 0.01) {
      const double tol = (std::expm1(2.0 * r.E) + 2e-5) * r.w_ref[j] + 2e-6 * r.keep;
      if (std::fabs(got - r.w_ref[j]) > tol)
        finding("weight " + std::to_string(j) + " = " + std::to_string(got) + ", float64 says " +
                std::to_string(r.w_ref[j]) + " (bound " + std::to_string(tol) + ", " + path + ")");
    } else if (got < 0.0 || got > r.keep * (1.0 + 1e-5)) {
      finding("weight " + std::to_string(j) + " = " + std::to_string(got) + " outside [0, 1/(1−p)] (" + path + ")");
    }
    sum += got;
  }
  if (!r.masked_row && r.keep == 1.0 && std::fabs(sum - 1.0) > 1e-5)
    finding("weights sum to " + std::to_string(sum) + ", not 1 (" + path + ")");
}

// Bound of the error of one output column c of a row: Σ_j A_j·v_jc in the engine against the
// reference, where v carries its own error bound dv (a projection's rounding; 0 for plain inputs).
double output_bound(const RowCheck& r, const std::vector<double>& v_abs, const std::vector<double>& dv,
                    int width, int c) {
  if (r.masked_row) return 0.0;
  if (r.E <= 0.01) {
    double weighted = 0.0, weighted_dv = 0.0, plain = 0.0;
    for (int j = 0; j < r.n_k; ++j) {
      const double a = std::fabs(v_abs[static_cast<std::size_t>(j) * width + c]) + dv[static_cast<std::size_t>(j) * width + c];
      weighted += r.w_ref[j] * a;
      weighted_dv += r.w_ref[j] * dv[static_cast<std::size_t>(j) * width + c];
      plain += (*r.masked)[j] ? 0.0 : a;
    }
    return (std::expm1(2.0 * r.E) + 2e-5 + 4.0 * (r.n_k + 4) * kU) * weighted + weighted_dv + 2e-6 * r.keep * plain +
           r.floor;
  }
  // Ill-conditioned (logits so large that float's rounding can move the winner): any point of the
  // values' hull may be right, so the error is at most its width.
  double most = 0.0;
  for (int j = 0; j < r.n_k; ++j)
    if (!(*r.masked)[j])
      most = std::max(most, std::fabs(v_abs[static_cast<std::size_t>(j) * width + c]) + dv[static_cast<std::size_t>(j) * width + c]);
  return 2.0 * r.keep * most * (1.0 + 1e-5) + r.floor;
}

// Ill-conditioned rows of plain attention still have one sure property: the output is a convex
// combination of the unmasked value rows (under dropout, of them and 0, scaled by 1/(1−p)).
void check_hull(const RowCheck& r, const std::vector<double>& v, int width, int c, double got, const char* path) {
  double lo = INFINITY, hi = -INFINITY;
  for (int j = 0; j < r.n_k; ++j)
    if (!(*r.masked)[j]) {
      lo = std::min(lo, v[static_cast<std::size_t>(j) * width + c]);
      hi = std::max(hi, v[static_cast<std::size_t>(j) * width + c]);
    }
  if (r.keep != 1.0) {
    lo = r.keep * std::min(0.0, lo);
    hi = r.keep * std::max(0.0, hi);
  }
  const double t = 1e-5 * std::max(std::fabs(lo), std::fabs(hi)) + r.floor;
  if (got < lo - t || got > hi + t)
    finding("output " + std::to_string(got) + " outside the values' range [" + std::to_string(lo) + ", " +
            std::to_string(hi) + "] (" + path + ")");
}

// ----------------------------------------------------------------------- plain attention
void run_sdpa(const Case& c) {
  Prediction p;
  for (const auto& [name, v] : {std::pair<const char*, int>{"batch", c.batch}, {"n_q", c.n_q}, {"n_k", c.n_k},
                                {"d_k", c.d_k}, {"d_v", c.d_v}})
    if (v < 1 || v > attn::kMaxDim) p.bad({"must be a positive integer", "is larger than the"});
  const bool sizes_ok = p.invalid.empty();
  const float* k = c.self ? c.x.data() : c.y.data();
  const float* v = c.self ? c.x.data() : c.z.data();
  const std::size_t k_len = c.self ? c.x.size() : c.y.size(), v_len = c.self ? c.x.size() : c.z.size();
  if (sizes_ok) {
    if (c.x.size() != product({c.batch, c.n_q, c.d_k})) p.bad({"q has"});
    if (k_len != product({c.batch, c.n_k, c.d_k})) p.bad({"k has"});
    if (v_len != product({c.batch, c.n_k, c.d_v})) p.bad({"v has"});
    predict_mask_and_dropout(c, p);
  }
  const bool lengths_ok = p.invalid.empty();
  if (lengths_ok && !affordable(c, c.d_k + c.d_v)) return;  // valid, but too much work to check
  // The buffers passed: with q = k = v only x (its copies in y and z are not used).
  if (!all_finite(c.x) || (!c.self && (!all_finite(c.y) || !all_finite(c.z)))) p.bad({"contains"});

  const attn::AttentionOptions base = c.opt;
  reference::AttentionRef ref;
  std::vector<float> kf, vf;
  const double alpha = static_cast<double>(attn::logit_scale(c.opt, std::max(c.d_k, 1)));
  if (p.invalid.empty()) {
    kf.assign(k, k + k_len);
    vf.assign(v, v + v_len);
    ref = reference::attention(c.x, kf, vf, c.batch, c.n_q, c.n_k, c.d_k, c.d_v, c.opt);
    // Must succeed when α·max|q|·max|k| stays under the guard's 1e38 and the values cannot overflow.
    const double keep = keep_scale(c);
    for (int b = 0; b < c.batch; ++b) {
      const double q2 = attn::max_row_norm2(c.x.data() + static_cast<std::size_t>(b) * c.n_q * c.d_k, c.d_k, c.n_q, c.d_k);
      const double k2 = attn::max_row_norm2(k + static_cast<std::size_t>(b) * c.n_k * c.d_k, c.d_k, c.n_k, c.d_k);
      const double v2 = attn::max_row_norm2(v + static_cast<std::size_t>(b) * c.n_k * c.d_v, c.d_v, c.n_k, c.d_v);
      // The engine's guard refuses at α·|q|·|k| ≥ 1e38 from these very norms: just below it must run.
      if (!(alpha * std::sqrt(q2) * std::sqrt(k2) < 0.99e38) || !(keep * std::sqrt(v2) < 1e37)) p.must_succeed = false;
    }
  }
  for (const Path& path : kPaths) {
    attn::AttentionOptions opt = base;
    opt.scratch_logits = path.scratch_logits;
    attn::AttentionResult r;
    if (!accepted(p, path.name, ref.masked_rows, [&] {
          r = attn::scaled_dot_product_attention(c.x.data(), c.x.size(), k, k_len, v, v_len, c.batch, c.n_q, c.n_k,
                                                 c.d_k, c.d_v, opt, path.need_weights, attn::kDefaultMemoryBudget);
          return r.masked_rows;
        }))
      continue;
    const std::vector<double> dv(vf.size(), 0.0);
    for (int b = 0; b < c.batch; ++b) {
      const std::vector<double> v_abs(vf.begin() + static_cast<std::ptrdiff_t>(b) * c.n_k * c.d_v,
                                      vf.begin() + static_cast<std::ptrdiff_t>(b + 1) * c.n_k * c.d_v);
      const double v_bound = std::sqrt(attn::max_row_norm2(vf.data() + static_cast<std::size_t>(b) * c.n_k * c.d_v, c.d_v, c.n_k, c.d_v));
      for (int i = 0; i < c.n_q; ++i) {
        const std::size_t row = static_cast<std::size_t>(b) * c.n_q + i;
        std::vector<bool> masked(c.n_k);
        double s_abs = 0.0;
        bool any = false;
        for (int j = 0; j < c.n_k; ++j) {
          masked[j] = reference::is_masked(c.opt.mask, b, i, j, c.n_k);
          if (masked[j]) continue;
          any = true;
          double s = 0.0;
          for (int t = 0; t < c.d_k; ++t)
            s += std::fabs(static_cast<double>(c.x[row * c.d_k + t])) *
                 std::fabs(static_cast<double>(kf[(static_cast<std::size_t>(b) * c.n_k + j) * c.d_k + t]));
          s_abs = std::max(s_abs, alpha * s);
        }
        const RowCheck rc{c.n_k, 4.0 * (c.d_k + 6) * kU * s_abs, keep_scale(c), !any, ref.weights.data() + row * c.n_k,
                          &masked, path.need_weights ? r.weights.data() + row * c.n_k : nullptr,
                          subnormal_floor(c.n_k, keep_scale(c), v_bound)};
        check_weights(rc, path.name);
        for (int t = 0; t < c.d_v; ++t) {
          const double got = r.output[row * c.d_v + t], want = ref.output[row * c.d_v + t];
          if (!std::isfinite(got)) finding(std::string("non-finite output (") + path.name + ")");
          if (any && rc.E > 0.01) check_hull(rc, v_abs, c.d_v, t, got, path.name);
          const double bound = output_bound(rc, v_abs, dv, c.d_v, t) + 2 * kU * std::fabs(want);
          if (std::fabs(got - want) > bound)
            finding("output [" + std::to_string(b) + ", " + std::to_string(i) + ", " + std::to_string(t) + "] = " +
                    std::to_string(got) + ", float64 says " + std::to_string(want) + " (bound " + std::to_string(bound) +
                    ", E " + std::to_string(rc.E) + ", " + path.name + ")");
        }
      }
    }
  }
}

// ----------------------------------------------------------------------- multi-head layer
// y = x·W + b in double over rows, and the bound of float's error on it: 4·(d_in + 4)·u·(|x|·|W| + |b|).
void project(const float* x, int rows, int d_in, const std::vector<float>& w, const std::vector<float>& bias, int d_out,
             std::vector<double>& y, std::vector<double>& err, double& largest_abs) {
  y.assign(static_cast<std::size_t>(rows) * d_out, 0.0);
  err.assign(y.size(), 0.0);
  for (int r = 0; r < rows; ++r)
    for (int o = 0; o < d_out; ++o) {
      double s = bias.empty() ? 0.0 : bias[o], a = bias.empty() ? 0.0 : std::fabs(bias[o]);
      for (int m = 0; m < d_in; ++m) {
        const double term = static_cast<double>(x[static_cast<std::size_t>(r) * d_in + m]) * w[static_cast<std::size_t>(m) * d_out + o];
        s += term;
        a += std::fabs(term);
      }
      y[static_cast<std::size_t>(r) * d_out + o] = s;
      err[static_cast<std::size_t>(r) * d_out + o] = 4.0 * (d_in + 4) * kU * a + subnormal_steps(d_in);
      largest_abs = std::max(largest_abs, a);
    }
}

void run_mha(const Case& c) {
  Prediction p;
  for (const auto& [name, v] : {std::pair<const char*, int>{"batch", c.batch}, {"n_q", c.n_q}, {"n_k", c.n_k}})
    if (v < 1 || v > attn::kMaxDim) p.bad({"must be a positive integer", "must each be at most"});
  // The layer: its sizes (refusals checked by the Catch2 suite; here they must only be clear).
  std::unique_ptr<attn::MultiHeadAttention> layer;
  try {
    layer = std::make_unique<attn::MultiHeadAttention>(attn::MhaConfig{c.d_model, c.n_heads, c.d_k, c.d_v, c.bias, c.opt.seed});
  } catch (const attn::Error& e) {
    const bool ordinary = c.d_model >= 1 && c.d_model <= 64 && c.n_heads >= 1 && c.n_heads <= c.d_model &&
                          ((c.d_k > 0 && c.d_v > 0) || c.d_model % c.n_heads == 0);
    if (ordinary) finding(std::string("an ordinary layer was refused: ") + e.what());
    return;
  } catch (const std::exception& e) {
    finding(std::string("an exception other than attn::Error building a layer: ") + e.what());
  }
  const attn::MhaDims d = layer->dims();
  if (!c.default_weights) {
    const attn::MhaWeights& w = c.weights;
    const bool finite = all_finite(w.wq) && all_finite(w.wk) && all_finite(w.wv) && all_finite(w.wo) &&
                        all_finite(w.bq) && all_finite(w.bk) && all_finite(w.bv) && all_finite(w.bo);
    const std::size_t D = d.d_model, QK = d.qk_width(), V = d.v_width(), b = d.bias ? 1 : 0;
    const bool lengths = w.wq.size() == D * QK && w.wk.size() == D * QK && w.wv.size() == D * V &&
                         w.wo.size() == V * D && w.bq.size() == b * QK && w.bk.size() == b * QK &&
                         w.bv.size() == b * V && w.bo.size() == b * D;
    try {
      layer->set_weights(w);
      if (!finite || !lengths) finding("set_weights accepted non-finite weights or wrong lengths");
    } catch (const attn::Error& e) {
      if (finite && lengths) finding(std::string("finite weights of the right lengths refused: ") + e.what());
      return;
    }
  }
  const int D = d.d_model, H = d.n_heads, dk = d.d_k, dv = d.d_v, QK = static_cast<int>(d.qk_width()),
            V = static_cast<int>(d.v_width());
  const std::vector<float>& key = c.self ? c.x : c.y;
  const std::vector<float>& value = c.self ? c.x : c.z;
  if (p.invalid.empty()) {
    if (c.x.size() != product({c.batch, c.n_q, D})) p.bad({"query has"});
    if (key.size() != product({c.batch, c.n_k, D})) p.bad({c.self ? "query has" : "key has"});
    if (value.size() != product({c.batch, c.n_k, D})) p.bad({c.self ? "query has" : "value has"});
    predict_mask_and_dropout(c, p);
  }
  if (p.invalid.empty() && !affordable(c, H * (dk + dv) + D)) return;
  if (!all_finite(c.x) || !all_finite(key) || !all_finite(value)) p.bad({"contains"});

  const attn::MhaWeights w = layer->weights();
  reference::MhaRef ref;
  // Projections in double with their error bounds, per batch item: Q [n_q, QK], K, V [n_k, ...].
  std::vector<std::vector<double>> Q, K, Vp, dQ, dK, dV;  // made only for valid (so small) inputs
  const double alpha = static_cast<double>(attn::logit_scale(c.opt, dk)), keep = keep_scale(c);
  if (p.invalid.empty()) {
    for (auto* x : {&Q, &K, &Vp, &dQ, &dK, &dV}) x->resize(c.batch);
    ref = reference::mha(w, D, H, dk, dv, c.x.data(), key.data(), value.data(), c.batch, c.n_q, c.n_k, c.opt);
    double largest = 0.0;
    for (int b = 0; b < c.batch; ++b) {
      project(c.x.data() + static_cast<std::size_t>(b) * c.n_q * D, c.n_q, D, w.wq, w.bq, QK, Q[b], dQ[b], largest);
      project(key.data() + static_cast<std::size_t>(b) * c.n_k * D, c.n_k, D, w.wk, w.bk, QK, K[b], dK[b], largest);
      project(value.data() + static_cast<std::size_t>(b) * c.n_k * D, c.n_k, D, w.wv, w.bv, V, Vp[b], dV[b], largest);
    }
    // Must succeed when no projection can overflow, the guard's bound stays under 1e38,
    // and neither the weighted sums nor the output projection can reach float's range.
    if (!(largest < 1e37)) p.must_succeed = false;
    for (int b = 0; b < c.batch && p.must_succeed; ++b)
      for (int h = 0; h < H; ++h) {
        double q_max = 0.0, k_max = 0.0;
        for (int i = 0; i < c.n_q; ++i) {
          double s = 0.0;
          for (int t = 0; t < dk; ++t) s += std::pow(std::fabs(Q[b][static_cast<std::size_t>(i) * QK + h * dk + t]) + dQ[b][static_cast<std::size_t>(i) * QK + h * dk + t], 2);
          q_max = std::max(q_max, std::sqrt(s));
        }
        for (int j = 0; j < c.n_k; ++j) {
          double s = 0.0;
          for (int t = 0; t < dk; ++t) s += std::pow(std::fabs(K[b][static_cast<std::size_t>(j) * QK + h * dk + t]) + dK[b][static_cast<std::size_t>(j) * QK + h * dk + t], 2);
          k_max = std::max(k_max, std::sqrt(s));
        }
        if (!(alpha * q_max * k_max < 0.99e38)) p.must_succeed = false;  // q_max, k_max bound the engine's norms
      }
    for (int b = 0; b < c.batch && p.must_succeed; ++b) {
      std::vector<double> v_max(V, 0.0);
      for (int j = 0; j < c.n_k; ++j)
        for (int t = 0; t < V; ++t)
          v_max[t] = std::max(v_max[t], std::fabs(Vp[b][static_cast<std::size_t>(j) * V + t]) + dV[b][static_cast<std::size_t>(j) * V + t]);
      double v_norm = 0.0;
      for (double x : v_max) v_norm += x * x;
      if (!(keep * std::sqrt(v_norm) * std::sqrt(static_cast<double>(dv)) < 1e37)) p.must_succeed = false;
      for (int m = 0; m < D; ++m) {
        double s = w.bo.empty() ? 0.0 : std::fabs(w.bo[m]);
        for (int t = 0; t < V; ++t) s += keep * v_max[t] * std::fabs(w.wo[static_cast<std::size_t>(t) * D + m]);
        if (!(s < 1e37)) p.must_succeed = false;
      }
    }
  }

  for (const Path& path : kPaths) {
    attn::ForwardOptions opt;
    static_cast<attn::AttentionOptions&>(opt) = c.opt;
    opt.scratch_logits = path.scratch_logits;
    opt.need_weights = path.need_weights;
    std::vector<float> output, weights;
    const bool ran = accepted(p, path.name, ref.masked_rows, [&] {
      if (c.into) {  // as the JS binding does: the query's copy is the output buffer
        std::vector<float> buffer = c.x;
        const attn::MhaInput in{buffer.data(), buffer.size(), c.self ? buffer.data() : key.data(),
                                c.self ? buffer.size() : key.size(), c.self ? buffer.data() : value.data(),
                                c.self ? buffer.size() : value.size(), c.batch, c.n_q, c.n_k};
        layer->validate(in, opt);
        if (opt.need_weights) weights.resize(static_cast<std::size_t>(c.batch) * H * c.n_q * c.n_k);
        auto masked = layer->forward_validated(in, opt, buffer.data(), opt.need_weights ? weights.data() : nullptr);
        output = std::move(buffer);
        return masked;
      }
      const attn::MhaInput in{c.x.data(), c.x.size(), key.data(), key.size(), value.data(), value.size(), c.batch,
                              c.n_q, c.n_k};
      attn::MhaResult r = layer->forward(in, opt);
      output = std::move(r.output);
      weights = std::move(r.weights);
      return r.masked_rows;
    });
    if (!ran) continue;
    for (int b = 0; b < c.batch; ++b)
      for (int i = 0; i < c.n_q; ++i) {
        // Concat's error bound per column, head by head, then through Wᴼ.
        std::vector<double> concat(V, 0.0), concat_err(V, 0.0);
        std::vector<bool> masked_keys(c.n_k);
        for (int j = 0; j < c.n_k; ++j) masked_keys[j] = reference::is_masked(c.opt.mask, b, i, j, c.n_k);
        for (int h = 0; h < H; ++h) {
          double E = 0.0;
          bool any = false;
          for (int j = 0; j < c.n_k; ++j) {
            if (masked_keys[j]) continue;
            any = true;
            double e = 0.0, prod = 0.0;
            for (int t = 0; t < dk; ++t) {
              const std::size_t qi = static_cast<std::size_t>(i) * QK + h * dk + t, kj = static_cast<std::size_t>(j) * QK + h * dk + t;
              const double q = std::fabs(Q[b][qi]), k = std::fabs(K[b][kj]);
              e += dQ[b][qi] * (k + dK[b][kj]) + q * dK[b][kj];
              prod += (q + dQ[b][qi]) * (k + dK[b][kj]);
            }
            E = std::max(E, alpha * (e + 4.0 * (dk + 6) * kU * prod));
          }
          const double* w_ref = ref.weights.data() + ((static_cast<std::size_t>(b) * H + h) * c.n_q + i) * c.n_k;
          double v_bound = 0.0;  // ≥ the head's largest |v| in float, as the engine's damping sees it
          for (int j = 0; j < c.n_k; ++j) {
            double s = 0.0;
            for (int t = 0; t < dv; ++t) {
              const std::size_t at = static_cast<std::size_t>(j) * V + h * dv + t;
              s += std::pow(std::fabs(Vp[b][at]) + dV[b][at], 2);
            }
            v_bound = std::max(v_bound, std::sqrt(s));
          }
          const RowCheck rc{c.n_k, E, keep, !any, w_ref, &masked_keys,
                            path.need_weights ? weights.data() + ((static_cast<std::size_t>(b) * H + h) * c.n_q + i) * c.n_k : nullptr,
                            subnormal_floor(c.n_k, keep, v_bound)};
          check_weights(rc, path.name);
          // This head's value columns as a [n_k, dv] block.
          std::vector<double> v_abs(static_cast<std::size_t>(c.n_k) * dv), v_err(v_abs.size());
          for (int j = 0; j < c.n_k; ++j)
            for (int t = 0; t < dv; ++t) {
              v_abs[static_cast<std::size_t>(j) * dv + t] = Vp[b][static_cast<std::size_t>(j) * V + h * dv + t];
              v_err[static_cast<std::size_t>(j) * dv + t] = dV[b][static_cast<std::size_t>(j) * V + h * dv + t];
            }
          for (int t = 0; t < dv; ++t) {
            double s = 0.0;
            for (int j = 0; j < c.n_k; ++j) s += w_ref[j] * v_abs[static_cast<std::size_t>(j) * dv + t];
            concat[h * dv + t] = s;
            concat_err[h * dv + t] = output_bound(rc, v_abs, v_err, dv, t);
          }
        }
        for (int m = 0; m < D; ++m) {
          const std::size_t at = (static_cast<std::size_t>(b) * c.n_q + i) * D + m;
          const double got = output[at], want = ref.output[at];
          if (!std::isfinite(got)) finding(std::string("non-finite output (") + path.name + ")");
          double bound = w.bo.empty() ? 0.0 : 4.0 * kU * std::fabs(w.bo[m]);
          for (int t = 0; t < V; ++t)
            bound += (concat_err[t] + 4.0 * (V + 4) * kU * (std::fabs(concat[t]) + concat_err[t])) *
                     std::fabs(w.wo[static_cast<std::size_t>(t) * D + m]);
          bound += 2 * kU * std::fabs(want) + subnormal_steps(V);
          if (std::fabs(got - want) > bound)
            finding("output [" + std::to_string(b) + ", " + std::to_string(i) + ", " + std::to_string(m) + "] = " +
                    std::to_string(got) + ", float64 says " + std::to_string(want) + " (bound " + std::to_string(bound) + ", " +
                    path.name + ")");
        }
      }
  }
}

// ------------------------------------------------------------------ analysis, tables, matmul
// Each call must refuse what is out of range or too much work, and give sane figures otherwise.
// Accepted calls that would take more than a moment are not run (the limits are seconds long).
template <class F>
bool refused(F&& call, std::initializer_list<const char*> words) {
  try {
    call();
  } catch (const attn::Error& e) {
    if (!contains_any(e.what(), std::vector<std::string>(words.begin(), words.end())))
      finding(std::string("refused with an unexpected message: ") + e.what());
    return true;
  } catch (const std::exception& e) {
    finding(std::string("an exception other than attn::Error: ") + e.what());
  }
  return false;
}

void run_analysis(const Case& c) {
  const auto arg = [&](std::size_t i) { return i < c.args.size() ? c.args[i] : 1; };
  const auto in_range = [](long long v, long long lo, long long hi) { return v >= lo && v <= hi; };
  switch (c.analysis_call) {
    case 0: {  // a layer's sizes through every analysis function
      attn::MhaDims d{};
      try {
        d = attn::resolve_dims(attn::MhaConfig{arg(0), arg(1), 0, 0, true, 1});
      } catch (const attn::Error&) {
        return;  // resolve_dims' refusals are the Catch2 suite's
      }
      const int batch = arg(2), n_q = arg(3), n_k = arg(4);
      if (refused([&] { attn::require_countable(d, batch, n_q, n_k); },
                  {"must be a positive integer", "must each be at most", "too large to count"})) {
        if (in_range(batch, 1, 64) && in_range(n_q, 1, 4096) && in_range(n_k, 1, 4096) && d.d_model <= 4096)
          finding("small sizes refused by require_countable");
        return;
      }
      const attn::FlopCounts f = attn::flop_counts(d, batch, n_q, n_k, true);
      const attn::RunMemory m = attn::run_memory(d, batch, n_q, n_k, true, n_q == n_k);
      if (f.exact_macs < 0 || f.exact_flops < 2 * f.exact_macs) finding("FLOP counts out of order");
      if (m.total != m.inputs + m.outputs + m.weights + m.working + m.parameters) finding("run_memory's parts do not add up");
      if (m.weights != attn::attention_weight_bytes(d.n_heads, batch, n_q, n_k)) finding("weights' bytes differ");
      for (const attn::TensorInfo& t : attn::tensor_trace(d, batch, n_q, n_k, false))
        if (t.bytes < 0) finding("a negative tensor size");
      return;
    }
    case 1: {  // √d_k statistics
      const int d_k = arg(0), n_k = arg(1), samples = arg(2);
      const bool ok = in_range(d_k, 1, attn::kMaxDim) && in_range(n_k, 1, attn::kMaxDim) && samples >= 1 &&
                      product({d_k, n_k, samples}) <= attn::kSqrtDkDraws;
      if (ok && product({d_k, n_k, samples}) > 2e5) return;
      attn::SqrtDkStats s{};
      if (refused([&] { s = attn::sqrt_dk_stats(d_k, n_k, samples, 7); }, {"must be a positive integer", "must be at most", "must each be at most"})) {
        if (ok) finding("√d_k statistics refused within their limits");
        return;
      }
      if (!ok) finding("√d_k statistics ran outside their limits");
      if (!(s.max_weight_scaled > 0 && s.max_weight_scaled <= 1 + 1e-12 && s.entropy_scaled >= -1e-12 &&
            s.entropy_scaled <= s.max_entropy + 1e-9 && std::isfinite(s.dot_variance)))
        finding("√d_k statistics out of range");
      return;
    }
    case 2: {  // positional encoding table
      const int n = arg(0), d_model = arg(1);
      const bool ok = n >= 1 && d_model >= 1 && product({n, d_model}) <= attn::kPositionalValues;
      if (ok && product({n, d_model}) > 1e5) return;
      std::vector<float> pe;
      if (refused([&] { pe = attn::positional_encoding(n, d_model); }, {"must be a positive integer", "too large to tabulate"})) {
        if (ok) finding("positional encoding refused within its limit");
        return;
      }
      if (!ok) finding("positional encoding ran outside its limit");
      for (float x : pe)
        if (!(std::fabs(x) <= 1.0f)) finding("positional encoding value outside [−1, 1]");
      return;
    }
    case 3: {  // positional properties
      const int n = arg(0), d_model = arg(1), k = arg(2);
      const bool ok = in_range(n, 2, 4096) && in_range(k, 1, n - 1) && d_model >= 1 &&
                      product({n, n - 1, d_model}) / 2 <= attn::kPositionalPairSteps &&
                      product({n, d_model}) <= attn::kPositionalValues;
      if (ok && product({n, n, d_model}) > 4e5) return;
      attn::PositionalProperties pp{};
      if (refused([&] { pp = attn::positional_properties(n, d_model, k); },
                  {"positional properties need", "offset k must be", "must be a positive integer", "must be at most",
                   "too large to tabulate"})) {
        if (ok) finding("positional properties refused within their limits");
        return;
      }
      if (!ok) finding("positional properties ran outside their limits");
      if (!(pp.max_abs <= 1.0 && pp.min_distance >= 0.0 && pp.rotation_max_error < 1e-5)) finding("positional properties out of range");
      return;
    }
    default: {  // matmul, with arrays of the right length or one value short
      const int m = arg(0), k = arg(1), n = arg(2);
      const bool sizes = m >= 1 && k >= 1 && n >= 1;
      const long double bytes = 4.0L * (product({m, k}) + product({k, n}) + product({m, n}));
      const bool ok = sizes && bytes <= attn::kDefaultMemoryBudget && product({m, k, n}) <= attn::kMatmulMacs;
      if (ok && product({m, k, n}) > 2e5) return;
      const bool short_b = arg(3) < 0;
      std::vector<float> a(sizes && ok ? static_cast<std::size_t>(m) * k : 0), b(sizes && ok ? static_cast<std::size_t>(k) * n - short_b : 0);
      for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 7919) % 13) - 6.0f;
      for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>((i * 104729) % 11) - 5.0f;
      std::vector<float> out;
      if (refused([&] { out = attn::matmul(a.data(), a.size(), b.data(), b.size(), m, k, n); },
                  {"must be a positive integer", "memory budget", "must be at most", "values but", "too large"})) {
        if (ok && !short_b) finding("matmul refused within its limits");
        return;
      }
      if (!ok || short_b) finding("matmul ran outside its limits or with a short b");
      // Small integers: every product and sum is exact in float, so the result is too.
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          double s = 0.0;
          for (int t = 0; t < k; ++t) s += static_cast<double>(a[static_cast<std::size_t>(i) * k + t]) * b[static_cast<std::size_t>(t) * n + j];
          if (std::fabs(s) < 16777216.0 && out[static_cast<std::size_t>(i) * n + j] != s) finding("matmul differs from the exact product");
        }
      return;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Case c;
  const bool text = size >= 1 && (data[0] == '#' || (size >= 4 && std::string(reinterpret_cast<const char*>(data), 4) == "api "));
  if (text) {
    std::string error;
    if (!fuzz::decode_text(std::string(reinterpret_cast<const char*>(data), size), c, error)) {
      // A corpus file must parse (FUZZ_STRICT is set when the corpus is replayed); a mutation of one need not.
      if (std::getenv("FUZZ_STRICT")) {
        std::fprintf(stderr, "corpus case does not parse: %s\n", error.c_str());
        std::abort();
      }
      return 0;
    }
  } else {
    c = fuzz::decode_bytes(data, size);
  }
  g_case = &c;
  switch (c.api) {
    case Api::sdpa: run_sdpa(c); break;
    case Api::mha: run_mha(c); break;
    case Api::analysis: run_analysis(c); break;
  }
  g_case = nullptr;
  return 0;
}
