// Sizes to costs: parameters, FLOPs, tensor shapes, memory, positional encodings and the
// √d_k statistics. Pure arithmetic on the sizes (except the two small measured tables).
#include "analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "attention.h"
#include "count.h"
#include "error.h"
#include "rng.h"

namespace attn {

void require_countable(const MhaDims& d, int batch, int n_q, int n_k) {
  require_positive("batch", batch);
  require_positive("n_q", n_q);
  require_positive("n_k", n_k);
  require(batch <= kMaxDim && n_q <= kMaxDim && n_k <= kMaxDim,
          "batch, n_q and n_k must each be at most " + group_digits(kMaxDim));
  // An upper bound of the largest count (FLOPs), in double so that it cannot overflow itself.
  const double B = batch, NQ = n_q, NK = n_k, D = d.d_model, QK = static_cast<double>(d.qk_width()),
               V = static_cast<double>(d.v_width()), H = d.n_heads;
  const double flops = 8.0 * B * (NQ * NK * (QK + V + H) + (NQ + 2.0 * NK) * D * std::max(QK, V));
  if (flops > 9007199254740992.0) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "this problem is too large to count exactly: about %.3g FLOPs, more than 2^53 "
                  "(9,007,199,254,740,992); reduce batch, n_q or n_k",
                  flops);
    throw Error(buf);
  }
}

ParameterCounts parameter_counts(const MhaDims& d) {
  const std::int64_t D = d.d_model, QK = d.qk_width(), V = d.v_width(), KK = d.kv_k_width(), KV = d.kv_v_width();
  ParameterCounts p{};
  p.w_q = D * QK;
  p.w_k = D * KK;
  p.w_v = D * KV;
  p.w_o = V * D;
  p.per_head_q = D * d.d_k;
  p.per_head_k = D * d.d_k;
  p.per_head_v = D * d.d_v;
  p.per_head_o = static_cast<std::int64_t>(d.d_v) * D;
  p.b_q = QK;
  p.b_k = KK;
  p.b_v = KV;
  p.b_o = D;
  p.weights = p.w_q + p.w_k + p.w_v + p.w_o;
  p.biases = p.b_q + p.b_k + p.b_v + p.b_o;
  p.total = p.weights + (d.bias ? p.biases : 0);
  return p;
}

std::int64_t parameter_count_gqa(const MhaDims& d, int n_kv_heads) {
  require_kv_heads(d.n_heads, n_kv_heads);
  MhaDims grouped = d;
  grouped.n_kv_heads = n_kv_heads;
  return parameter_counts(grouped).total;
}

KVCacheCost kv_cache_cost(const MhaDims& d, int batch, int n, int n_layers) {
  require_positive("batch", batch);
  require_positive("n", n);
  require_positive("n_layers", n_layers);
  // The largest figure (multi-head, all tokens) must stay exact as a double, as JavaScript gets it.
  const double largest = 4.0 * d.n_heads * (static_cast<double>(d.d_k) + d.d_v) * n_layers * batch * n;
  require(largest <= 9007199254740992.0, "this key/value cache is too large to count exactly (about " +
                                             human_bytes(largest) + "); reduce batch, n or n_layers");
  KVCacheCost c{};
  c.n_heads = d.n_heads;
  c.n_kv_heads = d.n_kv_heads;
  c.n_layers = n_layers;
  const std::int64_t per_head = static_cast<std::int64_t>(d.d_k) + d.d_v;
  c.numbers_per_token = d.n_kv_heads * per_head * n_layers;
  c.bytes_per_token = 4 * c.numbers_per_token;
  c.tokens = static_cast<std::int64_t>(batch) * n;
  c.bytes = c.bytes_per_token * c.tokens;
  c.mha_bytes_per_token = 4 * d.n_heads * per_head * n_layers;
  c.mha_bytes = c.mha_bytes_per_token * c.tokens;
  c.saved_bytes = c.mha_bytes - c.bytes;
  c.ratio = static_cast<double>(d.n_heads) / d.n_kv_heads;
  return c;
}

