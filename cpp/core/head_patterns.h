// Constructed heads: the projection weights W_Q and W_K of chosen heads built from a named
// pattern, against the inputs the page makes (a seeded word embedding plus the sinusoidal
// positional encoding, see embedding.h), so a head means something a learner can name.
//
// How: every constructed key carries its token's position as F frequency pairs of the
// encoding, (sin ω_f·j, cos ω_f·j), and, for same_word, its word as a unit direction; the query
// picks what to match. The embeddings are random and overlap every frequency of the encoding,
// so instead of outvoting them the weights are solved (least_squares.h) to read the two parts
// apart: W sends each word of the inputs' vocabulary to its word target and each position to
// its position target. That is exact when the V distinct words and N positions of a side are
// linearly independent (V + N ≤ d_model); otherwise the closest fit, and fit_error says how far.
// Logits, with the 1/√d_k scale of forward, at strength β and pair weights a_f ∝ ω_f (Σ a_f = 1):
//   previous (back k): β·Σ_f a_f·cos(ω_f·(i − k − j)), peak at j = i − k (the lesson's
//                       PE(pos + k) = PE(pos)·M_k, the rotation applied on the query side);
//                       a row i < k has no token k back: its peak falls before the first key,
//                       so it spreads over the nearest keys (and the kernel's far echoes);
//   first_token:        β·Σ_f a_f·cos(ω_f·j), peak at j = 0;
//   same_word:          β·(c_i·c_j − γ·Σ_f a_f·cos(ω_f·(i − j))): c is the word's unit embedding
//                       in the directions of the words that repeat (c·c = 1 for the same word,
//                       the embeddings' cosine otherwise), and a penalty γ on its own position
//                       sends the row to the other occurrences;
//   uniform:            W_Q = 0, every logit 0, every row the mean;
//   random:             the layer's default initialisation, W_Q scaled by β (default 1).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dims.h"
#include "weights.h"

namespace attn {

enum class HeadPattern { custom, random, uniform, previous, same_word, first_token };

/// "custom" (weights set by hand), "random", "uniform", "previous", "same_word", "first_token".
const char* head_pattern_name(HeadPattern pattern);
/// The pattern of a name (one of the five settable ones); throws Error listing them.
HeadPattern parse_head_pattern(const std::string& name);

/// Default inverse temperature β of previous, same_word and first_token: the peak logit after
/// the 1/√d_k scale. On the page's default sentence it puts ≥ 0.8 of each row on its target.
constexpr double kPatternStrength = 16.0;
/// Weight γ of the own-position penalty of same_word, against a word match worth 1.
constexpr double kSelfPenalty = 0.5;

struct HeadSpec {
  int head = 0;
  HeadPattern pattern = HeadPattern::random;
  std::optional<double> strength;  // β ∈ [0, 10⁶]; not given: kPatternStrength (1 for random)
  int k = 1;                       // previous: the token k positions back
};

/// The tokens the layer will see, as words (lower-cased, "<pad>"-filled to equal lengths).
struct PatternInputs {
  std::vector<std::vector<std::string>> query_words;  // [batch][n_q]
  std::vector<std::vector<std::string>> key_words;    // [batch][n_k]; empty: self-attention
  std::uint64_t input_seed = 1;                       // seed of the word embeddings
};

/// What a head's weights are and the numbers that explain its pattern.
struct HeadPatternInfo {
  int head, kv_head;
  HeadPattern pattern;
  double strength;                 // β as applied
  int k;                           // previous only (1 otherwise)
  int pairs;                       // F: frequency pairs in the keys of its key/value head (0: none)
  int word_dims;                   // word directions in those keys (same_word)
  int matchable_words;             // same_word: key words that some query can match (each needs
                                   // a direction of its own: more than word_dims share them)
  std::vector<double> omega;       // ω_f = 10000^(−2f/d_model) of the pairs used, fastest first
  std::vector<double> pair_weight; // a_f ∝ ω_f, summing to 1
  double kernel_margin;            // 1 − max over 0 < |Δ| ≤ n_q + n_k + k of Σ a_f cos(ω_f Δ): the
                                   // peak stands out by β·margin in the logits (0 unless positional)
  double self_penalty;             // γ (same_word), else 0
  int vocabulary_q, positions_q;   // distinct words and positions of the query side
  int vocabulary_k, positions_k;   // and of the key side
  bool exact;                      // V + N ≤ d_model on both sides: words cancelled exactly (false
                                   // when nothing was solved: random, uniform)
  double fit_error;                // max |x·W − target| / max |target| over the tokens (0 if not built)
};

/// Weights with patterns[h] applied to head h (custom: head h's W_Q left as it is). A key/value
/// head whose query heads include previous, same_word or first_token gets constructed keys (the
/// patterns of all its query heads together decide its layout); one whose query heads are all
/// random gets `initial`'s keys back; otherwise its keys stay. Biases of rebuilt columns are 0.
/// `initial`: the layer's default weights (for random). `info`: one entry per non-custom head.
MhaWeights build_head_patterns(const MhaDims& dims, const MhaWeights& current, const MhaWeights& initial,
                               const std::vector<HeadSpec>& patterns, const PatternInputs& inputs,
                               std::vector<HeadPatternInfo>& info);

}  // namespace attn
