// The training lab's model (see tiny_model.h): forward pass, loss, and the gradient of every
// parameter, the attention layer's through the core's backward pass.
#include "tiny_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/analysis.h"
#include "core/backward.h"
#include "core/error.h"
#include "core/kernels.h"
#include "core/rng.h"

namespace attn {
namespace {

// Independent streams of one seed for the parts of the model, so that adding a part never
// shifts the draws of another.
enum Stream : std::uint64_t { kLayerStream = 1, kEmbeddingStream = 2, kReadoutStream = 3 };

MhaConfig layer_config(const TinyModelConfig& c) {
  MhaConfig m;
  m.d_model = c.d_model;
  m.n_heads = c.n_heads;
  m.bias = true;  // a constant query (e.g. "look at position 0") needs the bias
  m.seed = mix64(c.seed ^ kLayerStream);
  return m;
}

void require_params(const char* name, const std::vector<float>& x, std::size_t want, std::size_t row,
                    const std::string& dims) {
  require_length(name, x.size(), want, dims);
  require_finite(name, x.data(), x.size(), row);
}

// ForwardOptions of the model: self-attention, no mask, scaled, no dropout.
ForwardOptions layer_options(bool need_weights) {
  ForwardOptions opt;
  opt.need_weights = need_weights;
  return opt;
}

}  // namespace

TinyModel::TinyModel(const TinyModelConfig& config) : config_(config), mha_(layer_config(config)) {
  require_positive("n_embeddings", config.n_embeddings);
  require_positive("n_classes", config.n_classes);
  require_positive("n_slots", config.n_slots);
  require_positive("seq_len", config.seq_len);
  const std::size_t D = config.d_model, out = static_cast<std::size_t>(config.n_slots) * config.n_classes;
  params_.mha = mha_.weights();
  Rng embedding_rng(mix64(config.seed ^ kEmbeddingStream));
  params_.embedding.resize(static_cast<std::size_t>(config.n_embeddings) * D);
  for (float& x : params_.embedding) x = static_cast<float>(embedding_rng.normal());
  Rng readout_rng(mix64(config.seed ^ kReadoutStream));
  const float bound = 1.0f / std::sqrt(static_cast<float>(D));
  params_.readout.resize(D * out);
  for (float& x : params_.readout) x = readout_rng.uniform(-bound, bound);
  params_.readout_bias.assign(out, 0.0f);
  positions_ = positional_encoding(config.seq_len, config.d_model);
}

void TinyModel::set_params(const TinyModelParams& p) {
  const std::size_t D = config_.d_model, out = static_cast<std::size_t>(config_.n_slots) * config_.n_classes;
  require_params("embedding", p.embedding, config_.n_embeddings * D, D,
                 "[n_embeddings, d_model] = [" + std::to_string(config_.n_embeddings) + ", " + std::to_string(D) + "]");
  require_params("readout", p.readout, D * out, out,
                 "[d_model, n_slots·n_classes] = [" + std::to_string(D) + ", " + std::to_string(out) + "]");
  require_params("readout_bias", p.readout_bias, out, out, "[n_slots·n_classes] = [" + std::to_string(out) + "]");
  mha_.set_weights(p.mha);  // checks its own; last, so nothing has changed if it throws
  params_ = p;
}

std::vector<float> TinyModel::embed(const TaskBatch& batch) const {
  require(batch.seq_len == config_.seq_len && batch.n_slots == config_.n_slots,
          "the batch does not have the model's seq_len and output slots");
  const std::size_t D = config_.d_model, T = config_.seq_len;
  const std::size_t rows = batch.tokens.size();
  require(batch.features.size() == rows * kTokenFeatures, "the batch's features do not match its tokens");
  std::vector<float> x(rows * D);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* pe = positions_.data() + (r % T) * D;
    std::copy_n(pe, D, x.data() + r * D);
    for (int f = 0; f < kTokenFeatures; ++f) {
      const int row = batch.features[r * kTokenFeatures + f];
      if (row < 0) continue;
      require(row < config_.n_embeddings, "embedding row " + std::to_string(row) + " is outside 0.." +
                                              std::to_string(config_.n_embeddings - 1));
      const float* e = params_.embedding.data() + row * D;
      for (std::size_t c = 0; c < D; ++c) x[r * D + c] += e[c];
    }
  }
  return x;
}