FlopCounts flop_counts(const MhaDims& d, int batch, int n_q, int n_k, bool scale) {
  require_countable(d, batch, n_q, n_k);  // every product below then stays under 2^53
  const std::int64_t B = batch, NQ = n_q, NK = n_k, D = d.d_model, QK = d.qk_width(), V = d.v_width(),
                     H = d.n_heads, KK = d.kv_k_width(), KV = d.kv_v_width();
  const std::int64_t bias = d.bias ? 1 : 0;
  FlopCounts f{};
  f.lesson_projections = B * NQ * D * QK;
  f.lesson_scores = B * NQ * NK * QK;
  f.lesson_weighted_sum = B * NQ * NK * V;
  f.lesson_softmax = B * H * NQ * NK;
  f.lesson_total = f.lesson_projections + f.lesson_scores + f.lesson_weighted_sum;

  const std::int64_t logits = B * H * NQ * NK;
  auto stage = [](const char* name, std::int64_t macs, std::int64_t extra) {
    return StageCost{name, macs, 2 * macs + extra};
  };
  f.stages = {
      stage("Q projection", B * NQ * D * QK, bias * B * NQ * QK),
      // Grouped-query attention projects K and V once per key/value head, not per query head.
      stage("K projection", B * NK * D * KK, bias * B * NK * KK),
      stage("V projection", B * NK * D * KV, bias * B * NK * KV),
      stage(scale ? "scores Q_i·K_iᵀ/√d_k" : "scores Q_i·K_iᵀ", B * NQ * NK * QK, scale ? logits : 0),
      stage("softmax", 0, 5 * logits),
      stage("weighted sum A_i·V_i", B * NQ * NK * V, 0),
      stage("output projection", B * NQ * V * D, bias * B * NQ * D),
  };
  for (const StageCost& s : f.stages) {
    f.exact_macs += s.macs;
    f.exact_flops += s.flops;
  }
  f.projection_flops = f.stages[0].flops + f.stages[1].flops + f.stages[2].flops + f.stages[6].flops;
  f.attention_flops = f.stages[3].flops + f.stages[4].flops + f.stages[5].flops;
  // The lesson compares n·d² with n²·d, i.e. d with n.
  f.projections_dominate_lesson = f.lesson_projections > f.lesson_scores;
  f.projections_dominate_exact = f.projection_flops > f.attention_flops;
  const std::string n = n_q == n_k ? "n = " + group_digits(NQ) : "n_k = " + group_digits(NK);
  const std::string dd = "d = " + group_digits(QK);
  if (f.projections_dominate_lesson)
    f.dominant_reason = n + " < " + dd + ": the projections (n·d²) dominate the attention matrix (n²·d)";
  else if (f.lesson_projections == f.lesson_scores)
    f.dominant_reason = n + " equals " + dd + ": the projections (n·d²) and the attention matrix (n²·d) cost the same";
  else
    f.dominant_reason = n + " > " + dd + ": the attention matrix (n²·d) dominates the projections (n·d²)";
  return f;
}

