// The training lab, step by step: a TinyModel on one task, trained with Adam on batches drawn
// on the fly from a seeded stream. Between steps a caller reads the loss and accuracy, scores
// the model on held-out samples, looks at every head's attention on a sample, and takes the
// learnt weights (to inspect them with the rest of the playground).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "adam.h"
#include "core/rng.h"
#include "tasks.h"
#include "tiny_model.h"

namespace attn {

/// The defaults are chosen so that every task trains reliably (measured over seeds 1–10 for
/// two_relation, 1–5 for lookup): two heads split two_relation within about 100 steps.
struct TrainConfig {
  Task task = Task::TwoRelation;
  int d_model = 32, n_heads = 2, seq_len = 8, vocab = 16, batch = 32;
  double lr = 0;  // Adam's learning rate; 0: the task's default_lr
  std::uint64_t seed = 1;
};

/// 0.02, but 0.01 for lookup: matching keys is noisier (one prediction per sample) and at 0.02
/// it stalls below 96 % on seeds 1–5, where 0.01 reaches 99.4–100 %.
double default_lr(Task task);

/// What step(n) did: the loss and accuracy of each of its n training batches.
struct StepReport {
  long steps = 0;  // steps taken since the trainer was made, this call's included
  std::vector<double> loss, accuracy;
};

/// How much of its row weight head h puts on the position relation r reads, averaged over the
/// rows where every relation reads a position and no two the same one (for two_relation: t ≥ 2,
/// since at t = 1 the previous token is the first). rows = 0: no such row (weight is then NaN).
struct RelationFocus {
  double weight;
  std::int64_t rows;
};

struct Evaluation {
  int samples = 0;
  double loss = 0.0, accuracy = 0.0, sequence_accuracy = 0.0;
  std::vector<double> slot_accuracy;             // per output slot
  std::vector<std::vector<RelationFocus>> focus;  // [n_heads][n_relations]
};

/// One sample, as the heatmaps show it.
struct SampleView {
  std::vector<int> tokens;       // [seq_len]
  std::vector<int> targets;      // [seq_len, n_slots], −1 where nothing is predicted
  std::vector<int> predictions;  // [seq_len, n_slots], the largest logit (−1 where no target)
  std::vector<float> weights;    // [n_heads, seq_len, seq_len], each head's attention weights
  std::vector<float> input;      // [seq_len, d_model], the layer's input (embedding + PE)
};

class Trainer {
 public:
  /// Checks the configuration (throws Error naming the problem) and draws the model from seed;
  /// config() then holds the learning rate in use.
  explicit Trainer(const TrainConfig& config);
  const TrainConfig& config() const { return config_; }
  const TaskShape& shape() const { return shape_; }
  const TinyModel& model() const { return model_; }
  long steps() const { return steps_; }
  /// n Adam steps on fresh batches. Refuses n beyond the work limit (see max_steps_per_call);
  /// a step whose loss or gradients are not finite stops the call with an Error and leaves the
  /// model as it was before that step.
  StepReport step(int n);
  /// The most steps one call may take at these sizes (about 10⁹ multiply-adds of work).
  int max_steps_per_call() const;
  /// Scores the model on `samples` held-out samples (a stream of their own, the same samples
  /// on every call, never used for training), and measures each head's focus.
  Evaluation evaluate(int samples) const;
  /// Sample number `sample` of a stream of its own, run through the model.
  SampleView sample_view(std::uint64_t sample) const;

 private:
  TrainConfig config_;
  TaskShape shape_;
  TinyModel model_;
  AdamSettings adam_;
  struct Moments {
    AdamMoments embedding, readout, readout_bias, wq, wk, wv, wo, bq, bk, bv, bo;
  } moments_;
  Rng train_rng_;
  long steps_ = 0;
};

/// The model a trainer of this configuration trains (sizes from the task's shape, seed from config).
TinyModelConfig tiny_model_config(const TrainConfig& config, const TaskShape& shape);

/// Multiply-adds of one training step (forward, loss, backward), for the work limits.
double train_step_macs(const TrainConfig& config, const TaskShape& shape);

}  // namespace attn
