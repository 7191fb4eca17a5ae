// Linear attention with φ = elu + 1, and its cost against softmax attention. See linear_attention.h.
#include "linear_attention.h"

#include <algorithm>
#include <cmath>

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

  const std::size_t DK = d_k, DV = d_v, NQ = n_q, NK = n_k;
  std::vector<float> out(static_cast<std::size_t>(batch) * NQ * DV, 0.0f);
  std::vector<double> S(DK * DV), z(DK), phi(DK);
  // Adds key j of item b to S and z.
  auto take_key = [&](const float* kb, const float* vb, std::size_t j) {
    for (std::size_t a = 0; a < DK; ++a) {
      const double f = elu_plus_one(kb[j * DK + a]);
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
    if (!causal)
      for (std::size_t j = 0; j < NK; ++j) take_key(kb, vb, j);
    for (std::size_t i = 0; i < NQ; ++i) {
      if (causal) take_key(kb, vb, i);  // the prefix j ≤ i
      double den = 0;
      for (std::size_t a = 0; a < DK; ++a) {
        phi[a] = elu_plus_one(qb[i * DK + a]);
        den += phi[a] * z[a];
      }
      if (!(den > 0)) continue;  // every φ product underflowed: no weight anywhere, output 0
      float* o = &out[(b * NQ + i) * DV];
      for (std::size_t t = 0; t < DV; ++t) {
        double num = 0;
        for (std::size_t a = 0; a < DK; ++a) num += phi[a] * S[a * DV + t];
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
