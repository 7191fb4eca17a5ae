// The trace of one query through attention, for the page's "Follow one query": every number
// between a query row and its output (scores, scaled scores, logits after the mask, the row max, the
// exponentials exp(logit − max) and their sum, weights, dropout,
// the weighted sum of values; for a layer also its projections, Concat row and output row).
// It runs the forward pass's own routines on that one row, so its weights and outputs are the
// forward pass's (with need_weights) bit for bit, and it costs work for one row, not n_q rows.
#pragma once
#include <cstdint>
#include <vector>

#include "attention.h"

namespace attn {

/// One query row of one head, from its scores to its output.
struct HeadRowTrace {
  std::vector<float> scores;          // n_k: q·k_j, before the scale and the mask
  std::vector<float> bias;            // n_k: ALiBi's −slope·|i − j| added to α·q·k_j; empty without ALiBi
  float slope = 0.0f;                 // ALiBi's slope of this head (0 without)
  std::vector<float> scaled;          // n_k: α·q·k_j (+ bias), before the mask (every key, masked or not)
  std::vector<float> logits;          // n_k: α·q·k_j (+ bias) as the softmax takes them, −∞ where masked
  float max = 0.0f;                   // the largest logit; −∞ when every key is masked
  std::vector<float> exp;             // n_k: exp(logit_j − max), 0 where masked
  double sum = 0.0;                   // Σ_j exp_j, kept in double as the softmax kernel keeps it
  std::vector<float> weights;         // n_k: exp_j / sum, then dropout: the forward pass's row
  std::vector<std::uint8_t> dropped;  // n_k: 1 where dropout zeroed the weight of a visible key
  std::vector<float> output;          // d_v: Σ_j weights_j·v_j, the head's output row
  bool masked = false;                // every key masked: weights and output are 0
  float logit_scale = 1.0f;           // α: 1/√d_k, or 1 with the scale off
  float keep_scale = 1.0f;            // 1/(1−p) on kept weights; 1 without dropout
};

/// Traces the one query row of p (p.rows must be 1, p.q its row, p.row0 its index, p.b and p.h
/// its batch item and head; p.weights, p.out and p.ldo are not used). Sizes are trusted: the
/// caller validates and runs require_unscaled_logits first.
HeadRowTrace trace_head_row(const HeadProblem& p, const AttentionOptions& opt);


/// Throws unless 0 ≤ index < count: "head 5 is out of range 0…3 (n_heads = 4)".
void require_index(const char* name, int index, int count, const char* count_name);

/// The trace of scaled_dot_product_attention for query row `query` of batch item `item`.
struct AttentionTrace {
  std::vector<float> q;  // d_k: the query row
  std::vector<float> k;  // n_k×d_k: the keys of batch item `item`
  std::vector<float> v;  // n_k×d_v: its values
  HeadRowTrace row;      // the rest; row.output is this query's output row (d_v)
};
/// Same inputs as scaled_dot_product_attention (checked the same way) plus the indices.
AttentionTrace trace_attention(const float* q, std::size_t q_len, const float* k, std::size_t k_len, const float* v,
                               std::size_t v_len, int batch, int n_q, int n_k, int d_k, int d_v,
                               const AttentionOptions& opt, int item, int query, std::uint64_t memory_budget);

/// The trace of MultiHeadAttention::forward for (item, head, query): see MultiHeadAttention::trace.
struct MhaTrace {
  std::vector<float> x;       // d_model: the query's input row
  std::vector<float> q;       // d_k: x·W_iᴽ + b for head `head`
  int kv_head = 0;            // the key/value head it reads: ⌊head / (n_heads / n_kv_heads)⌋
  std::vector<float> k;       // n_k×d_k: the keys of that key/value head
  std::vector<float> v;       // n_k×d_v: its values
  HeadRowTrace head;          // scores … weights, and head.output (d_v)
  std::vector<float> concat;  // n_heads·d_v: the query's Concat row, every head, times head_mask
  std::vector<float> output;  // d_model: Concat row·Wᴼ + bᴼ, the query's output row
};

}  // namespace attn
