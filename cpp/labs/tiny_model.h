// The training lab's model: token embedding + sinusoidal positional encoding → one multi-head
// self-attention layer (no mask) → a linear read-out to the classes of every output slot, with
// cross-entropy loss. Attention is its only way to move information between positions, so what
// it learns is what its heads attend to.
#pragma once
#include <cstdint>
#include <vector>

#include "core/mha.h"
#include "tasks.h"

namespace attn {

struct TinyModelConfig {
  int n_embeddings = 8, n_classes = 8, n_slots = 1, seq_len = 8;
  int d_model = 32, n_heads = 2;
  std::uint64_t seed = 1;
};

/// Everything the model learns, in the core's layouts: embedding [n_embeddings, d_model]; the
/// layer's MhaWeights; readout [d_model, n_slots·n_classes] (y = x·W + b) and its bias.
struct TinyModelParams {
  std::vector<float> embedding;
  MhaWeights mha;
  std::vector<float> readout, readout_bias;
};

/// Loss and accuracy over the predictions a batch asks for (targets ≥ 0).
struct TinyModelScore {
  double loss = 0.0;            // mean cross-entropy in nats
  std::int64_t correct = 0;     // predictions whose largest logit is the target
  std::int64_t predictions = 0; // targets counted
  std::int64_t sequences_correct = 0;  // samples with every prediction right
};

struct TinyModelForward {
  std::vector<float> input;    // [batch, seq_len, d_model]: the token's embedding rows + positional encoding
  std::vector<float> output;   // [batch, seq_len, d_model]: the attention layer's output
  std::vector<float> logits;   // [batch, seq_len, n_slots, n_classes]
  std::vector<float> weights;  // [batch, n_heads, seq_len, seq_len] when asked for
  TinyModelScore score;
};

struct TinyModelGradients {
  TinyModelParams grads;  // ∂loss/∂ each parameter, same layouts
  TinyModelScore score;
};

class TinyModel {
 public:
  /// Draws the initial parameters from config.seed: embedding N(0, 1), the layer's default
  /// (Xavier) weights with biases, read-out U(±1/√d_model) as nn.Linear, its bias 0.
  explicit TinyModel(const TinyModelConfig& config);
  const TinyModelConfig& config() const { return config_; }
  const MhaDims& dims() const { return mha_.dims(); }
  const TinyModelParams& params() const { return params_; }
  /// Replaces every parameter (lengths and finiteness checked; nothing changes on error).
  void set_params(const TinyModelParams& params);
  /// Forward pass and score on a batch of the model's sizes.
  TinyModelForward forward(const TaskBatch& batch, bool need_weights) const;
  /// Forward, loss and the gradient of the mean loss with respect to every parameter.
  TinyModelGradients gradients(const TaskBatch& batch) const;

 private:
  std::vector<float> embed(const TaskBatch& batch) const;
  TinyModelConfig config_;
  MultiHeadAttention mha_;
  TinyModelParams params_;
  std::vector<float> positions_;  // positional encoding [seq_len, d_model]
};

/// Cross-entropy over the targeted predictions of logits [batch, seq_len, n_slots, n_classes];
/// with d_logits, also ∂(mean loss)/∂logits (0 where nothing is predicted).
TinyModelScore score_logits(const std::vector<float>& logits, const TaskBatch& batch, int n_classes,
                            std::vector<float>* d_logits);

}  // namespace attn
