// Linear attention with φ = elu + 1, and its cost against softmax attention. See linear_attention.h.
#include "linear_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/count.h"
#include "core/dims.h"
#include "core/error.h"
#include "flash.h"

namespace attn {
namespace {

// The per-n coefficients: softmax costs (2·d_k + 2·d_v + 4) per visible pair, linear attention
// (4·d_k·d_v + 5·d_k + d_v) per token (see linear_attention_cost's terms).
std::uint64_t per_pair(int d_k, int d_v) { return 2ull * d_k + 2ull * d_v + 4; }
std::uint64_t per_token(int d_k, int d_v) { return 4ull * d_k * d_v + 5ull * d_k + d_v; }

}  // namespace

double elu_plus_one(double x) { return x > 0 ? x + 1.0 : std::exp(x); }

std::vector<float> linear_attention(const float* q, std::size_t q_len, const float* k, std::size_t k_len,
                                    const float* v, std::size_t v_len, int batch, int n_q, int n_k, int d_k, int d_v,
                                    bool causal) {
  require_attention_arrays(q_len, k_len, v_len, batch, n_q, n_k, d_k, d_v);
  require(!causal || n_q == n_k, "causal linear attention sums over keys j ≤ i, so it needs n_q = n_k (got n_q " +
                                     std::to_string(n_q) + ", n_k " + std::to_string(n_k) + ")");
  // The state S alone is d_k·d_v doubles; the work is batch·(n_q + n_k)·d_k·d_v multiply-adds.
  require_within_work("linearAttention: batch·(n_q + n_k)·d_k·d_v",
                      {static_cast<std::uint64_t>(batch), static_cast<std::uint64_t>(n_q) + n_k,
                       static_cast<std::uint64_t>(d_k), static_cast<std::uint64_t>(d_v)},
                      std::uint64_t{1} << 29);
  require_finite("query", q, q_len, d_k);
  require_finite("key", k, k_len, d_k);
  require_finite("value", v, v_len, d_v);

  // φ(x) = exp(x) for x ≤ 0, so a naive sum underflows: with every key component at −1000 each
  // φ(k) is exp(−1000) = 0 in double and the output would be 0/0, though every key weighs the same
  // and the true output is mean(v). So the sums are kept in log scale per feature a: with
  // ℓ(x) = log φ(x) (x for x ≤ 0, log(1 + x) above) and m_a = max_j ℓ(k_ja) over the keys summed so far,
  // z[a] = Σ_j exp(ℓ(k_ja) − m_a) and S[a,:] likewise (each ≥ the max key's 1), rescaled when m_a
  // grows, as an online softmax does. A query's weights then carry exp(ℓ(q_ia) + m_a − M_i) with
  // M_i their largest exponent: the common factor exp(M_i) cancels between numerator and
  // denominator, and the denominator is at least 1, so no row can underflow to 0/0.
  const std::size_t DK = d_k, DV = d_v, NQ = n_q, NK = n_k;
  std::vector<float> out(static_cast<std::size_t>(batch) * NQ * DV, 0.0f);
  std::vector<double> S(DK * DV), z(DK), m(DK), w(DK);
  // log, not log1p: 1 + x is exact in double for a float x ≥ 2^−29 (below, off by 1e-16), and log is in
  // the module already (log1p would add its own code to the wasm).
  const auto log_phi = [](double x) { return x > 0 ? std::log(1.0 + x) : x; };
  // Adds key j of item b to S and z.
  auto take_key = [&](const float* kb, const float* vb, std::size_t j) {
    for (std::size_t a = 0; a < DK; ++a) {
      const double l = log_phi(kb[j * DK + a]);
      if (l > m[a]) {  // a new largest exponent of feature a: the sums so far shrink by exp(m_a − l)
        const double shrink = std::exp(m[a] - l);
        z[a] *= shrink;
        for (std::size_t t = 0; t < DV; ++t) S[a * DV + t] *= shrink;
        m[a] = l;
      }
      const double f = std::exp(l - m[a]);
      z[a] += f;
      for (std::size_t t = 0; t < DV; ++t) S[a * DV + t] += f * vb[j * DV + t];
    }
  };
  for (int b = 0; b < batch; ++b) {
    const float* qb = q + b * NQ * DK;
    const float* kb = k + b * NK * DK;
    const float* vb = v + b * NK * DV;
    std::fill(S.begin(), S.end(), 0.0);
    std::fill(z.begin(), z.end(), 0.0);
    std::fill(m.begin(), m.end(), -std::numeric_limits<double>::infinity());
    if (!causal)
      for (std::size_t j = 0; j < NK; ++j) take_key(kb, vb, j);
    for (std::size_t i = 0; i < NQ; ++i) {
      if (causal) take_key(kb, vb, i);  // the prefix j ≤ i
      double top = -std::numeric_limits<double>::infinity();
      for (std::size_t a = 0; a < DK; ++a) top = std::max(top, w[a] = log_phi(qb[i * DK + a]) + m[a]);
      double den = 0;
      for (std::size_t a = 0; a < DK; ++a) den += (w[a] = std::exp(w[a] - top)) * z[a];
      // den ≥ 1: feature a at `top` has weight 1 and z[a] ≥ 1. Kept as a check, never a silent 0.
      require(den >= 1, "linearAttention: internal error: a denominator below 1 after rescaling");
      float* o = &out[(b * NQ + i) * DV];
      for (std::size_t t = 0; t < DV; ++t) {
        double num = 0;
        for (std::size_t a = 0; a < DK; ++a) num += w[a] * S[a * DV + t];
        o[t] = static_cast<float>(num / den);
      }
    }
  }
  return out;
}

LinearAttentionCost linear_attention_cost(int n, int d_k, int d_v, bool causal) {
  require_dim("n", n);
  require_dim("d_k", d_k);
  require_dim("d_v", d_v);
  LinearAttentionCost c;
  const Count N(n), dk(d_k), dv(d_v);
  const Count pairs = causal ? Count(static_cast<std::uint64_t>(n) * (static_cast<std::uint64_t>(n) + 1) / 2) : N * N;
  const Count softmax[] = {Count(2) * pairs * dk, Count(4) * pairs, Count(2) * pairs * dv};
  const Count linear[] = {Count(2) * N * dk, Count(2) * N * dk * dv, N * dk, Count(2) * N * dk * dv, Count(2) * N * dk, N * dv};
  Count total = 0;
  for (int x = 0; x < 3; ++x) total += c.softmax[x] = softmax[x].value();
  c.softmax_total = total.value();
  total = 0;
  for (int x = 0; x < 6; ++x) total += c.linear[x] = linear[x].value();
  c.linear_total = total.value();
  // softmax(n) = pairs(n)·a, linear(n) = n·t: non-causal n·a > t ⇔ n > t/a; causal (n+1)/2·a > t
  // ⇔ n + 1 > 2t/a.
  const std::uint64_t a = per_pair(d_k, d_v), t = per_token(d_k, d_v);
  c.crossover_n = causal ? std::max<std::uint64_t>(1, 2 * t / a) : t / a + 1;
  c.ratio = static_cast<double>(c.softmax_total) / static_cast<double>(c.linear_total);
  return c;
}

}  // namespace attn
