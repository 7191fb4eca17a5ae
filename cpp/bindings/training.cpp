// The Embind surface of the training lab (attn::Trainer) and of the √d_k gradient lab,
// following the binding pattern at the top of embind.cpp: plain numbers in, a JSON envelope
// out, float arrays kept by the call. The JavaScript side is web/src/engine/training.js.
#include <emscripten/bind.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "labs/sqrt_dk_lab.h"
#include "labs/train.h"
#include "call.h"
#include "convert.h"
#include "record.h"

namespace bind {
namespace {

// Trainers owned by JavaScript through an id, as layers are (a stale id is an error, never a
// dangling pointer).
std::unordered_map<std::uint32_t, std::unique_ptr<attn::Trainer>>& trainers() {
  static std::unordered_map<std::uint32_t, std::unique_ptr<attn::Trainer>> all;
  return all;
}

attn::Trainer& trainer(double id) {
  const auto it = id >= 1 && id <= 4294967295.0 ? trainers().find(static_cast<std::uint32_t>(id)) : trainers().end();
  if (it == trainers().end()) throw std::invalid_argument("this trainer was deleted");
  return *it->second;
}

void strings(Json& j, const std::vector<std::string>& names) {
  j.begin_array();
  for (const std::string& s : names) j.string(s);
  j.end_array();
}

template <class T>
void numbers(Json& j, const std::vector<T>& values) {
  j.begin_array();
  for (T v : values) j.number(static_cast<double>(v));
  j.end_array();
}

// Hands v to the call as result array `name` (kept, not copied).
void keep_array(const char* name, std::vector<float>&& v) {
  Call& c = current_call();
  const std::size_t n = v.size();
  c.add_array(name, c.keep(std::move(v)), n);
}

void write_side(Json& j, const attn::SqrtDkGradientSide& s) {
  j.begin_object()
      .field("score_grad_median", s.score_grad_median).field("score_grad_mean", s.score_grad_mean)
      .field("query_grad_median", s.query_grad_median).field("query_grad_mean", s.query_grad_mean)
      .field("saturated_share", s.saturated_share).field("entropy", s.entropy).field("max_weight", s.max_weight)
      .end_object();
}

// value: [{ name, default_lr }] for every task, in the core's order (the index trainerCreate takes).
std::string train_tasks() {
  return run([](Json& value) {
    value.begin_array();
    for (attn::Task t : attn::all_tasks())
      value.begin_object().field("name", attn::task_name(t)).field("default_lr", attn::default_lr(t)).end_object();
    value.end_array();
  });
}

// The task and sizes of a training record (task: an index into train_tasks()), shared by
// trainerCreate and trainCost so that the cost is always counted for the model that would be made.
attn::TrainConfig train_sizes(Record& r) {
  const auto& tasks = attn::all_tasks();
  const int task = r.integer("task");
  if (task < 0 || task >= static_cast<int>(tasks.size())) throw std::invalid_argument("unknown task index");
  attn::TrainConfig config;
  config.task = tasks[task];
  config.d_model = r.integer("d_model");
  config.n_heads = r.integer("n_heads");
  config.seq_len = r.integer("seq_len");
  config.vocab = r.integer("vocab");
  config.batch = r.integer("batch");
  return config;
}

// A record: task (an index into train_tasks()), d_model, n_heads, seq_len, vocab, batch, lr (0: the
// task's default), seed.
// value: { trainer: id, config, dims, shape: { n_embeddings, n_classes, n_slots, slots, relations }, max_steps_per_call }
std::string trainer_create(double options) {
  return run([&](Json& value) {
    Record r("trainerCreate", options);
    attn::TrainConfig config = train_sizes(r);
    config.lr = r.number("lr");
    config.seed = r.seed("seed");
    r.done();
    auto made = std::make_unique<attn::Trainer>(config);
    static std::uint32_t next_id = 1;
    const std::uint32_t id = next_id++;
    const attn::TrainConfig& c = made->config();
    const attn::TaskShape& s = made->shape();
    value.begin_object().field("trainer", id).key("config").begin_object();
    value.field("task", attn::task_name(c.task)).field("d_model", c.d_model).field("n_heads", c.n_heads)
        .field("seq_len", c.seq_len).field("vocab", c.vocab).field("batch", c.batch).field("lr", c.lr)
        .field("seed", static_cast<double>(c.seed));
    value.end_object().key("dims").begin_object();
    dims_fields(value, made->model().dims());
    value.end_object().key("shape").begin_object();
    value.field("n_embeddings", s.n_embeddings).field("n_classes", s.n_classes).field("n_slots", s.n_slots).key("slots");
    strings(value, s.slots);
    value.key("relations");
    strings(value, s.relations);
    value.end_object().field("max_steps_per_call", made->max_steps_per_call()).end_object();
    trainers().emplace(id, std::move(made));  // last: nothing after it can fail and orphan the trainer
  });
}

// The core's count of one training step's work (train_step_macs) at these sizes, without making a
// trainer: what a page estimates before it trains a link's model again. A record: task (an index into
// train_tasks()), d_model, n_heads, seq_len, vocab, batch.
// value: { step_macs }
std::string train_cost(double options) {
  return run([&](Json& value) {
    Record r("trainCost", options);
    const attn::TrainConfig config = train_sizes(r);
    r.done();
    const attn::TaskShape shape = attn::task_shape(config.task, config.vocab, config.seq_len);  // checks vocab and seq_len
    value.begin_object().field("step_macs", attn::train_step_macs(config, shape)).end_object();
  });
}

void trainer_delete(double id) {
  if (id >= 1 && id <= 4294967295.0) trainers().erase(static_cast<std::uint32_t>(id));
  try { trainers().rehash(0); } catch (...) {}  // as mha_delete: no bucket array outlives the trainers
}

// value: { steps, loss: [n], accuracy: [n] }
std::string trainer_step(double id, int n) {
  return run([&](Json& value) {
    const attn::StepReport r = trainer(id).step(n);
    value.begin_object().field("steps", static_cast<double>(r.steps)).key("loss");
    numbers(value, r.loss);
    value.key("accuracy");
    numbers(value, r.accuracy);
    value.end_object();
  });
}

// value: { samples, loss, accuracy, sequence_accuracy, slot_accuracy: { slot: share },
// focus: [{ relation: weight or null }] per head, focus_rows: { relation: rows } }
std::string trainer_evaluate(double id, int samples) {
  return run([&](Json& value) {
    const attn::Trainer& t = trainer(id);
    const attn::Evaluation e = t.evaluate(samples);
    const attn::TaskShape& s = t.shape();
    value.begin_object().field("samples", e.samples).field("loss", e.loss).field("accuracy", e.accuracy)
        .field("sequence_accuracy", e.sequence_accuracy).key("slot_accuracy").begin_object();
    for (std::size_t k = 0; k < s.slots.size(); ++k) value.field(s.slots[k].c_str(), e.slot_accuracy[k]);
    value.end_object().key("focus").begin_array();
    for (const auto& head : e.focus) {
      value.begin_object();
      for (std::size_t r = 0; r < s.relations.size(); ++r) {
        value.key(s.relations[r].c_str());
        if (head[r].rows > 0) value.number(head[r].weight);
        else value.null();
      }
      value.end_object();
    }
    value.end_array().key("focus_rows").begin_object();
    for (std::size_t r = 0; r < s.relations.size(); ++r)
      value.field(s.relations[r].c_str(), e.focus.empty() ? 0.0 : static_cast<double>(e.focus[0][r].rows));
    value.end_object().end_object();
  });
}

// value: { tokens, labels, targets, predictions } (targets and predictions [seq_len, n_slots],
// −1 where nothing is predicted); arrays weights [n_heads, seq_len, seq_len], input [seq_len, d_model].
std::string trainer_sample(double id, double sample) {
  return run([&](Json& value) {
    const attn::Trainer& t = trainer(id);
    attn::SampleView v = t.sample_view(static_cast<std::uint64_t>(sample));
    value.begin_object().key("tokens");
    numbers(value, v.tokens);
    value.key("labels").begin_array();
    for (int token : v.tokens) value.string(attn::token_label(t.config().task, t.config().vocab, token));
    value.end_array().key("targets");
    numbers(value, v.targets);
    value.key("predictions");
    numbers(value, v.predictions);
    value.end_object();
    keep_array("weights", std::move(v.weights));
    keep_array("input", std::move(v.input));
  });
}

// arrays wq, wk, wv, wo, bq, bk, bv, bo (the layer always has biases), embedding, readout, readout_bias.
std::string trainer_weights(double id) {
  return run([&](Json&) {
    attn::TinyModelParams p = trainer(id).model().params();
    const std::pair<const char*, std::vector<float>*> all[] = {
        {"wq", &p.mha.wq}, {"wk", &p.mha.wk}, {"wv", &p.mha.wv}, {"wo", &p.mha.wo}, {"bq", &p.mha.bq},
        {"bk", &p.mha.bk}, {"bv", &p.mha.bv}, {"bo", &p.mha.bo}, {"embedding", &p.embedding},
        {"readout", &p.readout}, {"readout_bias", &p.readout_bias}};
    for (const auto& [name, values] : all) keep_array(name, std::move(*values));
  });
}

// d_k_values: an input of int32. value: { n_k, samples, max_entropy, scaled_spread,
// unscaled_spread, rows: [{ d_k, scaled: {...}, unscaled: {...} }] }
std::string sqrt_dk_gradients(double d_k_values, int n_k, int samples, double seed) {
  return run([&](Json& value) {
    const Input<std::int32_t> in = current_call().input<std::int32_t>(d_k_values);
    const std::vector<int> d_ks(in.data, in.data + in.count);
    const attn::SqrtDkGradients g = attn::sqrt_dk_gradients(d_ks, n_k, samples, static_cast<std::uint64_t>(seed));
    value.begin_object().field("n_k", g.n_k).field("samples", g.samples).field("max_entropy", g.max_entropy)
        .field("scaled_spread", g.scaled_spread).field("unscaled_spread", g.unscaled_spread).key("rows").begin_array();
    for (const attn::SqrtDkGradientRow& r : g.rows) {
      value.begin_object().field("d_k", r.d_k).key("scaled");
      write_side(value, r.scaled);
      value.key("unscaled");
      write_side(value, r.unscaled);
      value.end_object();
    }
    value.end_array().end_object();
  });
}

}  // namespace
}  // namespace bind

EMSCRIPTEN_BINDINGS(training) {
  using namespace emscripten;
  function("trainTasks", &bind::train_tasks);
  function("trainerCreate", &bind::trainer_create);
  function("trainerDelete", &bind::trainer_delete);
  function("trainCost", &bind::train_cost);
  function("trainerStep", &bind::trainer_step);
  function("trainerEvaluate", &bind::trainer_evaluate);
  function("trainerSample", &bind::trainer_sample);
  function("trainerWeights", &bind::trainer_weights);
  function("sqrtDkGradients", &bind::sqrt_dk_gradients);
}
