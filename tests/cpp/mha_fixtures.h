// Fixtures shared by the layer tests (MHA, GQA, constructed heads): weights, masks and inputs
// drawn by the tests' own generator, so a bug in the engine's generator cannot hide in them.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/mha.h"
#include "check.h"

namespace fixtures {

constexpr unsigned kNone = 0, kCausal = 1, kPadding = 2, kMatrix = 4;

/// Weights of the layer's sizes (key/value widths from n_kv_heads), biases included when on.
inline attn::MhaWeights random_weights(const attn::MhaDims& d, std::uint64_t seed) {
  check::TestRng rng(seed);
  const std::size_t D = d.d_model, QK = d.qk_width(), V = d.v_width(), KK = d.kv_k_width(), KV = d.kv_v_width();
  const float a = 1.0f / std::sqrt(static_cast<float>(D));
  attn::MhaWeights w;
  w.wq = rng.vec(D * QK, -a, a);
  w.wk = rng.vec(D * KK, -a, a);
  w.wv = rng.vec(D * KV, -a, a);
  w.wo = rng.vec(V * D, -a, a);
  if (d.bias) {
    w.bq = rng.vec(QK, -0.5f, 0.5f);
    w.bk = rng.vec(KK, -0.5f, 0.5f);
    w.bv = rng.vec(KV, -0.5f, 0.5f);
    w.bo = rng.vec(D, -0.5f, 0.5f);
  }
  return w;
}

/// A mask of the kinds in `kind` (kCausal | kPadding | kMatrix), padding lengths and matrix seeded.
inline attn::Mask make_mask(unsigned kind, int batch, int n_q, int n_k, std::uint64_t seed) {
  check::TestRng rng(seed);
  attn::Mask m;
  m.causal = (kind & kCausal) != 0;
  if (kind & kPadding)
    for (int b = 0; b < batch; ++b) m.key_lengths.push_back(1 + rng.below(n_k));
  if (kind & kMatrix) {
    m.matrix.resize(static_cast<std::size_t>(n_q) * n_k);
    for (auto& x : m.matrix) x = rng.below(4) == 0 ? 1 : 0;
  }
  return m;
}

/// The options of a test case: its mask kinds, scale, dropout (training when > 0) and seed.
inline attn::ForwardOptions case_options(unsigned mask, bool scale, float dropout, int batch, int n_q, int n_k,
                                         std::uint64_t seed) {
  attn::ForwardOptions opt;
  opt.mask = make_mask(mask, batch, n_q, n_k, seed);
  opt.scale = scale;
  opt.dropout = dropout;
  opt.training = dropout > 0.0f;
  opt.seed = seed;
  return opt;
}

/// The three paths of forward: 0 weights returned; 1 no weights, whole rows in scratch (the
/// default at test sizes); 2 no weights, streaming over key tiles (scratch_logits 0).
inline void set_path(attn::ForwardOptions& opt, int path) {
  opt.need_weights = path == 0;
  opt.scratch_logits = path == 2 ? 0 : attn::AttentionOptions{}.scratch_logits;
}

struct Inputs {
  std::vector<float> query, key, value;
  attn::MhaInput view(bool self, int batch, int n_q, int n_k) const {
    if (self) return {query.data(), query.size(), query.data(), query.size(), query.data(), query.size(), batch, n_q, n_q};
    return {query.data(), query.size(), key.data(), key.size(), value.data(), value.size(), batch, n_q, n_k};
  }
};

/// Query [batch, n_q, d_model], key and value [batch, n_k, d_model], uniform in [−1, 1).
inline Inputs make_inputs(int d_model, int batch, int n_q, int n_k, std::uint64_t seed) {
  check::TestRng rng(seed);
  Inputs in;
  in.query = rng.vec(static_cast<std::size_t>(batch) * n_q * d_model, -1.0f, 1.0f);
  in.key = rng.vec(static_cast<std::size_t>(batch) * n_k * d_model, -1.0f, 1.0f);
  in.value = rng.vec(static_cast<std::size_t>(batch) * n_k * d_model, -1.0f, 1.0f);
  return in;
}

/// The (batch item, row) pairs of fully masked rows, sorted, for comparing two runs.
inline std::vector<std::pair<int, int>> rows_of(const std::vector<attn::MaskedRow>& rows) {
  std::vector<std::pair<int, int>> out;
  for (const attn::MaskedRow& r : rows) out.emplace_back(r.b, r.i);
  std::sort(out.begin(), out.end());
  return out;
}

/// Repeats each key/value head's columns for the n_heads / n_kv_heads query heads that read it
/// (torch.repeat_interleave along the head axis): multi-head weights that compute the same layer.
inline std::vector<float> repeat_heads(const std::vector<float>& w, int rows, int n_kv_heads, int group, int width) {
  if (w.empty()) return w;
  const int in_cols = n_kv_heads * width, out_cols = n_kv_heads * group * width;
  std::vector<float> out(static_cast<std::size_t>(rows) * out_cols);
  for (int r = 0; r < rows; ++r)
    for (int h = 0; h < n_kv_heads * group; ++h)
      for (int c = 0; c < width; ++c)
        out[static_cast<std::size_t>(r) * out_cols + h * width + c] =
            w[static_cast<std::size_t>(r) * in_cols + (h / group) * width + c];
  return out;
}

inline attn::MhaWeights repeated_as_mha(const attn::MhaWeights& w, const attn::MhaDims& d) {
  attn::MhaWeights m = w;
  m.wk = repeat_heads(w.wk, d.d_model, d.n_kv_heads, d.group(), d.d_k);
  m.wv = repeat_heads(w.wv, d.d_model, d.n_kv_heads, d.group(), d.d_v);
  m.bk = repeat_heads(w.bk, 1, d.n_kv_heads, d.group(), d.d_k);
  m.bv = repeat_heads(w.bv, 1, d.n_kv_heads, d.group(), d.d_v);
  return m;
}

}  // namespace fixtures
