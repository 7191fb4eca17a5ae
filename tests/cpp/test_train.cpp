// The training lab: the tasks' samples, the full model's gradients (embedding, attention layer,
// read-out) against float64 central differences of a model written out here, Adam against its
// formula, the trainer's determinism and errors, and what training achieves: on two_relation
// two heads split the relations and reach ≥ 99 % where one head cannot.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "labs/adam.h"
#include "core/error.h"
#include "labs/tasks.h"
#include "labs/tiny_model.h"
#include "labs/train.h"
#include "check.h"
#include "reference.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_train {

namespace {

using Catch::Matchers::Contains;

// ---- a float64 model, from tiny_model.h's description, sharing no code with it -----------

struct Params64 {
  std::vector<double> embedding, readout, readout_bias, wq, wk, wv, wo, bq, bk, bv, bo;
  std::vector<std::vector<double>*> all() {
    return {&embedding, &readout, &readout_bias, &wq, &wk, &wv, &wo, &bq, &bk, &bv, &bo};
  }
};

Params64 to64(const attn::TinyModelParams& p) {
  auto d = [](const std::vector<float>& x) { return std::vector<double>(x.begin(), x.end()); };
  return {d(p.embedding), d(p.readout), d(p.readout_bias), d(p.mha.wq), d(p.mha.wk), d(p.mha.wv), d(p.mha.wo),
          d(p.mha.bq), d(p.mha.bk), d(p.mha.bv), d(p.mha.bo)};
}

std::vector<const std::vector<float>*> grads_of(const attn::TinyModelParams& g) {
  return {&g.embedding, &g.readout, &g.readout_bias, &g.mha.wq, &g.mha.wk, &g.mha.wv, &g.mha.wo,
          &g.mha.bq, &g.mha.bk, &g.mha.bv, &g.mha.bo};
}
const char* const kParamNames[] = {"embedding", "readout", "readout_bias", "wq", "wk", "wv", "wo", "bq", "bk", "bv", "bo"};

// y (rows × out) = x (rows × in)·W + b, in double.
std::vector<double> affine(const std::vector<double>& x, int rows, int in, const std::vector<double>& w,
                           const std::vector<double>& b, int out) {
  std::vector<double> y(static_cast<std::size_t>(rows) * out);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < out; ++c) {
      double s = b[c];
      for (int i = 0; i < in; ++i) s += x[static_cast<std::size_t>(r) * in + i] * w[static_cast<std::size_t>(i) * out + c];
      y[static_cast<std::size_t>(r) * out + c] = s;
    }
  return y;
}

// Mean cross-entropy of the model over the batch's targets.
double loss64(const Params64& p, const attn::TaskBatch& batch, int D, int H, int n_classes) {
  const int T = batch.seq_len, S = batch.n_slots, dk = D / H, rows = batch.batch * T;
  const std::vector<double> pe = reference::positional_encoding(T, D);
  std::vector<double> x(static_cast<std::size_t>(rows) * D);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < D; ++c) {
      double s = pe[static_cast<std::size_t>(r % T) * D + c];
      for (int f = 0; f < attn::kTokenFeatures; ++f) {
        const int row = batch.features[static_cast<std::size_t>(r) * attn::kTokenFeatures + f];
        if (row >= 0) s += p.embedding[static_cast<std::size_t>(row) * D + c];
      }
      x[static_cast<std::size_t>(r) * D + c] = s;
    }
  const std::vector<double> q = affine(x, rows, D, p.wq, p.bq, D), k = affine(x, rows, D, p.wk, p.bk, D),
                            v = affine(x, rows, D, p.wv, p.bv, D);
  std::vector<double> concat(static_cast<std::size_t>(rows) * D), weights(static_cast<std::size_t>(T) * T);
  const attn::AttentionOptions opt;  // no mask, scaled, no dropout: the model's layer
  for (int b = 0; b < batch.batch; ++b)
    for (int h = 0; h < H; ++h) {
      const std::size_t at = static_cast<std::size_t>(b) * T * D + h * dk;
      reference::attention_head(q.data() + at, D, k.data() + at, D, v.data() + at, D, T, T, dk, dk, opt, b, h,
                                concat.data() + at, D, weights.data(), nullptr);
    }
  const std::vector<double> y = affine(concat, rows, D, p.wo, p.bo, D);
  const std::vector<double> logits = affine(y, rows, D, p.readout, p.readout_bias, S * n_classes);
  double loss = 0.0;
  int count = 0;
  for (std::size_t o = 0; o < batch.targets.size(); ++o) {
    const int target = batch.targets[o];
    if (target < 0) continue;
    const double* z = logits.data() + o * n_classes;
    double sum = 0.0;
    for (int c = 0; c < n_classes; ++c) sum += std::exp(z[c]);
    loss += std::log(sum) - z[target];
    ++count;
  }
  return loss / count;
}

