// The backward pass: given the forward inputs and ∂L/∂output, the gradients of scaled dot-product
// attention (q, k, v) and of multi-head attention (every weight and bias, and the query, key
// and value inputs). Each call runs the forward pass too (its output is returned), keeping the
// attention weights of a few query rows at a time, so memory stays O(n·d + rows·n_k), never n².
#pragma once
#include <cstdint>
#include <vector>

#include "attention.h"
#include "mha.h"

namespace attn {

/// One (batch item, head) of the backward pass, all query rows, over strided operands.
/// With A = softmax(α·Q·Kᵀ [masked]), P = dropout(A), O = P·V (α = logit_scale):
/// dV += Pᵀ·dO, dA = dropout(dO·Vᵀ), dS = A ⊙ (dA − rowsum(dA ⊙ A)), dQ = α·dS·K, dK += α·dSᵀ·Q.
struct HeadBackward {
  const float* q;     int ldq;    // n_q × d_k
  const float* k;     int ldk;    // n_k × d_k
  const float* v;     int ldv;    // n_k × d_v
  const float* d_out; int ld_dout; // n_q × d_v, ∂L/∂O
  float* out;         int ldo;    // n_q × d_v, O (overwritten)
  float* dq;          int lddq;   // n_q × d_k (overwritten)
  float* dk;          int lddk;   // n_k × d_k (added to: query heads sharing a key head, query blocks)
  float* dv;          int lddv;   // n_k × d_v (added to)
  float* weights;      // n_q × n_k (row stride n_k): P, as forward returns it, or nullptr when not wanted
  float* score_grads;  // n_q × n_k: dS = ∂L/∂S, S = α·Q·Kᵀ masked (the softmax's input), or nullptr
  int n_q, n_k, d_k, d_v;
  int b, h;            // coordinates, for the padding mask and the dropout pattern
  const float* slope = nullptr;  // ALiBi: this head's slope (a constant bias on S: no gradient), or null
};

/// Query rows of one step of head_backward: the softmax sub-block of the forward pass.
int backward_rows(int n_k);

/// Working floats head_backward holds: K and V packed three ways and one step's rows of A,
/// dropout(A) and dS (`buffers`), and the rows of A the matmul packs (`a_pack`), and the
/// largest B the Aᵀ·B matmul packs per call (`b_pack`).
struct HeadBackwardFloats {
  std::uint64_t buffers, a_pack, b_pack;
};
HeadBackwardFloats head_backward_floats(const AttentionOptions& opt, int n_q, int n_k, int d_k, int d_v,
                                        bool need_weights);

/// Runs one head forward and backward. Appends fully masked rows (head 0 only) to masked_rows.
/// Sizes are trusted: callers validate and guard the logits (require_unscaled_logits) first.
void head_backward(const HeadBackward& p, const AttentionOptions& opt, std::vector<MaskedRow>* masked_rows);

struct SdpaBackwardResult {
  std::vector<float> output;            // [batch, n_q, d_v]
  std::vector<float> dq, dk, dv;        // ∂L/∂q, ∂L/∂k, ∂L/∂v: the shapes of q, k, v
  std::vector<float> weights;           // [batch, n_q, n_k] with need_weights (as forward: after dropout)
  std::vector<float> score_grads;       // [batch, n_q, n_k] ∂L/∂S with need_weights, else empty
  std::vector<MaskedRow> masked_rows;
};
/// Scaled dot-product attention backward: the inputs of scaled_dot_product_attention plus
/// grad_output [batch, n_q, d_v]. Checks everything the forward checks, and grad_output.
SdpaBackwardResult scaled_dot_product_attention_backward(
    const float* q, std::size_t q_len, const float* k, std::size_t k_len, const float* v, std::size_t v_len,
    const float* grad_output, std::size_t grad_output_len, int batch, int n_q, int n_k, int d_k, int d_v,
    const AttentionOptions& opt, bool need_weights, std::uint64_t memory_budget);

struct MhaBackwardResult {
  std::vector<float> output;            // [batch, n_q, d_model], as forward gives it
  MhaWeights grads;                     // ∂L/∂W and ∂L/∂b in MhaWeights' layout (biases empty when off)
  /// ∂L/∂query [batch, n_q, d_model]; ∂L/∂key, ∂L/∂value [batch, n_k, d_model]. In self-attention
  /// they are the gradients through the query, key and value paths: the input's gradient is their sum.
  std::vector<float> query, key, value;
  std::vector<float> weights;           // [batch, n_heads, n_q, n_k] with need_weights (as forward)
  std::vector<float> score_grads;       // [batch, n_heads, n_q, n_k] ∂L/∂S with need_weights
  std::vector<MaskedRow> masked_rows;
};

/// Bytes one multi-head backward call needs (the budget's count), over the same parts as
/// run_memory: inputs with grad_output, results (output and every gradient), working buffers,
/// and the layer's parameters with their packed copy.
std::uint64_t backward_memory(const MhaDims& d, int batch, int n_q, int n_k, bool need_weights, bool self_attention,
                              const AttentionOptions& opt);

/// Multi-head attention backward for `layer`: the input and options of forward (self-attention
/// when query, key and value are the same pointer; head_mask; the layer's n_kv_heads) and
/// grad_output [batch, n_q, d_model].
MhaBackwardResult multi_head_attention_backward(const MultiHeadAttention& layer, const MhaInput& input,
                                                const float* grad_output, std::size_t grad_output_len,
                                                const ForwardOptions& options);

}  // namespace attn
