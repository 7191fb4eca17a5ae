// The training lab's tasks (see tasks.h): their shapes, their limits and the seeded sampler.
#include "tasks.h"

#include <numeric>
#include <string>
#include <utility>

#include "core/error.h"

namespace attn {
namespace {

// Small enough that a step stays interactive and lookup's vocab² pair tokens stay a small table.
constexpr int kMaxVocab = 64;
constexpr int kMaxSeqLen = 64;

int below(Rng& rng, int n) { return static_cast<int>(rng.next_u64() % static_cast<std::uint64_t>(n)); }

}  // namespace

const std::vector<Task>& all_tasks() {
  static const std::vector<Task> tasks = {Task::CopyPrevious, Task::CopyFirst, Task::Reverse, Task::Lookup,
                                          Task::TwoRelation};
  return tasks;
}

namespace {
// Made as the module starts, not by the first call that names a task: that call would leave the
// table's bytes in heapAllocated() for good.
[[maybe_unused]] const bool tasks_made_at_start = (all_tasks(), true);
}  // namespace

const char* task_name(Task task) {
  switch (task) {
    case Task::CopyPrevious: return "copy_previous";
    case Task::CopyFirst: return "copy_first";
    case Task::Reverse: return "reverse";
    case Task::Lookup: return "lookup";
    case Task::TwoRelation: return "two_relation";
  }
  return "?";
}

Task parse_task(const std::string& name) {
  std::string names;
  for (Task t : all_tasks()) {
    if (name == task_name(t)) return t;
    names += std::string(names.empty() ? "" : ", ") + task_name(t);
  }
  throw Error("unknown task '" + name + "'; use one of " + names);
}

TaskShape task_shape(Task task, int vocab, int seq_len) {
  require(vocab >= 2 && vocab <= kMaxVocab,
          "vocab must be an integer in 2.." + std::to_string(kMaxVocab) + " (got " + std::to_string(vocab) + ")");
  require(seq_len >= 2 && seq_len <= kMaxSeqLen,
          "seq_len must be an integer in 2.." + std::to_string(kMaxSeqLen) + " (got " + std::to_string(seq_len) + ")");
  switch (task) {
    case Task::CopyPrevious: return {vocab, vocab, 1, {"previous"}, {"previous"}};
    case Task::CopyFirst: return {vocab, vocab, 1, {"first"}, {"first"}};
    case Task::Reverse: return {vocab, vocab, 1, {"mirror"}, {"mirror"}};
    case Task::Lookup:
      // seq_len − 1 pairs with distinct keys, then the query.
      require(seq_len - 1 <= vocab, "lookup stores seq_len − 1 pairs under distinct keys, so seq_len − 1 (" +
                                        std::to_string(seq_len - 1) + ") must be at most vocab (" +
                                        std::to_string(vocab) + ")");
      return {2 * vocab + 1, vocab, 1, {"value"}, {"key"}};
    case Task::TwoRelation: return {vocab, vocab, 2, {"previous", "first"}, {"previous", "first"}};
  }
  throw Error("unknown task");
}

std::string token_label(Task task, int vocab, int token) {
  if (task != Task::Lookup) return std::to_string(token);
  if (token >= vocab * vocab) return std::to_string(token - vocab * vocab) + "?";
  return std::to_string(token / vocab) + ":" + std::to_string(token % vocab);
}

TaskBatch draw_batch(Task task, int vocab, int seq_len, int batch, Rng& rng) {
  const TaskShape shape = task_shape(task, vocab, seq_len);
  require_positive("batch", batch);
  TaskBatch out;
  out.batch = batch;
  out.seq_len = seq_len;
  out.n_slots = shape.n_slots;
  out.n_relations = static_cast<int>(shape.relations.size());
  const std::size_t T = seq_len, S = out.n_slots, R = out.n_relations;
  constexpr std::size_t F = kTokenFeatures;
  out.tokens.assign(batch * T, 0);
  out.features.assign(batch * T * F, -1);
  out.targets.assign(batch * T * S, -1);
  out.sources.assign(batch * T * R, -1);
  std::vector<int> keys(vocab);
  for (int b = 0; b < batch; ++b) {
    int* tok = out.tokens.data() + b * T;
    int* feature = out.features.data() + b * T * F;
    int* target = out.targets.data() + b * T * S;
    int* source = out.sources.data() + b * T * R;
    if (task == Task::Lookup) {
      // Distinct keys by a partial Fisher–Yates shuffle; values may repeat.
      std::iota(keys.begin(), keys.end(), 0);
      const int pairs = seq_len - 1;
      std::vector<int> values(pairs);
      for (int p = 0; p < pairs; ++p) {
        std::swap(keys[p], keys[p + below(rng, vocab - p)]);
        values[p] = below(rng, vocab);
        tok[p] = lookup_pair_token(keys[p], values[p], vocab);
        feature[p * F] = keys[p];
        feature[p * F + 1] = vocab + values[p];
      }
      const int asked = below(rng, pairs);
      tok[pairs] = lookup_query_token(keys[asked], vocab);
      feature[pairs * F] = keys[asked];
      feature[pairs * F + 1] = 2 * vocab;
      target[pairs] = values[asked];
      source[pairs] = asked;
      continue;
    }
    for (int t = 0; t < seq_len; ++t) feature[t * F] = tok[t] = below(rng, vocab);
    for (int t = 0; t < seq_len; ++t) {
      int from[2] = {-1, -1};  // the position each slot (and its relation) reads
      switch (task) {
        case Task::CopyPrevious: from[0] = t - 1; break;
        case Task::CopyFirst: from[0] = 0; break;
        case Task::Reverse: from[0] = seq_len - 1 - t; break;
        case Task::TwoRelation: from[0] = t - 1; from[1] = 0; break;
        case Task::Lookup: break;
      }
      for (std::size_t s = 0; s < S; ++s) {
        if (from[s] < 0) continue;
        target[t * S + s] = tok[from[s]];
        source[t * R + s] = from[s];
      }
    }
  }
  return out;
}

}  // namespace attn