struct GradCase {
  attn::Task task;
  int vocab, seq_len, d_model, n_heads, batch;
};

double g_worst_grad = 0.0;

}  // namespace

TEST_CASE("tasks: every target is the token its relation points at, lookup pairs hold distinct keys", "[train]") {
  attn::Rng rng(5);
  for (attn::Task task : attn::all_tasks()) {
    INFO(attn::task_name(task));
    CHECK(attn::parse_task(attn::task_name(task)) == task);
    const int vocab = 7, T = 6;
    const attn::TaskShape shape = attn::task_shape(task, vocab, T);
    const attn::TaskBatch b = attn::draw_batch(task, vocab, T, 50, rng);
    REQUIRE(b.tokens.size() == 50u * T);
    REQUIRE(b.targets.size() == 50u * T * shape.n_slots);
    REQUIRE(b.sources.size() == 50u * T * shape.relations.size());
    for (int s = 0; s < 50; ++s) {
      const int* tok = b.tokens.data() + s * T;
      for (int t = 0; t < T; ++t) {
        for (int slot = 0; slot < shape.n_slots; ++slot) {
          const int target = b.targets[(s * T + t) * shape.n_slots + slot];
          // Which position the slot reads, from the task's definition in tasks.h.
          int from = -1;
          switch (task) {
            case attn::Task::CopyPrevious: from = t - 1; break;
            case attn::Task::CopyFirst: from = 0; break;
            case attn::Task::Reverse: from = T - 1 - t; break;
            case attn::Task::TwoRelation: from = slot == 0 ? t - 1 : 0; break;
            case attn::Task::Lookup: break;
          }
          if (task == attn::Task::Lookup) continue;
          CHECK(target == (from < 0 ? -1 : tok[from]));
          CHECK(b.sources[(s * T + t) * shape.relations.size() + slot] == from);
          CHECK(b.features[(s * T + t) * attn::kTokenFeatures] == tok[t]);
          CHECK(b.features[(s * T + t) * attn::kTokenFeatures + 1] == -1);
          CHECK(attn::token_label(task, vocab, tok[t]) == std::to_string(tok[t]));
        }
      }
      if (task == attn::Task::Lookup) {
        std::set<int> keys;
        for (int t = 0; t < T - 1; ++t) {
          const int key = tok[t] / vocab, value = tok[t] % vocab;
          keys.insert(key);
          CHECK(b.features[(s * T + t) * 2] == key);
          CHECK(b.features[(s * T + t) * 2 + 1] == vocab + value);
          CHECK(b.targets[s * T + t] == -1);
        }
        CHECK(keys.size() == static_cast<std::size_t>(T - 1));
        const int asked = tok[T - 1] - vocab * vocab;
        REQUIRE(keys.count(asked) == 1);
        const int at = b.sources[s * T + T - 1];
        CHECK(tok[at] / vocab == asked);
        CHECK(b.targets[s * T + T - 1] == tok[at] % vocab);
        CHECK(b.features[(s * T + T - 1) * 2] == asked);
        CHECK(attn::token_label(task, vocab, tok[T - 1]) == std::to_string(asked) + "?");
        CHECK(attn::token_label(task, vocab, tok[at]) ==
              std::to_string(asked) + ":" + std::to_string(b.targets[s * T + T - 1]));
        CHECK(b.features[(s * T + T - 1) * 2 + 1] == 2 * vocab);
      }
    }
  }
}

