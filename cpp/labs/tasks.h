// The training lab's tasks: small sequence problems that one attention layer can solve, drawn
// on the fly from a seeded stream. Each sample says, for every position and output slot, the
// token to predict, and for every relation the position attention should read it from.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.h"

namespace attn {

enum class Task {
  CopyPrevious,  // position t predicts the token at t − 1 (t ≥ 1)
  CopyFirst,     // every position predicts the token at position 0
  Reverse,       // position t predicts the token at seq_len − 1 − t
  Lookup,        // pairs key:value, one token each; the last token asks for a key, predict its value
  TwoRelation,   // two output slots: the previous token (t ≥ 1) and the first token (every t)
};

/// "copy_previous", "copy_first", "reverse", "lookup", "two_relation".
const char* task_name(Task task);
/// The task of that name; throws Error listing the names otherwise.
Task parse_task(const std::string& name);
/// Every task, in the order above.
const std::vector<Task>& all_tasks();

/// What a task looks like at these sizes (vocab: symbols, seq_len: tokens per sample).
struct TaskShape {
  int n_embeddings;  // rows of the embedding table: the symbols; for lookup keys, values and a query mark
  int n_classes;     // what one output slot predicts: a symbol
  int n_slots;    // outputs per position (2 for two_relation)
  std::vector<std::string> slots;      // a name per slot
  std::vector<std::string> relations;  // a name per relation: the position a prediction reads from
};
/// Checks the sizes for the task (throws Error naming the problem) and describes it.
TaskShape task_shape(Task task, int vocab, int seq_len);

/// Embedding rows one token sums (a lookup pair is its key's row plus its value's row).
constexpr int kTokenFeatures = 2;

/// A batch of samples. tokens [batch, seq_len] (the token ids shown to a learner);
/// features [batch, seq_len, kTokenFeatures] (the embedding rows each token sums, −1 = unused);
/// targets [batch, seq_len, n_slots] (the class to predict, −1 where that slot has nothing to
/// predict); sources [batch, seq_len, n_relations] (the position relation r reads from for that
/// query row, −1 where it has none).
struct TaskBatch {
  int batch = 0, seq_len = 0, n_slots = 0, n_relations = 0;
  std::vector<int> tokens, features, targets, sources;
};

/// How a token is written for a learner: the symbol "7"; in lookup a pair "3:7" (key 3 holds
/// value 7) and a query "3?" (which value has key 3?).
std::string token_label(Task task, int vocab, int token);

/// Draws `batch` samples of the task from rng (sizes checked by task_shape first).
TaskBatch draw_batch(Task task, int vocab, int seq_len, int batch, Rng& rng);

/// Lookup's token ids: key:value is key·vocab + value, "which value has key?" is vocab² + key.
/// Its embedding rows: key k is row k, value v row vocab + v, the query mark row 2·vocab; a pair
/// sums its key's and its value's rows, a query its key's row and the mark. Sharing the key's
/// row is what lets one attention layer match a query to its pair (with a row per pair, each of
/// the vocab² pairs would have to learn its key alone, from the few samples it appears in).
inline int lookup_pair_token(int key, int value, int vocab) { return key * vocab + value; }
inline int lookup_query_token(int key, int vocab) { return vocab * vocab + key; }

}  // namespace attn
