// The training lab's trainer (see train.h): Adam steps on fresh batches, held-out scores, each
// head's focus on the positions the task reads, and single samples for the heatmaps.
#include "train.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>

#include "core/dims.h"
#include "core/error.h"

namespace attn {
namespace {

// Streams of the trainer's seed, apart from the model's own (tiny_model.cpp uses 1..3).
enum Stream : std::uint64_t { kTrainStream = 4, kEvalStream = 5, kSampleStream = 6 };

constexpr int kMaxDModel = 256;
constexpr int kMaxHeads = 16;
constexpr int kMaxBatch = 512;
constexpr int kMaxEvalSamples = 10000;
constexpr int kEvalChunk = 256;           // samples per forward pass of evaluate (bounds its memory)
constexpr double kStepWorkLimit = 2e9;    // multiply-adds one step() call may do: a second or two in wasm

std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

TrainConfig resolved(TrainConfig c) {
  if (c.lr == 0) c.lr = default_lr(c.task);
  return c;
}

TaskShape checked_shape(const TrainConfig& c) {
  const TaskShape shape = task_shape(c.task, c.vocab, c.seq_len);
  require(c.d_model >= 1 && c.d_model <= kMaxDModel,
          "d_model must be an integer in 1.." + std::to_string(kMaxDModel) + " (got " + std::to_string(c.d_model) + ")");
  require(c.n_heads >= 1 && c.n_heads <= kMaxHeads,
          "n_heads must be an integer in 1.." + std::to_string(kMaxHeads) + " (got " + std::to_string(c.n_heads) + ")");
  require(c.batch >= 1 && c.batch <= kMaxBatch,
          "batch must be an integer in 1.." + std::to_string(kMaxBatch) + " (got " + std::to_string(c.batch) + ")");
  require(std::isfinite(c.lr) && c.lr > 0 && c.lr <= 1, "lr must be a number in (0, 1], or 0 for the task's default (got " + number_text(c.lr) + ")");
  MhaConfig layer;
  layer.d_model = c.d_model;
  layer.n_heads = c.n_heads;
  resolve_dims(layer);  // d_model divisible by n_heads, with the engine's own message
  return shape;
}

}  // namespace

TinyModelConfig tiny_model_config(const TrainConfig& c, const TaskShape& shape) {
  TinyModelConfig m;
  m.n_embeddings = shape.n_embeddings;
  m.n_classes = shape.n_classes;
  m.n_slots = shape.n_slots;
  m.seq_len = c.seq_len;
  m.d_model = c.d_model;
  m.n_heads = c.n_heads;
  m.seed = c.seed;
  return m;
}

namespace {

void require_finite_grads(const TinyModelParams& g) {
  const std::pair<const char*, const std::vector<float>*> all[] = {
      {"embedding", &g.embedding}, {"readout", &g.readout}, {"readout_bias", &g.readout_bias}};
  for (const auto& [name, values] : all)
    require(first_non_finite(values->data(), values->size()) == values->size(),
            std::string("the gradient of ") + name + " is not finite");
}

}  // namespace

double default_lr(Task task) { return task == Task::Lookup ? 0.01 : 0.02; }

double train_step_macs(const TrainConfig& c, const TaskShape& shape) {
  const double rows = static_cast<double>(c.batch) * c.seq_len, D = c.d_model;
  // Forward: four projections and, over all heads, scores and weighted sum; the backward pass
  // costs about twice that and reruns the forward: 4× in all. The read-out 3× (Y·W, dY, dW).
  const double layer = 4 * rows * D * D + 2 * rows * c.seq_len * D;
  return 4 * layer + 3 * rows * D * shape.n_slots * shape.n_classes;
}

Trainer::Trainer(const TrainConfig& config)
    : config_(resolved(config)),
      shape_(checked_shape(config_)),
      model_(tiny_model_config(config_, shape_)),
      train_rng_(mix64(config_.seed ^ kTrainStream)) {
  adam_.lr = config_.lr;
}

int Trainer::max_steps_per_call() const {
  return static_cast<int>(std::max(1.0, std::floor(kStepWorkLimit / train_step_macs(config_, shape_))));
}

StepReport Trainer::step(int n) {
  const int limit = max_steps_per_call();
  require(n >= 1 && n <= limit, "steps must be an integer in 1.." + group_digits(limit) +
                                    " at these sizes, since one call does at most about 2·10⁹ multiply-adds (got " +
                                    std::to_string(n) + ")");
  StepReport report;
  for (int i = 0; i < n; ++i) {
    const TaskBatch batch = draw_batch(config_.task, config_.vocab, config_.seq_len, config_.batch, train_rng_);
    const long step = steps_ + 1;
    TinyModelScore score;
    try {
      const TinyModelGradients g = model_.gradients(batch);
      score = g.score;
      require(std::isfinite(g.score.loss), "the loss is not finite");
      require_finite_grads(g.grads);
      // Updated on copies, kept only once the new parameters are accepted (finite).
      TinyModelParams p = model_.params();
      Moments m = moments_;
      const std::tuple<std::vector<float>*, const std::vector<float>*, AdamMoments*> all[] = {
          {&p.embedding, &g.grads.embedding, &m.embedding},
          {&p.readout, &g.grads.readout, &m.readout},
          {&p.readout_bias, &g.grads.readout_bias, &m.readout_bias},
          {&p.mha.wq, &g.grads.mha.wq, &m.wq}, {&p.mha.wk, &g.grads.mha.wk, &m.wk},
          {&p.mha.wv, &g.grads.mha.wv, &m.wv}, {&p.mha.wo, &g.grads.mha.wo, &m.wo},
          {&p.mha.bq, &g.grads.mha.bq, &m.bq}, {&p.mha.bk, &g.grads.mha.bk, &m.bk},
          {&p.mha.bv, &g.grads.mha.bv, &m.bv}, {&p.mha.bo, &g.grads.mha.bo, &m.bo}};
      for (const auto& [param, grad, moments] : all) adam_update(*param, *grad, *moments, adam_, step);
      model_.set_params(p);
      moments_ = std::move(m);
    } catch (const Error& e) {
      throw Error("training step " + group_digits(step) + " failed: " + e.what() +
                  "; the model is kept as it was before this step (lower lr, or reset)");
    }
    steps_ = step;
    report.loss.push_back(score.loss);
    report.accuracy.push_back(static_cast<double>(score.correct) / static_cast<double>(score.predictions));
  }
  report.steps = steps_;
  return report;
}

Evaluation Trainer::evaluate(int samples) const {
  require(samples >= 1 && samples <= kMaxEvalSamples, "samples must be an integer in 1.." +
                                                          group_digits(kMaxEvalSamples) + " (got " +
                                                          std::to_string(samples) + ")");
  const int H = config_.n_heads, T = config_.seq_len, S = shape_.n_slots;
  const int R = static_cast<int>(shape_.relations.size());
  Evaluation e;
  e.samples = samples;
  std::vector<std::int64_t> slot_right(S, 0), slot_count(S, 0);
  std::vector<std::vector<double>> focus_sum(H, std::vector<double>(R, 0.0));
  std::vector<std::int64_t> focus_rows(R, 0);
  std::int64_t correct = 0, predictions = 0, sequences = 0;
  double loss_sum = 0.0;  // summed over predictions, divided at the end
  Rng rng(mix64(config_.seed ^ kEvalStream));
  for (int done = 0; done < samples; done += kEvalChunk) {
    const int B = std::min(kEvalChunk, samples - done);
    const TaskBatch batch = draw_batch(config_.task, config_.vocab, T, B, rng);
    const TinyModelForward f = model_.forward(batch, true);
    loss_sum += f.score.loss * static_cast<double>(f.score.predictions);
    correct += f.score.correct;
    predictions += f.score.predictions;
    sequences += f.score.sequences_correct;
    const std::size_t C = shape_.n_classes;
    for (std::size_t r = 0; r < batch.targets.size(); ++r) {
      const int target = batch.targets[r];
      if (target < 0) continue;
      const float* z = f.logits.data() + r * C;
      slot_count[r % S] += 1;
      slot_right[r % S] += static_cast<std::size_t>(std::max_element(z, z + C) - z) == static_cast<std::size_t>(target);
    }
    for (int b = 0; b < B; ++b) {
      for (int t = 0; t < T; ++t) {
        const int* src = batch.sources.data() + (static_cast<std::size_t>(b) * T + t) * R;
        // Only rows where every relation reads a position of its own: there the focus of a head
        // tells the relations apart, and every relation is averaged over the same rows.
        bool distinct = true;
        for (int r = 0; r < R; ++r) {
          distinct = distinct && src[r] >= 0;
          for (int o = 0; o < r; ++o) distinct = distinct && src[o] != src[r];
        }
        if (!distinct) continue;
        for (int r = 0; r < R; ++r) {
          focus_rows[r] += 1;
          for (int h = 0; h < H; ++h)
            focus_sum[h][r] += f.weights[((static_cast<std::size_t>(b) * H + h) * T + t) * T + src[r]];
        }
      }
    }
  }
  e.loss = loss_sum / static_cast<double>(predictions);
  e.accuracy = static_cast<double>(correct) / static_cast<double>(predictions);
  e.sequence_accuracy = static_cast<double>(sequences) / samples;
  for (int s = 0; s < S; ++s) e.slot_accuracy.push_back(static_cast<double>(slot_right[s]) / slot_count[s]);
  e.focus.assign(H, std::vector<RelationFocus>(R));
  for (int h = 0; h < H; ++h)
    for (int r = 0; r < R; ++r)
      e.focus[h][r] = {focus_rows[r] ? focus_sum[h][r] / static_cast<double>(focus_rows[r]) : NAN, focus_rows[r]};
  return e;
}

SampleView Trainer::sample_view(std::uint64_t sample) const {
  Rng rng(mix64(mix64(config_.seed ^ kSampleStream) + sample));
  const TaskBatch batch = draw_batch(config_.task, config_.vocab, config_.seq_len, 1, rng);
  TinyModelForward f = model_.forward(batch, true);
  SampleView v;
  v.tokens = batch.tokens;
  v.targets = batch.targets;
  const std::size_t C = shape_.n_classes;
  for (std::size_t r = 0; r < batch.targets.size(); ++r) {
    const float* z = f.logits.data() + r * C;
    v.predictions.push_back(batch.targets[r] < 0 ? -1 : static_cast<int>(std::max_element(z, z + C) - z));
  }
  v.weights = std::move(f.weights);
  v.input = std::move(f.input);
  return v;
}

}  // namespace attn