TEST_CASE("tasks: seeded, and bad sizes or names are named", "[train]") {
  attn::Rng a(9), b(9), c(10);
  const auto x = attn::draw_batch(attn::Task::Reverse, 8, 8, 4, a);
  CHECK(x.tokens == attn::draw_batch(attn::Task::Reverse, 8, 8, 4, b).tokens);
  CHECK(x.tokens != attn::draw_batch(attn::Task::Reverse, 8, 8, 4, c).tokens);
  CHECK_THROWS_WITH(attn::parse_task("copy"), Contains("unknown task 'copy'") && Contains("two_relation"));
  CHECK_THROWS_WITH(attn::task_shape(attn::Task::Reverse, 1, 8), Contains("vocab must be an integer in 2..64 (got 1)"));
  CHECK_THROWS_WITH(attn::task_shape(attn::Task::Reverse, 65, 8), Contains("(got 65)"));
  CHECK_THROWS_WITH(attn::task_shape(attn::Task::Reverse, 8, 1), Contains("seq_len must be an integer in 2..64 (got 1)"));
  CHECK_THROWS_WITH(attn::task_shape(attn::Task::Lookup, 4, 6), Contains("seq_len − 1 (5) must be at most vocab (4)"));
  CHECK_NOTHROW(attn::task_shape(attn::Task::Lookup, 4, 5));
}

TEST_CASE("tiny model: every gradient against float64 central differences of the whole model", "[train]") {
  // Gradients normwise per tensor, max|g − g_fd| / max|g_fd|. The float32 chain (embedding sum,
  // projections, softmax backward, read-out) adds a few float roundings of O(1) values, about
  // 1e-6 relative; central differences with h = 1e-5 on this smooth loss err by O(h²) ≈ 1e-10
  // plus cancellation ≈ 1e-16/1e-5. 1e-5 holds both (measured worst: 3.3e-7) and fails any
  // wrong term (a missing path, e.g. the key path's share of the embedding gradient, is an
  // error of order 1).
  const GradCase cases[] = {{attn::Task::TwoRelation, 5, 4, 8, 2, 3},
                            {attn::Task::Lookup, 4, 4, 8, 2, 3},
                            {attn::Task::Reverse, 6, 5, 6, 1, 2},
                            {attn::Task::CopyFirst, 3, 3, 12, 3, 2}};
  for (const GradCase& gc : cases) {
    INFO(attn::task_name(gc.task) << " d_model " << gc.d_model << " n_heads " << gc.n_heads);
    const attn::TaskShape shape = attn::task_shape(gc.task, gc.vocab, gc.seq_len);
    attn::TrainConfig tc;
    tc.task = gc.task;
    tc.vocab = gc.vocab;
    tc.seq_len = gc.seq_len;
    tc.d_model = gc.d_model;
    tc.n_heads = gc.n_heads;
    tc.seed = 3;
    attn::TinyModel model(attn::tiny_model_config(tc, shape));
    attn::Rng rng(11);
    const attn::TaskBatch batch = attn::draw_batch(gc.task, gc.vocab, gc.seq_len, gc.batch, rng);
    const attn::TinyModelGradients g = model.gradients(batch);
    Params64 p = to64(model.params());
    const double loss = loss64(p, batch, gc.d_model, gc.n_heads, shape.n_classes);
    CHECK(g.score.loss == Approx(loss).epsilon(1e-5));
    CHECK(model.forward(batch, false).score.loss == Approx(loss).epsilon(1e-5));
    const auto grads = grads_of(g.grads);
    const auto params = p.all();
    for (std::size_t t = 0; t < params.size(); ++t) {
      std::vector<double>& x = *params[t];
      REQUIRE(grads[t]->size() == x.size());
      std::vector<double> fd(x.size());
      constexpr double h = 1e-5;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double x0 = x[i];
        x[i] = x0 + h;
        const double up = loss64(p, batch, gc.d_model, gc.n_heads, shape.n_classes);
        x[i] = x0 - h;
        const double down = loss64(p, batch, gc.d_model, gc.n_heads, shape.n_classes);
        x[i] = x0;
        fd[i] = (up - down) / (2 * h);
      }
      if (std::string(kParamNames[t]) == "bk") {
        // bk adds q·bk to every logit of a row, which the softmax ignores: its gradient is 0 in
        // exact arithmetic, so it is held absolutely (float32 leaves ~1e-9; the differences 1e-11).
        const check::Worst w = check::max_abs(*grads[t], fd);
        INFO("bk: " << w.describe());
        CHECK(w.err < 1e-6);
        continue;
      }
      const check::Worst w = check::normwise(*grads[t], fd);
      INFO(kParamNames[t] << ": " << w.describe());
      CHECK(w.err < 1e-5);
      g_worst_grad = std::max(g_worst_grad, w.err);
    }
  }
  WARN("tiny model: worst normwise gradient error against float64 central differences " << g_worst_grad);
}