std::vector<TensorInfo> tensor_trace(const MhaDims& d, int batch, int n_q, int n_k, bool need_weights, bool scale) {
  require_countable(d, batch, n_q, n_k);  // every product below then stays under 2^53
  const std::int64_t B = batch, NQ = n_q, NK = n_k, D = d.d_model, H = d.n_heads, dk = d.d_k, dv = d.d_v,
                     KVH = d.n_kv_heads;
  auto info = [](std::string name, std::vector<std::int64_t> dims, std::string note) {
    std::int64_t elements = 1;
    for (std::int64_t x : dims) elements *= x;
    return TensorInfo{std::move(name), std::move(dims), 4 * elements, std::move(note)};
  };
  const std::string block = "computed " + std::to_string(kQueryBlock) + " query rows at a time";
  const bool scratch = uses_scratch(AttentionOptions{}, std::min(n_q, kQueryBlock), n_k);
  const std::string streamed =
      scratch ? "held " + std::to_string(std::min({n_q, kQueryBlock, softmax_rows(n_k)})) +
                    " query rows at a time in scratch, never whole (weights not requested)"
              : "streamed in " + std::to_string(kQueryBlock) + "×" + std::to_string(kKeyTile) +
                    " tiles, never held whole (weights not requested)";
  const std::string shared = d.n_kv_heads == d.n_heads
                                 ? ""
                                 : "; each shared by " + std::to_string(d.group()) + " query heads (grouped-query)";
  return {
      info("query input X_q", {B, NQ, D}, "input"),
      info("key input X_k", {B, NK, D}, "input"),
      info("value input X_v", {B, NK, D}, "input"),
      info("Q = X_q·Wᴽ (all heads)", {B, NQ, H * dk}, block),
      info("K = X_k·Wᴷ (all heads)", {B, NK, KVH * dk}, "one batch item at a time"),
      info("V = X_v·Wⱽ (all heads)", {B, NK, KVH * dv}, "one batch item at a time"),
      info("Q_i (split into heads)", {B, H, NQ, dk}, "view: a column slice of Q, no copy"),
      info("K_i (split into heads)", {B, KVH, NK, dk}, "view: a column slice of K, no copy" + shared),
      info("V_i (split into heads)", {B, KVH, NK, dv}, "view: a column slice of V, no copy" + shared),
      info(scale ? "S_i = Q_i·K_iᵀ/√d_k" : "S_i = Q_i·K_iᵀ", {B, H, NQ, NK}, need_weights ? "written into the weights buffer" : streamed),
      info("A_i = softmax(S_i)", {B, H, NQ, NK}, need_weights ? "returned to the caller" : streamed),
      info("head_i = A_i·V_i", {B, H, NQ, dv}, "written straight into its columns of Concat"),
      info("Concat(head_1..head_h)", {B, NQ, H * dv}, block),
      info("output = Concat·Wᴼ", {B, NQ, D}, "returned to the caller"),
  };
}

std::array<NamedShape, kLayerTensors> layer_tensor_shapes(const MhaDims& d, int batch, int n_q, int n_k) {
  // Each axis at most kMaxDim and a width at most 2^40: no product here overflows (resolveView has
  // checked the view is countable too; the shapes alone do not need it).
  require_dim("batch", batch);
  require_dim("n_q", n_q);
  require_dim("n_k", n_k);
  const std::int64_t B = batch, NQ = n_q, NK = n_k, D = d.d_model, H = d.n_heads, KVH = d.n_kv_heads, dk = d.d_k,
                     dv = d.d_v, QK = d.qk_width(), KK = d.kv_k_width(), KV = d.kv_v_width(), V = d.v_width();
  return {{
      {"query", 3, {B, NQ, D}},           {"key", 3, {B, NK, D}},           {"value", 3, {B, NK, D}},
      {"wq", 2, {D, QK}},                 {"wk", 2, {D, KK}},               {"wv", 2, {D, KV}},
      {"wo", 2, {V, D}},                  {"bq", 1, {QK}},                  {"bk", 1, {KK}},
      {"bv", 1, {KV}},                    {"bo", 1, {D}},                   {"q", 4, {B, H, NQ, dk}},
      {"k", 4, {B, KVH, NK, dk}},         {"v", 4, {B, KVH, NK, dv}},       {"attention", 4, {B, H, NQ, NK}},
      {"head_outputs", 4, {B, H, NQ, dv}}, {"output", 3, {B, NQ, D}},
  }};
}

std::uint64_t attention_weight_bytes(int n_heads, int batch, int n_q, int n_k) {
  return (Count(4) * n_heads * batch * n_q * n_k).value();
}

