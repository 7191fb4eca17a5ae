// Multi-head attention forward pass: per batch item, project K and V for all key/value heads
// at once, then walk the queries in blocks: project the block, attend every group of query
// heads that shares a key/value head into its column slices of the concatenation, scale the
// heads by head_mask, and apply Wᴼ to the block.
#include "mha.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "analysis.h"
#include "count.h"
#include "kernels.h"
#include "rng.h"

namespace attn {
namespace {

std::vector<float> uniform_matrix(Rng& rng, std::size_t count, float bound) {
  std::vector<float> w(count);
  for (float& x : w) x = rng.uniform(-bound, bound);
  return w;
}

std::string dims_text(std::initializer_list<std::int64_t> dims) {
  std::string out;
  for (std::int64_t d : dims) out += (out.empty() ? "" : "×") + std::to_string(d);
  return out;
}

}  // namespace

// Multiplies head h's columns of the concatenation (rows × n_heads·d_v) by mask[h]. A 0
// writes exact zeros, so a switched-off head adds nothing to Concat·Wᴼ, not even rounding.
// Shared with the backward pass (backward.cpp).
void apply_head_mask(const std::vector<float>& mask, int rows, int d_v, float* concat, int ld) {
  for (std::size_t h = 0; h < mask.size(); ++h) {
    if (mask[h] == 1.0f) continue;
    for (int r = 0; r < rows; ++r) {
      float* head = concat + static_cast<std::size_t>(r) * ld + h * d_v;
      if (mask[h] == 0.0f) std::fill_n(head, d_v, 0.0f);
      else kern::scale(head, d_v, mask[h]);
    }
  }
}

MhaWeights default_weights(const MhaDims& d, std::uint64_t seed) {
  Rng rng(seed);
  const std::size_t D = d.d_model, QK = d.qk_width(), V = d.v_width(), KK = d.kv_k_width(), KV = d.kv_v_width();
  const bool packed_like_pytorch = QK == D && V == D && KK == D && KV == D;
  auto xavier = [&](std::size_t fan_in, std::size_t fan_out) {
    return static_cast<float>(std::sqrt(6.0 / static_cast<double>(fan_in + fan_out)));
  };
  const float bound_q = packed_like_pytorch ? xavier(D, 3 * D) : xavier(D, QK);
  const float bound_k = packed_like_pytorch ? xavier(D, 3 * D) : xavier(D, KK);
  const float bound_v = packed_like_pytorch ? xavier(D, 3 * D) : xavier(D, KV);
  MhaWeights w;
  w.wq = uniform_matrix(rng, D * QK, bound_q);
  w.wk = uniform_matrix(rng, D * KK, bound_k);
  w.wv = uniform_matrix(rng, D * KV, bound_v);
  w.wo = uniform_matrix(rng, V * D, static_cast<float>(1.0 / std::sqrt(static_cast<double>(V))));
  if (d.bias) {
    w.bq.assign(QK, 0.0f);
    w.bk.assign(KK, 0.0f);
    w.bv.assign(KV, 0.0f);
    w.bo.assign(D, 0.0f);
  }
  return w;
}

MultiHeadAttention::MultiHeadAttention(const MhaConfig& config)
    : dims_(resolve_dims(config)),
      seed_(config.seed),
      w_q_(dims_.d_model, static_cast<int>(dims_.qk_width())),
      w_k_(dims_.d_model, static_cast<int>(dims_.kv_k_width())),
      w_v_(dims_.d_model, static_cast<int>(dims_.kv_v_width())),
      w_o_(static_cast<int>(dims_.v_width()), dims_.d_model) {
  // The weights alone must fit the default budget: refuse before drawing them.
  require_within_budget("this layer (its weights and their packed copy)", 8 * static_cast<std::uint64_t>(parameter_counts(dims_).total), kDefaultMemoryBudget);
  store_weights(default_weights(dims_, config.seed));
  for (int h = 0; h < dims_.n_heads; ++h) patterns_.push_back({h, HeadPattern::random, std::nullopt, 1});
}

void MultiHeadAttention::set_weights(const MhaWeights& w) {
  store_weights(w);
  for (HeadSpec& p : patterns_) p = {p.head, HeadPattern::custom, std::nullopt, 1};
}

std::vector<HeadPatternInfo> MultiHeadAttention::set_head_patterns(const std::vector<HeadSpec>& specs,
                                                                   const PatternInputs& inputs) {
  std::vector<HeadSpec> merged = patterns_;
  std::vector<bool> seen(dims_.n_heads, false);
  for (const HeadSpec& s : specs) {
    require(s.head >= 0 && s.head < dims_.n_heads, "head " + std::to_string(s.head) + " does not exist: heads are 0.." +
                                                       std::to_string(dims_.n_heads - 1));
    require(!seen[s.head], "head " + std::to_string(s.head) + " is given more than one pattern");
    require(s.pattern != HeadPattern::custom, "custom is not a pattern to set: use set_weights");
    seen[s.head] = true;
    merged[s.head] = s;
  }
  std::vector<HeadPatternInfo> info;
  store_weights(build_head_patterns(dims_, weights(), default_weights(dims_, seed_), merged, inputs, info));
  patterns_ = merged;
  return info;
}

void MultiHeadAttention::store_weights(const MhaWeights& w) {
  const std::int64_t D = dims_.d_model, QK = dims_.qk_width(), V = dims_.v_width(), KK = dims_.kv_k_width(),
                     KV = dims_.kv_v_width();
  // The key/value side names n_kv_heads only when it differs, so MHA messages stay the lesson's.
  const std::string kv = dims_.n_kv_heads == dims_.n_heads ? "n_heads" : "n_kv_heads";
  require_length("wq", w.wq.size(), D * QK, "d_model×(n_heads·d_k) = " + dims_text({D, QK}));
  require_length("wk", w.wk.size(), D * KK, "d_model×(" + kv + "·d_k) = " + dims_text({D, KK}));
  require_length("wv", w.wv.size(), D * KV, "d_model×(" + kv + "·d_v) = " + dims_text({D, KV}));
  require_length("wo", w.wo.size(), V * D, "(n_heads·d_v)×d_model = " + dims_text({V, D}));
  if (dims_.bias) {
    require_length("bq", w.bq.size(), QK, "n_heads·d_k = " + std::to_string(QK));
    require_length("bk", w.bk.size(), KK, kv + "·d_k = " + std::to_string(KK));
    require_length("bv", w.bv.size(), KV, kv + "·d_v = " + std::to_string(KV));
    require_length("bo", w.bo.size(), D, "d_model = " + std::to_string(D));
  } else {
    require(w.bq.empty() && w.bk.empty() && w.bv.empty() && w.bo.empty(),
            "biases were given but this layer was made with bias off");
  }
  const std::pair<const char*, const std::vector<float>*> all[] = {
      {"wq", &w.wq}, {"wk", &w.wk}, {"wv", &w.wv}, {"wo", &w.wo},
      {"bq", &w.bq}, {"bk", &w.bk}, {"bv", &w.bv}, {"bo", &w.bo}};
  for (const auto& [name, values] : all) require_finite(name, values->data(), values->size(), 0);
  w_q_.set(w.wq, w.bq);
  w_k_.set(w.wk, w.bk);
  w_v_.set(w.wv, w.bv);
  w_o_.set(w.wo, w.bo);
}

MhaWeights MultiHeadAttention::weights() const {
  return {w_q_.weight(), w_k_.weight(), w_v_.weight(), w_o_.weight(),
          w_q_.bias(),   w_k_.bias(),   w_v_.bias(),   w_o_.bias()};
}

void MultiHeadAttention::validate(const MhaInput& in, const ForwardOptions& opt) const {
  require_positive("batch", in.batch);
  require_positive("n_q", in.n_q);
  require_positive("n_k", in.n_k);
  require_countable(dims_, in.batch, in.n_q, in.n_k);  // also keeps the memory sums below from wrapping
  const std::int64_t B = in.batch, NQ = in.n_q, NK = in.n_k, D = dims_.d_model;
  require_length("query", in.query_len, (Count(B) * NQ * D).value(), "[batch, n_q, d_model] = [" + dims_text({B, NQ, D}) + "]");
  require_length("key", in.key_len, (Count(B) * NK * D).value(), "[batch, n_k, d_model] = [" + dims_text({B, NK, D}) + "]");
  require_length("value", in.value_len, (Count(B) * NK * D).value(), "[batch, n_k, d_model] = [" + dims_text({B, NK, D}) + "]");
  opt.validate(in.batch, in.n_q, in.n_k);
  validate_positional(opt, dims_.n_heads, dims_.d_k);
  if (!opt.head_mask.empty()) {
    require(opt.head_mask.size() == static_cast<std::size_t>(dims_.n_heads),
            "head_mask has " + std::to_string(opt.head_mask.size()) + " values; it needs one per head, n_heads = " +
                std::to_string(dims_.n_heads));
    require_finite("head_mask", opt.head_mask.data(), opt.head_mask.size(), 0);
  }
  const bool self = in.query == in.key && in.key == in.value;
  const RunMemory mem = run_memory(dims_, in.batch, in.n_q, in.n_k, opt.need_weights, self);
  require_within_budget("this forward pass", mem.total + opt.mask.bytes(), opt.memory_budget); // the mask: held with the inputs
  require_finite("query", in.query, in.query_len, D);
  if (in.key != in.query) require_finite("key", in.key, in.key_len, D);
  if (in.value != in.query && in.value != in.key) require_finite("value", in.value, in.value_len, D);
}

MhaResult MultiHeadAttention::forward(const MhaInput& in, const ForwardOptions& opt) const {
  validate(in, opt);
  MhaResult r;
  r.output.resize((Count(in.batch) * in.n_q * dims_.d_model).size());
  if (opt.need_weights) r.weights.resize((Count(in.batch) * dims_.n_heads * in.n_q * in.n_k).size());
  r.masked_rows = forward_validated(in, opt, r.output.data(), opt.need_weights ? r.weights.data() : nullptr);
  return r;
}

std::vector<MaskedRow> MultiHeadAttention::forward_into(const MhaInput& in, const ForwardOptions& opt,
                                                        float* output, float* weights) const {
  validate(in, opt);
  return forward_validated(in, opt, output, weights);
}

std::vector<MaskedRow> MultiHeadAttention::forward_validated(const MhaInput& in, const ForwardOptions& opt,
                                                             float* output, float* weights) const {
  require(!opt.need_weights || weights, "need_weights is on but no buffer for the weights was given");
  const int D = dims_.d_model, H = dims_.n_heads, dk = dims_.d_k, dv = dims_.d_v;
  const int KVH = dims_.n_kv_heads, G = dims_.group();
  const int qk = static_cast<int>(dims_.qk_width()), vw = static_cast<int>(dims_.v_width());
  const int kk = static_cast<int>(dims_.kv_k_width()), kvw = static_cast<int>(dims_.kv_v_width());
  const std::size_t NQ = in.n_q, NK = in.n_k;
  // Scratch left uninitialised (every element is written before it is read): zero-filling the
  // K and V projections would cost a pass over memory on every call. K and V hold one column
  // slice per key/value head: a group's K and V are computed once, not once per query head.
  std::unique_ptr<float[]> k_proj(new float[(Count(NK) * kk).size()]), v_proj(new float[(Count(NK) * kvw).size()]);
  std::unique_ptr<float[]> q_block(new float[(Count(kQueryBlock) * qk).size()]);
  std::unique_ptr<float[]> concat(new float[(Count(kQueryBlock) * vw).size()]);
  std::vector<MaskedRow> masked;
  std::vector<double> k_norm2(KVH), v_norm2(KVH);
  const float alpha = logit_scale(opt, dk);
  const bool rope = opt.positional == Positional::rope;
  const std::vector<float> slopes = head_slopes(opt, H);
  for (int b = 0; b < in.batch; ++b) {
    w_k_.apply(in.n_k, in.key + b * NK * D, D, k_proj.get(), kk);
    w_v_.apply(in.n_k, in.value + b * NK * D, D, v_proj.get(), kvw);
    if (rope) rope_rotate(k_proj.get(), kk, in.n_k, 0, KVH, dk, rope_base_or_default(opt.rope_base), false);
    // Finite inputs and weights can still give ±∞ in a projection, and ∞ − ∞ or ∞·0 then NaN:
    // the row norms (NaN-propagating) find them, and the stage is named rather than run on.
    for (int g = 0; g < KVH; ++g) {
      k_norm2[g] = max_row_norm2(k_proj.get() + g * dk, kk, in.n_k, dk);
      v_norm2[g] = max_row_norm2(v_proj.get() + g * dv, kvw, in.n_k, dv);
      require_finite_stage("the key projection", k_norm2[g], b, g * G);
      require_finite_stage("the value projection", v_norm2[g], b, g * G);
    }
    for (int i0 = 0; i0 < in.n_q; i0 += kQueryBlock) {
      const int rows = std::min(kQueryBlock, in.n_q - i0);
      const std::size_t row_offset = (b * NQ + i0) * D;
      w_q_.apply(rows, in.query + row_offset, D, q_block.get(), qk);
      if (rope) rope_rotate(q_block.get(), qk, rows, i0, H, dk, rope_base_or_default(opt.rope_base), false);
      // Query heads g·G .. g·G + G − 1 read key/value head g (dims_.kv_head).
      for (int g = 0; g < KVH; ++g) {
        const int h0 = g * G;
        double q_norm2 = 0.0;
        for (int h = h0; h < h0 + G; ++h) {
          const double n2 = max_row_norm2(q_block.get() + h * dk, qk, rows, dk);
          require_finite_stage("the query projection", n2, b, h);
          q_norm2 = std::max(q_norm2, n2);
        }
        // One power of two for the group's heads, which share K and one HeadProblem (exact).
        const float q_prescale = guard_logits(q_norm2, k_norm2[g], alpha, h0);
        if (q_prescale != 1.0f)  // the group's columns of the block are its own: scale them in place
          for (int r = 0; r < rows; ++r)
            kern::scale(q_block.get() + static_cast<std::size_t>(r) * qk + h0 * dk, G * dk, q_prescale);
        float* head_weights = opt.need_weights ? weights + ((static_cast<std::size_t>(b) * H + h0) * NQ + i0) * NK : nullptr;
        HeadProblem p{};  // by name: 22 fields, several of the same type side by side
        p.q = q_block.get() + h0 * dk;
        p.ldq = qk;
        p.k = k_proj.get() + g * dk;
        p.ldk = kk;
        p.v = v_proj.get() + g * dv;
        p.ldv = kvw;
        p.out = concat.get() + h0 * dv;
        p.ldo = vw;
        p.weights = head_weights;
        p.rows = rows;
        p.n_k = in.n_k;
        p.d_k = dk;
        p.d_v = dv;
        p.row0 = i0;
        p.b = b;
        p.h = h0;
        p.v_bound = std::sqrt(v_norm2[g]);
        p.q_prescale = q_prescale;
        p.heads = G;
        p.q_step = dk;
        p.out_step = dv;
        p.weights_step = NQ * NK;
        p.slopes = slopes.empty() ? nullptr : slopes.data() + h0;
        attend_head(p, opt, &masked);
      }
      if (!opt.head_mask.empty()) apply_head_mask(opt.head_mask, rows, dv, concat.get(), vw);
      // The query rows of this block are no longer needed: output may overwrite them.
      w_o_.apply(rows, concat.get(), vw, output + row_offset, D);
      // Finite inputs and weights can still overflow in the output projection: say so, never return ±∞.
      const std::size_t count = static_cast<std::size_t>(rows) * D;
      const std::size_t x = first_non_finite(output + row_offset, count);
      if (x != count)
        throw Error("the output overflowed float32 at batch item " + std::to_string(b) + ", query " +
                    std::to_string(i0 + x / D) + ": the inputs or weights are too large, scale them down");
    }
  }
  return masked;
}

}  // namespace attn