TEST_CASE("adam: two updates against the formula in float64", "[train]") {
  attn::AdamSettings s;
  s.lr = 0.1;
  std::vector<float> p = {1.0f, -2.0f, 0.5f};
  attn::AdamMoments m;
  const std::vector<std::vector<float>> grads = {{0.3f, -1.0f, 0.0f}, {-0.2f, 4.0f, 1e-3f}};
  std::vector<double> want(p.begin(), p.end()), m1(3, 0.0), m2(3, 0.0);
  for (long step = 1; step <= 2; ++step) {
    attn::adam_update(p, grads[step - 1], m, s, step);
    for (int i = 0; i < 3; ++i) {
      const double g = grads[step - 1][i];
      m1[i] = 0.9 * m1[i] + 0.1 * g;
      m2[i] = 0.999 * m2[i] + 0.001 * g * g;
      const double m_hat = m1[i] / (1 - std::pow(0.9, step)), v_hat = m2[i] / (1 - std::pow(0.999, step));
      want[i] -= 0.1 * m_hat / (std::sqrt(v_hat) + 1e-8);
    }
    for (int i = 0; i < 3; ++i) {
      INFO("step " << step << " parameter " << i);
      CHECK(p[i] == Approx(want[i]).epsilon(1e-6));
    }
  }
}

TEST_CASE("trainer: seeded and reproducible, held-out scores, sample views", "[train]") {
  attn::TrainConfig c;
  c.task = attn::Task::CopyPrevious;
  c.seq_len = 6;
  c.batch = 8;
  attn::Trainer a(c), b(c);
  CHECK(a.config().lr == 0.02);  // the task's default
  const attn::StepReport ra = a.step(20), rb = b.step(20);
  CHECK(ra.steps == 20);
  REQUIRE(ra.loss.size() == 20);
  REQUIRE(ra.accuracy.size() == 20);
  CHECK(ra.loss == rb.loss);
  CHECK(ra.accuracy == rb.accuracy);
  CHECK(a.step(3).steps == 23);
  c.seed = 2;
  attn::Trainer other(c);
  CHECK(other.step(20).loss != ra.loss);

  const attn::Evaluation e1 = a.evaluate(300), e2 = a.evaluate(300);
  CHECK(e1.loss == e2.loss);  // the same held-out samples on every call
  CHECK(e1.samples == 300);
  REQUIRE(e1.focus.size() == 2);
  REQUIRE(e1.focus[0].size() == 1);
  CHECK(e1.focus[0][0].rows == 300 * 5);  // rows t ≥ 1 of every sample
  CHECK(e1.slot_accuracy.size() == 1);
  CHECK(e1.slot_accuracy[0] == Approx(e1.accuracy));

  const attn::SampleView v = a.sample_view(4);
  CHECK(v.tokens.size() == 6);
  CHECK(v.targets.size() == 6);
  CHECK(v.predictions.size() == 6);
  CHECK(v.predictions[0] == -1);  // position 0 has no previous token
  REQUIRE(v.weights.size() == 2u * 6 * 6);
  for (int r = 0; r < 12; ++r) {
    double sum = 0.0;
    for (int j = 0; j < 6; ++j) sum += v.weights[r * 6 + j];
    CHECK(sum == Approx(1.0).epsilon(1e-5));
  }
  // The layer's input is the token's embedding row plus the positional encoding.
  const std::vector<double> pe = reference::positional_encoding(6, 32);
  const auto& emb = a.model().params().embedding;
  for (int t = 0; t < 6; ++t)
    for (int col = 0; col < 32; ++col)
      CHECK(v.input[t * 32 + col] == Approx(emb[v.tokens[t] * 32 + col] + pe[t * 32 + col]).margin(1e-6));
  CHECK(a.sample_view(4).tokens == v.tokens);
  CHECK(a.sample_view(5).tokens != v.tokens);
}

