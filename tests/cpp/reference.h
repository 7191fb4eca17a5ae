// The float64 oracle: a naive double-precision implementation of everything the engine computes,
// written from the lesson's definitions and sharing no code with the engine except the dropout rule.
#pragma once
#include <cstdint>
#include <vector>

#include "core/attention.h"
#include "core/mha.h"

namespace reference {

std::vector<double> to_double(const float* x, std::size_t n);
std::vector<double> to_double(const std::vector<float>& x);

/// C (M×N) = A (M×K, row stride lda) · B (K×N, row stride ldb). Plain triple loop in double.
void matmul(int M, int N, int K, const double* A, int lda, const double* B, int ldb, double* C, int ldc);

/// In-place softmax of n logits in double; −∞ entries become 0. A row of only −∞ becomes all
/// zeros and the function returns false (the engine's contract for a fully masked row).
bool softmax(double* x, int n);

/// The mask rule written out from mask.h's field docs: causal j > i, padding j ≥ key_lengths[b],
/// matrix[i·n_k + j] != 0, combined by OR.
bool is_masked(const attn::Mask& mask, int b, int i, int j, int n_k);

/// One (batch item b, head h) of masked scaled dot-product attention with dropout.
/// q: n_q×d_k (stride ldq), k: n_k×d_k (ldk), v: n_k×d_v (ldv); out: n_q×d_v (ldo);
/// weights: n_q×n_k (row stride n_k). Rows with every key masked are appended to masked_rows.
void attention_head(const double* q, int ldq, const double* k, int ldk, const double* v, int ldv, int n_q, int n_k,
                    int d_k, int d_v, const attn::AttentionOptions& opt, int b, int h, double* out, int ldo,
                    double* weights, std::vector<attn::MaskedRow>* masked_rows);

struct AttentionRef {
  std::vector<double> output;   // [batch, n_q, d_v]
  std::vector<double> weights;  // [batch, n_q, n_k]
  std::vector<attn::MaskedRow> masked_rows;
};
/// Plain attention over batch items, head 0: q [batch, n_q, d_k], k [batch, n_k, d_k], v [batch, n_k, d_v].
AttentionRef attention(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                       int batch, int n_q, int n_k, int d_k, int d_v, const attn::AttentionOptions& opt);

struct MhaRef {
  std::vector<double> output;   // [batch, n_q, d_model]
  std::vector<double> weights;  // [batch, n_heads, n_q, n_k]
  std::vector<attn::MaskedRow> masked_rows;
};
/// Multi-head attention from explicit weights (y = x·W + b, W d_in×d_out row-major):
/// head h uses columns h·d_k..(h+1)·d_k of the Q and K projections and h·d_v.. of V; Concat·Wᴼ + bᴼ.
MhaRef mha(const attn::MhaWeights& w, int d_model, int n_heads, int d_k, int d_v, const float* query,
           const float* key, const float* value, int batch, int n_q, int n_k, const attn::AttentionOptions& opt);

/// Sinusoidal positional encoding [n, d_model] in double.
std::vector<double> positional_encoding(int n, int d_model);

}  // namespace reference
