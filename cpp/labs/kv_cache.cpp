// The key/value cache and one decoding step: the new token's q, k and v by the layer's own
// projections, k and v appended per key/value head, then the forward pass's attend_head for its
// one query row against every cached key (no mask: all of them are in the past or the token
// itself), each group of query heads sharing its key/value head, then Wᴼ. And the step's cost.
#include "kv_cache.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/analysis.h"
#include "core/kernels.h"

namespace attn {
KVCache::KVCache(const MultiHeadAttention& layer, int max_len, std::uint64_t memory_budget)
    : layer_(&layer), max_len_(max_len) {
  require_dim("max_len", max_len);
  require_within_budget("this key/value cache", bytes(), memory_budget);
  const MhaDims& d = layer.dims();
  k_.resize(static_cast<std::size_t>(d.n_kv_heads) * max_len * d.d_k);
  v_.resize(static_cast<std::size_t>(d.n_kv_heads) * max_len * d.d_v);
  k_norm2_.resize(d.n_kv_heads);
  v_norm2_.resize(d.n_kv_heads);
}

std::uint64_t KVCache::bytes_per_token() const {
  const MhaDims& d = layer_->dims();
  return 4ull * d.n_kv_heads * (static_cast<std::uint64_t>(d.d_k) + d.d_v);
}

const float* KVCache::keys(int g) const { return k_.data() + static_cast<std::size_t>(g) * max_len_ * layer_->dims().d_k; }
const float* KVCache::values(int g) const { return v_.data() + static_cast<std::size_t>(g) * max_len_ * layer_->dims().d_v; }

void KVCache::clear() {
  length_ = 0;
  std::fill(k_norm2_.begin(), k_norm2_.end(), 0.0);
  std::fill(v_norm2_.begin(), v_norm2_.end(), 0.0);
}

DecodeResult decode_step(const MultiHeadAttention& layer, KVCache& c, const float* x, std::size_t x_len,
                         const DecodeOptions& options) {
  require(c.layer_ == &layer, "this key/value cache was made by another layer: a cache holds the keys and values of "
                              "the layer that made it");
  require(c.length_ < c.max_len_, "the key/value cache is full: it holds max_len = " + group_digits(c.max_len_) +
                                      " tokens; make a cache with a larger max_len");
  const MhaDims& d = layer.dims();
  const int D = d.d_model, dk = d.d_k, dv = d.d_v, G = d.group(), L = c.max_len_, pos = c.length_, t = pos + 1;
  const int qk = static_cast<int>(d.qk_width()), vw = static_cast<int>(d.v_width());
  const int kk = static_cast<int>(d.kv_k_width()), kvw = static_cast<int>(d.kv_v_width());
  require_length("x", x_len, D, "d_model = " + std::to_string(D));
  require_finite("x", x, x_len, D);
  AttentionOptions opt;  // no mask, no dropout: inference
  opt.scale = options.scale;
  opt.positional = options.positional;
  opt.rope_base = options.rope_base;
  validate_positional(opt, d.n_heads, dk);
  const DecodeOptions& was = c.filled_with_;
  require(pos == 0 || (was.positional == options.positional && rope_base_or_default(was.rope_base) == rope_base_or_default(options.rope_base)),
          std::string("this key/value cache was filled with positional '") + positional_name(was.positional) +
              "' and its rope_base: every step of a sequence must use the same; clear the cache to change them");
  const MultiHeadAttention::Projections w = layer.projections();
  // One buffer for the token's q, k, v rows and its Concat row.
  std::vector<float> rows(static_cast<std::size_t>(qk) + kk + kvw + vw);
  float* const q = rows.data();
  float* const k = q + qk;
  float* const v = k + kk;
  float* const concat = v + kvw;
  w.q.apply(1, x, D, q, qk);
  w.k.apply(1, x, D, k, kk);
  w.v.apply(1, x, D, v, kvw);
  if (options.positional == Positional::rope) {  // the token's q and k at its position, k before it is cached
    rope_rotate(q, qk, 1, pos, d.n_heads, dk, rope_base_or_default(options.rope_base), false);
    rope_rotate(k, kk, 1, pos, d.n_kv_heads, dk, rope_base_or_default(options.rope_base), false);
  }
  // As the forward pass: a projection that overflowed is named, and the logit guard needs the
  // largest key norm of each key/value head, kept as the cache grows instead of rescanned.
  const int KVH = d.n_kv_heads;
  std::vector<double> norms(2 * KVH);  // the new token's k and v norms: the cache's once the step succeeds
  for (int g = 0; g < KVH; ++g) {
    norms[g] = max_row_norm2(k + g * dk, kk, 1, dk);
    norms[KVH + g] = max_row_norm2(v + g * dv, kvw, 1, dv);
    require_finite_stage("the key projection", norms[g], 0, g * G);
    require_finite_stage("the value projection", norms[KVH + g], 0, g * G);
    // Row `pos` of the head's block: past the cache's length until the step succeeds.
    std::copy_n(k + g * dk, dk, c.k_.data() + (static_cast<std::size_t>(g) * L + pos) * dk);
    std::copy_n(v + g * dv, dv, c.v_.data() + (static_cast<std::size_t>(g) * L + pos) * dv);
  }
  const std::vector<float> slopes = head_slopes(opt, d.n_heads);  // ALiBi's, else empty
  const float alpha = logit_scale(opt, dk);
  DecodeResult r;
  r.weights.resize(static_cast<std::size_t>(d.n_heads) * t);
  for (int g = 0; g < KVH; ++g) {
    const int h0 = g * G;
    double q_norm2 = 0.0;
    for (int h = h0; h < h0 + G; ++h) {
      const double n2 = max_row_norm2(q + h * dk, qk, 1, dk);
      require_finite_stage("the query projection", n2, 0, h);
      q_norm2 = std::max(q_norm2, n2);
    }
    const float q_prescale = guard_logits(q_norm2, std::max(c.k_norm2_[g], norms[g]), alpha, h0);
    if (q_prescale != 1.0f) kern::scale(q + h0 * dk, G * dk, q_prescale);
    HeadProblem p{};  // by name, as mha.cpp fills it: the group's query heads, one row each
    p.q = q + h0 * dk;
    p.ldq = qk;
    p.k = c.k_.data() + static_cast<std::size_t>(g) * L * dk;
    p.ldk = dk;
    p.v = c.v_.data() + static_cast<std::size_t>(g) * L * dv;
    p.ldv = dv;
    p.out = concat + h0 * dv;
    p.ldo = vw;
    p.weights = r.weights.data() + static_cast<std::size_t>(h0) * t;
    p.rows = 1;
    p.n_k = t;
    p.d_k = dk;
    p.d_v = dv;
    p.row0 = pos;
    p.h = h0;
    p.v_bound = std::sqrt(std::max(c.v_norm2_[g], norms[KVH + g]));
    p.q_prescale = q_prescale;
    p.heads = G;
    p.q_step = dk;
    p.out_step = dv;
    p.weights_step = t;
    p.slopes = slopes.empty() ? nullptr : slopes.data() + h0;
    attend_head(p, opt, nullptr);
  }
  r.output.resize(D);
  w.o.apply(1, concat, vw, r.output.data(), D);
  if (first_non_finite(r.output.data(), D) != static_cast<std::size_t>(D))
    throw Error("the output overflowed float32 at decoding step " + std::to_string(t) +
                ": the inputs or weights are too large, scale them down");
  for (int g = 0; g < KVH; ++g) {
    c.k_norm2_[g] = std::max(c.k_norm2_[g], norms[g]);
    c.v_norm2_[g] = std::max(c.v_norm2_[g], norms[KVH + g]);
  }
  c.filled_with_ = options;
  c.length_ = t;
  return r;
}

DecodeCost decode_cost(const MhaDims& d, int t, int n_layers, bool scale) {
  require_dim("t", t);
  require_dim("n_layers", n_layers);
  const std::int64_t D = d.d_model, QK = d.qk_width(), V = d.v_width(), KK = d.kv_k_width(), KV = d.kv_v_width();
  const std::int64_t H = d.n_heads, T = t, bias = d.bias ? 1 : 0;
  // Per token: the four projections; per (query, key) pair and head: q·k, the scale, the
  // softmax's 5 and the weighted sum, 2 FLOPs per multiply-add as flop_counts counts them.
  const std::int64_t per_token = 2 * (D * QK + D * KK + D * KV + V * D) + bias * (QK + KK + KV + D);
  const std::int64_t per_pair = H * (2 * d.d_k + 2 * d.d_v + 5 + (scale ? 1 : 0));
  // The largest figures, generating t tokens without a cache (one layer) and recomputing at step t
  // on every layer, must be exact as doubles.
  const double Td = T, pairs3 = Td * (Td + 1) * (Td + 2) / 6;
  const double generation = static_cast<double>(per_token) * Td * (Td + 1) / 2 + static_cast<double>(per_pair) * pairs3;
  const double model_step = (static_cast<double>(per_token) * Td + static_cast<double>(per_pair) * Td * (Td + 1) / 2) * n_layers;
  require(std::max(generation, model_step) <= 9007199254740992.0,
          "these decoding costs are too large to count exactly (more than 2^53 FLOPs); reduce t or n_layers");
  const KVCacheCost cache = kv_cache_cost(d, 1, t, n_layers);
  DecodeCost c{};
  c.t = t;
  c.n_layers = n_layers;
  c.cache_bytes_per_token = cache.bytes_per_token / n_layers;
  c.cache_bytes = c.cache_bytes_per_token * T;
  c.model_cache_bytes = cache.bytes;
  c.mha_model_cache_bytes = cache.mha_bytes;
  const std::int64_t visible = T * (T + 1) / 2;  // causal pairs of t tokens
  c.step_projection_flops = per_token;
  c.step_attention_flops = per_pair * T;
  c.step_flops = c.step_projection_flops + c.step_attention_flops;
  c.recompute_projection_flops = per_token * T;
  c.recompute_attention_flops = per_pair * visible;
  c.recompute_flops = c.recompute_projection_flops + c.recompute_attention_flops;
  c.speedup = static_cast<double>(c.recompute_flops) / static_cast<double>(c.step_flops);
  // Σ over steps 1 … t: with the cache, every token projected once and Σ s = t(t+1)/2 pairs, the
  // same as one causal pass over the t tokens; without, Σ of the recomputations.
  c.total_flops = c.recompute_flops;
  c.total_recompute_flops = per_token * visible + per_pair * (T * (T + 1) * (T + 2) / 6);
  c.model_step_flops = c.step_flops * n_layers;
  c.model_recompute_flops = c.recompute_flops * n_layers;
  return c;
}

}  // namespace attn
