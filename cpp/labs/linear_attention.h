// Linear attention (Katharopoulos et al., 2020): the softmax's exp(q·k) replaced by the kernel
// φ(q)·φ(k) with φ(x) = elu(x) + 1 (> 0), so that the sums over keys can be taken once:
// S = Σ_j φ(k_j)·v_jᵀ (d_k × d_v) and z = Σ_j φ(k_j), then out_i = φ(q_i)ᵀ·S / (φ(q_i)ᵀ·z). The cost
// grows as n·d_k·d_v instead of n²·d; the output is not softmax attention's. Causal: S and z are
// prefix sums over j ≤ i. Also the FLOP counts of both, for a chosen n, and where they cross.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn {

/// φ(x) = elu(x) + 1: x + 1 for x > 0, exp(x) otherwise.
double elu_plus_one(double x);

/// q [batch, n_q, d_k], k [batch, n_k, d_k], v [batch, n_k, d_v] → [batch, n_q, d_v]. Computed in
/// double, with the sums over keys kept in log scale per feature, so queries or keys far below 0
/// (φ = exp there, which underflows) still give the true output. causal needs n_q = n_k.
/// Throws Error naming the field for bad sizes, wrong lengths or non-finite inputs.
std::vector<float> linear_attention(const float* q, std::size_t q_len, const float* k, std::size_t k_len,
                                    const float* v, std::size_t v_len, int batch, int n_q, int n_k, int d_k, int d_v,
                                    bool causal);

/// FLOPs of one head and batch item at n_q = n_k = n (a multiply-add counts 2; exp, elu, a
/// division count 1 each). causal: softmax attention computes only the n(n+1)/2 visible pairs P;
/// linear attention's prefix sums cost what its full sums cost.
struct LinearAttentionCost {
  /// Softmax attention, O(n²·d): logits α·q_i·k_j (2·P·d_k); softmax: scale, exp, sum, divide
  /// (4·P); weighted sum of values (2·P·d_v).
  std::uint64_t softmax[3] = {};
  /// Linear attention, O(n·d_k·d_v): φ of queries and keys (2·n·d_k); S = Σ φ(k_j)·v_jᵀ
  /// (2·n·d_k·d_v); z = Σ φ(k_j) (n·d_k); numerators φ(q_i)ᵀ·S (2·n·d_k·d_v); denominators
  /// φ(q_i)ᵀ·z (2·n·d_k); divide (n·d_v).
  std::uint64_t linear[6] = {};
  std::uint64_t softmax_total = 0, linear_total = 0;
  /// The smallest n at which linear attention takes fewer FLOPs than softmax attention.
  std::uint64_t crossover_n = 0;
  double ratio = 0;  // softmax_total / linear_total at this n
};
LinearAttentionCost linear_attention_cost(int n, int d_k, int d_v, bool causal);

}  // namespace attn