RunMemory run_memory(const MhaDims& d, int batch, int n_q, int n_k, bool need_weights, bool self_attention) {
  require_countable(d, batch, n_q, n_k);
  const Count B = batch, NQ = n_q, NK = n_k, D = d.d_model, QK = d.qk_width(), V = d.v_width();
  const Count KK = d.kv_k_width(), KV = d.kv_v_width();
  const Count Br = kQueryBlock;
  RunMemory m{};
  m.inputs = (Count(4) * (B * NQ * D + (self_attention ? Count(0) : Count(2) * B * NK * D))).value();
  m.outputs = (Count(4) * B * NQ * D).value();
  m.weights = need_weights ? attention_weight_bytes(d.n_heads, batch, n_q, n_k) : 0;
  // K and V of one batch item (all heads), a block of Q and of Concat, what attend_head holds,
  // and the matmul's packed rows of A: up to 64 rows of the inputs or of Concat in the
  // projections, or the attention's own (the same buffer, so the larger of the two).
  const HeadWorkingFloats head = attend_working_floats(AttentionOptions{}, n_q, n_k, d.d_k, d.d_v, need_weights);
  const Count a_pack = std::max((Count(64) * std::max(D.value(), V.value())).value(), head.a_pack);
  // Plus the overflow guard's two row norms (double) per head.
  m.working = (Count(4) * (NK * KK + NK * KV + Br * QK + Br * V + head.buffers + a_pack + Count(4) * d.n_heads)).value();
  // Weights plus their packed copy (the panels round columns up to 8).
  m.parameters = (Count(8) * parameter_counts(d).total).value();
  m.total = (Count(m.inputs) + m.outputs + m.weights + m.working + m.parameters).value();
  return m;
}

double encoding_wavelength(int i, int d_model) {
  return 2.0 * 3.14159265358979323846 * std::pow(10000.0, 2.0 * i / d_model);
}

std::vector<float> positional_encoding(int n, int d_model) {
  require_positive("n", n);
  require_positive("d_model", d_model);
  const Count values = Count(n) * d_model;
  require(values.value() <= kPositionalValues,
          "positional encoding of " + group_digits(n) + "×" + group_digits(d_model) +
              " is too large to tabulate (at most " + group_digits(kPositionalValues) + " values)");
  // 10000^(2i/d_model) once per column rather than once per value: the same divisor, so the same
  // bits, at a fraction of the time (pow was most of it).
  std::vector<double> divisor(static_cast<std::size_t>(d_model));
  for (int c = 0; c < d_model; ++c) divisor[c] = std::pow(10000.0, 2.0 * (c / 2) / d_model);  // columns 2i, 2i+1 share i
  std::vector<float> pe(values.size());
  for (int pos = 0; pos < n; ++pos) {
    float* row = pe.data() + static_cast<std::size_t>(pos) * d_model;
    for (int c = 0; c < d_model; ++c) {
      const double angle = pos / divisor[c];
      row[c] = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return pe;
}

PositionalProperties positional_properties(int n, int d_model, int offset_k) {
  require(n >= 2 && n <= 4096, "positional properties need 2 ≤ n ≤ 4,096 (got " + group_digits(n) + ")");
  require(offset_k >= 1 && offset_k < n, "offset k must be in 1.." + std::to_string(n - 1) + " (got " +
                                             std::to_string(offset_k) + ")");
  require_positive("d_model", d_model);
  // Every pair of positions is compared over d_model columns: n·(n − 1)/2·d_model steps.
  require_within_work("positional properties: n·(n − 1)/2·d_model", {(Count(n) * (n - 1)).value() / 2,
                      static_cast<std::uint64_t>(d_model)}, kPositionalPairSteps);
  const std::vector<float> pe = positional_encoding(n, d_model);
  PositionalProperties p{};
  p.offset_k = offset_k;
  for (float x : pe) p.max_abs = std::max(p.max_abs, static_cast<double>(std::fabs(x)));
  p.min_distance = INFINITY;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      double sq = 0.0;
      for (int c = 0; c < d_model; ++c) {
        const double diff = pe[static_cast<std::size_t>(a) * d_model + c] - pe[static_cast<std::size_t>(b) * d_model + c];
        sq += diff * diff;
      }
      if (sq < p.min_distance) {
        p.min_distance = sq;
        p.closest_a = a;
        p.closest_b = b;
      }
    }
  }
  p.min_distance = std::sqrt(p.min_distance);
  // Each (sin, cos) pair of frequency ω turns by the angle k·ω: the same rotation for every pos,
  // so its cosine and sine are computed once per pair.
  std::vector<double> rot_cos, rot_sin;
  for (int c = 0; c + 1 < d_model; c += 2) {
    const double omega = 1.0 / std::pow(10000.0, static_cast<double>(c) / d_model);
    rot_cos.push_back(std::cos(offset_k * omega));
    rot_sin.push_back(std::sin(offset_k * omega));
  }
  for (int pos = 0; pos + offset_k < n; ++pos) {
    const float* now = pe.data() + static_cast<std::size_t>(pos) * d_model;
    const float* later = pe.data() + static_cast<std::size_t>(pos + offset_k) * d_model;
    for (int c = 0; c + 1 < d_model; c += 2) {
      const double cs = rot_cos[c / 2], sn = rot_sin[c / 2];
      const double s = now[c] * cs + now[c + 1] * sn;
      const double co = now[c + 1] * cs - now[c] * sn;
      p.rotation_max_error = std::max({p.rotation_max_error, std::fabs(s - later[c]), std::fabs(co - later[c + 1])});
    }
  }
  return p;
}