TinyModelScore score_logits(const std::vector<float>& logits, const TaskBatch& batch, int n_classes,
                            std::vector<float>* d_logits) {
  const std::size_t C = n_classes, rows = batch.targets.size();
  TinyModelScore s;
  for (int t : batch.targets) s.predictions += t >= 0;
  if (d_logits) d_logits->assign(logits.size(), 0.0f);
  if (s.predictions == 0) return s;
  const double per = 1.0 / static_cast<double>(s.predictions);
  std::vector<double> p(C);
  const std::size_t per_sample = rows / batch.batch;
  bool sample_right = true;
  for (std::size_t r = 0; r < rows; ++r) {
    if (r % per_sample == 0) sample_right = true;
    const int target = batch.targets[r];
    if (target >= 0) {
      const float* z = logits.data() + r * C;
      // Softmax in double: the loss of a confident right answer is a difference of near-equal terms.
      const std::size_t best = static_cast<std::size_t>(std::max_element(z, z + C) - z);
      double sum = 0.0;
      for (std::size_t c = 0; c < C; ++c) sum += p[c] = std::exp(static_cast<double>(z[c]) - z[best]);
      s.loss -= (static_cast<double>(z[target]) - z[best] - std::log(sum)) * per;
      const bool right = best == static_cast<std::size_t>(target);
      s.correct += right;
      sample_right = sample_right && right;
      if (d_logits)
        for (std::size_t c = 0; c < C; ++c)
          (*d_logits)[r * C + c] = static_cast<float>((p[c] / sum - (c == static_cast<std::size_t>(target))) * per);
    }
    if (r % per_sample == per_sample - 1) s.sequences_correct += sample_right;
  }
  return s;
}

TinyModelForward TinyModel::forward(const TaskBatch& batch, bool need_weights) const {
  const int D = config_.d_model, out = config_.n_slots * config_.n_classes;
  const int rows = batch.batch * config_.seq_len;
  TinyModelForward f;
  f.input = embed(batch);
  const MhaInput in{f.input.data(), f.input.size(), f.input.data(), f.input.size(), f.input.data(), f.input.size(),
                    batch.batch, config_.seq_len, config_.seq_len};
  MhaResult r = mha_.forward(in, layer_options(need_weights));
  f.output = std::move(r.output);
  f.weights = std::move(r.weights);
  f.logits.resize(static_cast<std::size_t>(rows) * out);
  kern::gemm(rows, out, D, f.output.data(), D, params_.readout.data(), out, false, f.logits.data(), out, 1.0f,
             params_.readout_bias.data(), false);
  f.score = score_logits(f.logits, batch, config_.n_classes, nullptr);
  return f;
}

TinyModelGradients TinyModel::gradients(const TaskBatch& batch) const {
  const int D = config_.d_model, out = config_.n_slots * config_.n_classes;
  const int rows = batch.batch * config_.seq_len;
  TinyModelForward f = forward(batch, false);
  TinyModelGradients g;
  std::vector<float> d_logits;
  g.score = score_logits(f.logits, batch, config_.n_classes, &d_logits);
  // Read-out: dW = Yᵀ·dZ, db = column sums of dZ, dY = dZ·Wᵀ.
  g.grads.readout.resize(static_cast<std::size_t>(D) * out);
  kern::gemm_tn(D, out, rows, f.output.data(), D, d_logits.data(), out, g.grads.readout.data(), out, 1.0f, false);
  g.grads.readout_bias.assign(out, 0.0f);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < out; ++c) g.grads.readout_bias[c] += d_logits[static_cast<std::size_t>(r) * out + c];
  std::vector<float> d_output(static_cast<std::size_t>(rows) * D);
  kern::gemm(rows, D, out, d_logits.data(), out, params_.readout.data(), out, true, d_output.data(), D, 1.0f, nullptr,
             false);
  // The layer: its weights, and its input through the query, key and value paths together.
  const MhaInput in{f.input.data(), f.input.size(), f.input.data(), f.input.size(), f.input.data(), f.input.size(),
                    batch.batch, config_.seq_len, config_.seq_len};
  MhaBackwardResult back = multi_head_attention_backward(mha_, in, d_output.data(), d_output.size(), layer_options(false));
  g.grads.mha = std::move(back.grads);
  // Embedding: each row gathers the input gradients of the positions whose token sums it.
  g.grads.embedding.assign(params_.embedding.size(), 0.0f);
  for (std::size_t r = 0; r < batch.tokens.size(); ++r) {
    const std::size_t at = r * D;
    for (int f = 0; f < kTokenFeatures; ++f) {
      const int row = batch.features[r * kTokenFeatures + f];
      if (row < 0) continue;
      float* e = g.grads.embedding.data() + static_cast<std::size_t>(row) * D;
      for (int c = 0; c < D; ++c) e[c] += back.query[at + c] + back.key[at + c] + back.value[at + c];
    }
  }
  return g;
}

}  // namespace attn