TEST_CASE("trainer: bad configurations and calls are named", "[train]") {
  auto make = [](auto edit) {
    attn::TrainConfig c;
    edit(c);
    return attn::Trainer(c);
  };
  CHECK_THROWS_WITH(make([](attn::TrainConfig& c) { c.d_model = 30; c.n_heads = 4; }), Contains("not divisible by n_heads"));
  CHECK_THROWS_WITH(make([](attn::TrainConfig& c) { c.d_model = 512; }), Contains("d_model must be an integer in 1..256 (got 512)"));
  CHECK_THROWS_WITH(make([](attn::TrainConfig& c) { c.n_heads = 0; }), Contains("n_heads must be an integer in 1..16 (got 0)"));
  CHECK_THROWS_WITH(make([](attn::TrainConfig& c) { c.batch = 0; }), Contains("batch must be an integer in 1..512"));
  CHECK_THROWS_WITH(make([](attn::TrainConfig& c) { c.lr = 1.5; }), Contains("lr must be a number in (0, 1], or 0 for the task's default (got 1.5)"));
  CHECK_THROWS_WITH(make([](attn::TrainConfig& c) { c.lr = -0.1; }), Contains("(got -0.1)"));
  CHECK_THROWS_WITH(make([](attn::TrainConfig& c) { c.lr = NAN; }), Contains("lr must be"));
  CHECK_THROWS_WITH(make([](attn::TrainConfig& c) { c.vocab = 100; }), Contains("vocab must be an integer in 2..64"));
  CHECK_THROWS_WITH(make([](attn::TrainConfig& c) { c.task = attn::Task::Lookup; c.seq_len = 20; }),
                    Contains("must be at most vocab"));
  attn::Trainer t{attn::TrainConfig{}};
  const int limit = t.max_steps_per_call();
  CHECK(limit >= 100);  // the page's steps per frame fit easily at the default sizes
  CHECK_THROWS_WITH(t.step(0), Contains("steps must be an integer in 1.." + attn::group_digits(limit)));
  CHECK_THROWS_WITH(t.step(limit + 1), Contains("(got " + std::to_string(limit + 1) + ")"));
  CHECK(t.steps() == 0);
  CHECK_THROWS_WITH(t.evaluate(0), Contains("samples must be an integer in 1..10,000 (got 0)"));
  CHECK_THROWS_WITH(t.evaluate(10001), Contains("(got 10001)"));
  // Parameters that are not finite are refused and leave the model as it was.
  attn::TinyModelParams p = t.model().params();
  const float before = p.readout[3];
  p.readout[3] = NAN;
  attn::TinyModel copy = t.model();
  CHECK_THROWS_WITH(copy.set_params(p), Contains("readout contains NaN"));
  CHECK(copy.params().readout[3] == before);
  p.readout[3] = before;
  p.embedding.pop_back();
  CHECK_THROWS_WITH(copy.set_params(p), Contains("embedding"));
}

// [long]: a whole training run; the sanitizer build runs it with the SIMD kernels only (CMakeLists.txt).
TEST_CASE("training: two heads split two_relation (previous and first token), one head cannot", "[train][long]") {
  // The lab's defaults: d_model 32, n_heads 2, seq_len 8, vocab 16, batch 32, lr 0.02, seed 1.
  // Measured: ≥ 99 % held-out accuracy after 100 steps; 200 leaves a margin.
  auto train = [](int n_heads, int steps) {
    attn::TrainConfig c;
    c.n_heads = n_heads;
    attn::Trainer t(c);
    for (int done = 0; done < steps;) done += static_cast<int>(t.step(std::min(100, steps - done)).loss.size());
    return t.evaluate(1000);
  };
  const attn::Evaluation two = train(2, 200);
  INFO("two heads: accuracy " << two.accuracy << ", focus (previous, first): head 0 (" << two.focus[0][0].weight
                              << ", " << two.focus[0][1].weight << "), head 1 (" << two.focus[1][0].weight << ", "
                              << two.focus[1][1].weight << ")");
  CHECK(two.accuracy >= 0.99);
  CHECK(two.focus[0][0].rows == 1000 * 6);  // rows t ≥ 2, where previous and first differ
  // One head on the previous token, the other on the first, each with ≥ 0.8 of its row weight.
  const int prev_head = two.focus[0][0].weight > two.focus[1][0].weight ? 0 : 1;
  CHECK(two.focus[prev_head][0].weight >= 0.8);
  CHECK(two.focus[1 - prev_head][1].weight >= 0.8);
  WARN("two_relation, 2 heads, 200 steps: accuracy " << two.accuracy << ", previous-token head "
                                                     << two.focus[prev_head][0].weight << ", first-token head "
                                                     << two.focus[1 - prev_head][1].weight);
  // One head (d_k = 32) with five times the steps: it settles on the first token (measured
  // 62.7 % at 1,000 and at 3,000 steps with seed 1; 87 % at best with seeds 2 and 3).
  const attn::Evaluation one = train(1, 1000);
  INFO("one head: accuracy " << one.accuracy);
  CHECK(one.accuracy < 0.9);
  WARN("two_relation, 1 head, 1000 steps: accuracy " << one.accuracy);
}

}  // namespace test_train