SqrtDkStats sqrt_dk_stats(int d_k, int n_k, int samples, std::uint64_t seed) {
  require_positive("d_k", d_k);
  require_positive("n_k", n_k);
  require_positive("samples", samples);
  require(d_k <= kMaxDim && n_k <= kMaxDim, "√d_k statistics: d_k and n_k must each be at most " + group_digits(kMaxDim));
  // The product in 64 bits without wrapping: d_k = n_k = 2^21 and samples = 2^22 made it 2^64 ≡ 0.
  require_within_work("√d_k statistics: d_k·n_k·samples",
                      {static_cast<std::uint64_t>(d_k), static_cast<std::uint64_t>(n_k), static_cast<std::uint64_t>(samples)},
                      kSqrtDkDraws);
  Rng rng(seed);
  SqrtDkStats s{};
  s.d_k = d_k;
  s.n_k = n_k;
  s.samples = samples;
  s.max_entropy = std::log(static_cast<double>(n_k));
  std::vector<double> q(d_k), logits(n_k);
  double sum = 0.0, sum_sq = 0.0;
  const double inv_sqrt = 1.0 / std::sqrt(static_cast<double>(d_k));
  auto softmax_stats = [&](double factor, double& entropy, double& max_weight) {
    double max = -INFINITY;
    for (double l : logits) max = std::max(max, l * factor);
    double z = 0.0;
    for (double l : logits) z += std::exp(l * factor - max);
    double h = 0.0, top = 0.0;
    for (double l : logits) {
      const double p = std::exp(l * factor - max) / z;
      if (p > 0) h -= p * std::log(p);
      top = std::max(top, p);
    }
    entropy += h;
    max_weight += top;
  };
  for (int t = 0; t < samples; ++t) {
    for (double& x : q) x = rng.normal();
    for (int j = 0; j < n_k; ++j) {
      double dot = 0.0;
      for (int c = 0; c < d_k; ++c) dot += q[c] * rng.normal();
      logits[j] = dot;
      sum += dot;
      sum_sq += dot * dot;
    }
    softmax_stats(inv_sqrt, s.entropy_scaled, s.max_weight_scaled);
    softmax_stats(1.0, s.entropy_unscaled, s.max_weight_unscaled);
  }
  const double count = static_cast<double>(samples) * n_k;
  s.dot_mean = sum / count;
  s.dot_variance = sum_sq / count - s.dot_mean * s.dot_mean;
  s.scaled_variance = s.dot_variance / d_k;
  s.entropy_scaled /= samples;
  s.entropy_unscaled /= samples;
  s.max_weight_scaled /= samples;
  s.max_weight_unscaled /= samples;
  return s;
}

}  // namespace attn
