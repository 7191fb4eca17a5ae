// Constructed heads: the key layout of each key/value head, the targets each pattern sets for
// words and positions (token_sides.h solves them into W_Q and W_K columns), and the numbers
// that explain the result.
#include "head_patterns.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "error.h"
#include "token_sides.h"

namespace attn {
namespace {

constexpr HeadPattern kSettable[] = {HeadPattern::random, HeadPattern::uniform, HeadPattern::previous,
                                     HeadPattern::same_word, HeadPattern::first_token};

// Patterns whose queries read the constructed keys (positions, and words for same_word).
bool reads_keys(HeadPattern p) {
  return p == HeadPattern::previous || p == HeadPattern::same_word || p == HeadPattern::first_token;
}

// The layout of a constructed key/value head's d_k columns: F frequency pairs, then word dims.
struct KeyLayout {
  bool built = false;
  int pairs = 0, word_dims = 0;
};

// Orthonormal directions (Gram–Schmidt) spanning the unit embeddings of the words of `s`
// taken in `order` (vocabulary indices), at most `limit` of them.
std::vector<std::vector<double>> word_basis(const TokenSide& s, int d, const std::vector<int>& order, int limit) {
  std::vector<std::vector<double>> basis;
  for (std::size_t o = 0; o < order.size() && static_cast<int>(basis.size()) < limit; ++o) {
    const std::size_t v = order[o];
    std::vector<double> u(s.Z.begin() + static_cast<std::ptrdiff_t>(v * d), s.Z.begin() + static_cast<std::ptrdiff_t>((v + 1) * d));
    double norm = 0.0;
    for (double x : u) norm += x * x;
    for (double& x : u) x /= std::sqrt(norm);
    for (const auto& b : basis) {
      double dot = 0.0;
      for (int c = 0; c < d; ++c) dot += u[c] * b[c];
      for (int c = 0; c < d; ++c) u[c] -= dot * b[c];
    }
    double rest = 0.0;
    for (double x : u) rest += x * x;
    if (rest < 1e-12) continue;  // this word lies in the span already
    for (double& x : u) x /= std::sqrt(rest);
    basis.push_back(std::move(u));
  }
  return basis;
}

// The key-side vocabulary with the words a query can match first: a key word that a query token
// of the same batch item also has, at another position in self-attention. Only they need a
// direction of their own in the keys; the other words come after, in order of appearance.
std::vector<int> matchable_first(const TokenSide& keys, const PatternInputs& in, std::set<std::string>& matchable) {
  const bool self = in.key_words.empty();
  const auto& kw = self ? in.query_words : in.key_words;
  std::vector<bool> can(keys.vocab.size(), false);
  for (std::size_t b = 0; b < kw.size(); ++b)
    for (std::size_t j = 0; j < kw[b].size(); ++j)
      for (std::size_t i = 0; i < in.query_words[b].size(); ++i)
        if (in.query_words[b][i] == kw[b][j] && (!self || i != j)) can[keys.word_of[b * kw[b].size() + j]] = true;
  std::vector<int> order;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t v = 0; v < can.size(); ++v)
      if (can[v] == (pass == 0)) order.push_back(static_cast<int>(v));
  for (std::size_t v = 0; v < can.size(); ++v)
    if (can[v]) matchable.insert(keys.vocab[v]);
  return order;
}

double omega(int f, int d_model) { return std::pow(10000.0, -2.0 * f / d_model); }

// Pair weights a_f ∝ ω_f of the F fastest pairs, summing to 1: faster pairs tell neighbours apart.
// From the ω_f already computed (`w`, at least `pairs` of them) into a[0..pairs).
void pair_weights_into(const double* w, int pairs, double* a) {
  double total = 0.0;
  for (int f = 0; f < pairs; ++f) total += w[f];
  for (int f = 0; f < pairs; ++f) a[f] = w[f] / total;
}

std::vector<double> pair_weights(int pairs, int d_model) {
  std::vector<double> w(pairs), a(pairs);
  for (int f = 0; f < pairs; ++f) w[f] = omega(f, d_model);
  pair_weights_into(w.data(), pairs, a.data());
  return a;
}

// The margin 1 − max over 0 < Δ ≤ span of κ_F(Δ) = Σ_f a_f·cos(ω_f·Δ) of every pair count
// F = lowest..cap: how far below the peak κ_F(0) = 1 the best other offset stays (margins[F]; those below
// `lowest` are unused). The offsets are taken in blocks: each cos(ω_f·Δ) is computed once for all F
// (best_pairs tried every F and computed them again for each: ~2,900 cos and ~2,800 pow calls for the
// lesson's first layer), and the memory is cap × kOffsetBlock whatever the span (a previous-token head
// may look 2^20 tokens back). Each κ_F(Δ) is the same sum in the same order as before, so the margins
// are bit for bit the same.
std::vector<double> kernel_margins(int lowest, int cap, int d_model, int span) {
  constexpr int kOffsetBlock = 64;
  std::vector<double> w(cap), a(cap), worst(static_cast<std::size_t>(cap) + 1, -1.0);
  for (int f = 0; f < cap; ++f) w[f] = omega(f, d_model);
  std::vector<double> cosines(static_cast<std::size_t>(cap) * kOffsetBlock);
  for (int first = 1; first <= span; first += kOffsetBlock) {
    const int count = std::min(kOffsetBlock, span - first + 1);
    for (int f = 0; f < cap; ++f)
      for (int i = 0; i < count; ++i)
        cosines[static_cast<std::size_t>(f) * kOffsetBlock + i] = std::cos(w[f] * (first + i));
    for (int pairs = lowest; pairs <= cap; ++pairs) {
      pair_weights_into(w.data(), pairs, a.data());  // from the ω_f held: no pow again
      for (int i = 0; i < count; ++i) {
        double kappa = 0.0;
        for (int f = 0; f < pairs; ++f) kappa += a[f] * cosines[static_cast<std::size_t>(f) * kOffsetBlock + i];
        worst[pairs] = std::max(worst[pairs], kappa);
      }
    }
  }
  std::vector<double> margins(worst.size());
  for (std::size_t f = 0; f < worst.size(); ++f) margins[f] = 1.0 - worst[f];
  return margins;
}

double kernel_margin(int pairs, int d_model, int span) { return kernel_margins(pairs, pairs, d_model, span)[pairs]; }

// The number of pairs in 1..cap whose kernel stands out most over the offsets that occur (more
// pairs sharpen nothing near 0 but push the aliases of the fast pairs further out).
int best_pairs(int cap, int d_model, int span) {
  const std::vector<double> margins = kernel_margins(1, cap, d_model, span);
  int best = 1;
  double best_margin = -1.0;
  for (int f = 1; f <= cap; ++f) {
    const double m = margins[f];
    if (m > best_margin + 1e-12) best = f, best_margin = m;
  }
  return best;
}

// A word's code: its embedding's coordinates in the basis, scaled to length 1, so a word
// matches itself with exactly 1. For a word inside the basis' span, code·code' is the cosine of
// the two embeddings; a word outside (more words than directions) keeps its part in the span.
// A word that nothing can match gets 0: any code would only add a false resemblance.
std::vector<double> word_code(const TokenSide& s, int v, int d, const std::vector<std::vector<double>>& basis,
                              const std::set<std::string>& matchable) {
  std::vector<double> code;
  if (!matchable.count(s.vocab[v])) return std::vector<double>(basis.size(), 0.0);
  const double* e = s.Z.data() + static_cast<std::size_t>(v) * d;
  double norm = 0.0;
  for (const auto& b : basis) {
    double dot = 0.0;
    for (int c = 0; c < d; ++c) dot += e[c] * b[c];
    code.push_back(dot);
    norm += dot * dot;
  }
  for (double& x : code) x = norm > 0 ? x / std::sqrt(norm) : 0.0;
  return code;
}

// Copies column block [col0, col0 + width) of src (rows × src_cols) into dst (rows × dst_cols).
void put_columns(std::vector<float>& dst, int dst_cols, int dst0, const float* src, int src_cols, int src0, int rows,
                 int width, float scale = 1.0f) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < width; ++c)
      dst[static_cast<std::size_t>(r) * dst_cols + dst0 + c] = scale * src[static_cast<std::size_t>(r) * src_cols + src0 + c];
}

void zero_range(std::vector<float>& v, std::size_t from, std::size_t count) {
  if (!v.empty()) std::fill_n(v.begin() + static_cast<std::ptrdiff_t>(from), count, 0.0f);
}

}  // namespace

const char* head_pattern_name(HeadPattern p) {
  switch (p) {
    case HeadPattern::custom: return "custom";
    case HeadPattern::random: return "random";
    case HeadPattern::uniform: return "uniform";
    case HeadPattern::previous: return "previous";
    case HeadPattern::same_word: return "same_word";
    case HeadPattern::first_token: return "first_token";
  }
  return "?";
}

HeadPattern parse_head_pattern(const std::string& name) {
  std::string names;
  for (HeadPattern p : kSettable) {
    if (name == head_pattern_name(p)) return p;
    names += std::string(names.empty() ? "" : ", ") + head_pattern_name(p);
  }
  throw Error("unknown head pattern “" + name + "”; choose one of " + names);
}

MhaWeights build_head_patterns(const MhaDims& dims, const MhaWeights& current, const MhaWeights& initial,
                               const std::vector<HeadSpec>& patterns, const PatternInputs& inputs,
                               std::vector<HeadPatternInfo>& info) {
  const int D = dims.d_model, H = dims.n_heads, dk = dims.d_k, G = dims.group();
  const int QK = static_cast<int>(dims.qk_width()), KK = static_cast<int>(dims.kv_k_width());
  require(patterns.size() == static_cast<std::size_t>(H), "one pattern per head is needed (n_heads = " +
                                                              std::to_string(H) + ", got " +
                                                              std::to_string(patterns.size()) + ")");
  bool any_keys = false;
  for (int h = 0; h < H; ++h) {
    const HeadSpec& p = patterns[h];
    const std::string who = "head " + std::to_string(h) + " (" + head_pattern_name(p.pattern) + ")";
    require(p.head == h, "pattern " + std::to_string(h) + " names head " + std::to_string(p.head));
    if (p.strength)
      require(std::isfinite(*p.strength) && *p.strength >= 0 && *p.strength <= 1e6,
              who + ": strength must be a number in [0, 1,000,000] (got " + std::to_string(*p.strength) + ")");
    require(p.k >= 1 && p.k <= kMaxDim, who + ": k must be a whole number from 1 to " + group_digits(kMaxDim) +
                                            " (got " + std::to_string(p.k) + ")");
    if (reads_keys(p.pattern)) {
      any_keys = true;
      require(dk >= 2 && D >= 2, who + " needs d_k ≥ 2 and d_model ≥ 2 to carry a frequency pair of the "
                                       "positional encoding (d_k is " + std::to_string(dk) + ")");
    }
  }
  MhaWeights w = current;
  info.clear();

  // The two sides the constructed weights are solved against.
  TokenSide qside, kside;
  if (any_keys) {
    require(!inputs.query_words.empty(), "constructed heads need the tokens of the inputs (query_words)");
    qside = make_side("query", inputs.query_words, D, inputs.input_seed);
    const bool self = inputs.key_words.empty();
    if (!self)
      require(inputs.key_words.size() == inputs.query_words.size(),
              "key_words has " + std::to_string(inputs.key_words.size()) + " batch items, query_words " +
                  std::to_string(inputs.query_words.size()));
    kside = self ? qside : make_side("key", inputs.key_words, D, inputs.input_seed);
  }

  // The layout of each key/value head, from the patterns of its query heads: words that can
  // match get their directions first, then the pairs that make the sharpest kernel over the
  // offsets of these inputs, then directions for the other words while columns remain.
  const int max_pairs = std::min(dk / 2, D / 2);
  const int vk = static_cast<int>(kside.vocab.size());
  const int span = qside.n + kside.n;
  std::set<std::string> matchable_set;
  const std::vector<int> order = any_keys ? matchable_first(kside, inputs, matchable_set) : std::vector<int>{};
  const int matchable = static_cast<int>(matchable_set.size());
  std::vector<KeyLayout> layout(dims.n_kv_heads);
  int built = 0, word_dims = 0;
  for (int g = 0; g < dims.n_kv_heads; ++g) {
    bool pos = false, word = false;
    int longest_k = 1;
    for (int h = g * G; h < (g + 1) * G; ++h) {
      pos = pos || reads_keys(patterns[h].pattern);
      word = word || patterns[h].pattern == HeadPattern::same_word;
      if (patterns[h].pattern == HeadPattern::previous) longest_k = std::max(longest_k, patterns[h].k);
    }
    if (!pos) continue;
    KeyLayout& L = layout[g];
    L.built = true;
    ++built;
    // At least two pairs stay (one if d_k < 4): one pair alone repeats itself every 2π ≈ 6 tokens.
    const int needed_words = word ? std::min(matchable, dk - 2 * std::min(2, max_pairs)) : 0;
    L.pairs = best_pairs(std::max(1, std::min(max_pairs, (dk - needed_words) / 2)), D, span + longest_k);
    L.word_dims = word ? std::min(matchable, dk - 2 * L.pairs) : 0;
    word_dims = std::max(word_dims, L.word_dims);
  }
  const std::vector<std::vector<double>> basis =
      word_dims ? word_basis(kside, D, order, word_dims) : std::vector<std::vector<double>>{};

  // Query targets (one d_k block per constructed query head) and key targets (one per built
  // key/value head); then the solves.
  std::vector<int> q_block(H, -1), k_block(dims.n_kv_heads, -1);
  int q_blocks = 0;
  for (int h = 0; h < H; ++h)
    if (reads_keys(patterns[h].pattern)) q_block[h] = q_blocks++;
  for (int g = 0, b = 0; g < dims.n_kv_heads; ++g)
    if (layout[g].built) k_block[g] = b++;
  std::vector<std::vector<double>> weights_of(dims.n_kv_heads);
  for (int g = 0; g < dims.n_kv_heads; ++g) weights_of[g] = pair_weights(layout[g].pairs, D);
  SideSolution qsolved, ksolved;
  if (any_keys) {
    SideTargets TQ{q_blocks * dk, std::vector<double>(static_cast<std::size_t>(qside.rows()) * q_blocks * dk, 0.0)};
    SideTargets TK{built * dk, std::vector<double>(static_cast<std::size_t>(kside.rows()) * built * dk, 0.0)};
    for (int h = 0; h < H; ++h) {
      if (q_block[h] < 0) continue;
      const HeadSpec& p = patterns[h];
      const int g = dims.kv_head(h), c0 = q_block[h] * dk;
      const KeyLayout& L = layout[g];
      const std::vector<double>& a = weights_of[g];
      // q·k/√d_k = β·(...): the 1/√d_k of forward is undone here.
      const double c = p.strength.value_or(kPatternStrength) * std::sqrt(static_cast<double>(dk));
      for (int i = 0; i < qside.n; ++i) {
        double* row = TQ.position(qside, i) + c0;
        for (int f = 0; f < L.pairs; ++f) {
          const double w_f = omega(f, D);
          double s = 0.0, co = 0.0;
          if (p.pattern == HeadPattern::previous) s = std::sin(w_f * (i - p.k)), co = std::cos(w_f * (i - p.k));
          if (p.pattern == HeadPattern::first_token) s = 0.0, co = 1.0;
          if (p.pattern == HeadPattern::same_word) s = -kSelfPenalty * std::sin(w_f * i), co = -kSelfPenalty * std::cos(w_f * i);
          row[2 * f] = c * a[f] * s;
          row[2 * f + 1] = c * a[f] * co;
        }
      }
      if (p.pattern == HeadPattern::same_word)
        for (int v = 0; v < static_cast<int>(qside.vocab.size()); ++v) {
          const std::vector<double> code = word_code(qside, v, D, basis, matchable_set);
          for (int t = 0; t < L.word_dims && t < static_cast<int>(code.size()); ++t)
            TQ.word(v)[c0 + 2 * L.pairs + t] = c * code[t];
        }
    }
    for (int g = 0; g < dims.n_kv_heads; ++g) {
      if (k_block[g] < 0) continue;
      const KeyLayout& L = layout[g];
      const int c0 = k_block[g] * dk;
      for (int j = 0; j < kside.n; ++j)
        for (int f = 0; f < L.pairs; ++f) {
          TK.position(kside, j)[c0 + 2 * f] = std::sin(omega(f, D) * j);
          TK.position(kside, j)[c0 + 2 * f + 1] = std::cos(omega(f, D) * j);
        }
      for (int v = 0; v < vk && L.word_dims > 0; ++v) {
        const std::vector<double> code = word_code(kside, v, D, basis, matchable_set);
        for (int t = 0; t < L.word_dims && t < static_cast<int>(code.size()); ++t) TK.word(v)[c0 + 2 * L.pairs + t] = code[t];
      }
    }
    const double work = solve_work(qside, D, TQ.cols) + solve_work(kside, D, TK.cols);
    if (work > kMaxSolveWork) {
      char text[240];
      std::snprintf(text, sizeof text,
                    "constructed heads: solving for these inputs takes about %.2g multiply-adds, more than the "
                    "%.2g one call may take; use shorter or fewer sentences, or fewer constructed heads", work, kMaxSolveWork);
      throw Error(text);
    }
    qsolved = solve_side(qside, TQ, D, dk);
    ksolved = solve_side(kside, TK, D, dk);
  }

  // Query columns, then key columns; biases of rebuilt columns 0.
  for (int h = 0; h < H; ++h) {
    const HeadSpec& p = patterns[h];
    const std::size_t col = static_cast<std::size_t>(h) * dk;
    if (p.pattern == HeadPattern::custom) continue;
    if (p.pattern == HeadPattern::random) {
      put_columns(w.wq, QK, static_cast<int>(col), initial.wq.data(), QK, static_cast<int>(col), D, dk,
                  static_cast<float>(p.strength.value_or(1.0)));
    } else if (p.pattern == HeadPattern::uniform) {
      for (int r = 0; r < D; ++r) zero_range(w.wq, static_cast<std::size_t>(r) * QK + col, dk);
    } else {
      put_columns(w.wq, QK, static_cast<int>(col), qsolved.w.data(), q_blocks * dk, q_block[h] * dk, D, dk);
    }
    zero_range(w.bq, col, dk);
  }
  for (int g = 0; g < dims.n_kv_heads; ++g) {
    const std::size_t col = static_cast<std::size_t>(g) * dk;
    bool all_random = true;
    for (int h = g * G; h < (g + 1) * G; ++h) all_random = all_random && patterns[h].pattern == HeadPattern::random;
    if (layout[g].built) {
      put_columns(w.wk, KK, static_cast<int>(col), ksolved.w.data(), built * dk, k_block[g] * dk, D, dk);
      zero_range(w.bk, col, dk);
    } else if (all_random) {
      put_columns(w.wk, KK, static_cast<int>(col), initial.wk.data(), KK, static_cast<int>(col), D, dk);
      if (!w.bk.empty()) std::copy_n(initial.bk.begin() + static_cast<std::ptrdiff_t>(col), dk, w.bk.begin() + static_cast<std::ptrdiff_t>(col));
    }
  }

  // What each head is, with the numbers behind it.
  for (int h = 0; h < H; ++h) {
    const HeadSpec& p = patterns[h];
    if (p.pattern == HeadPattern::custom) continue;
    const int g = dims.kv_head(h);
    HeadPatternInfo r{};
    r.head = h;
    r.kv_head = g;
    r.pattern = p.pattern;
    r.strength = p.strength.value_or(p.pattern == HeadPattern::random ? 1.0 : kPatternStrength);
    r.k = p.pattern == HeadPattern::previous ? p.k : 1;
    r.vocabulary_q = static_cast<int>(qside.vocab.size());
    r.positions_q = qside.n;
    r.vocabulary_k = vk;
    r.positions_k = kside.n;
    r.exact = any_keys && qside.rows() <= D && kside.rows() <= D;
    r.matchable_words = p.pattern == HeadPattern::same_word ? matchable : 0;
    if (reads_keys(p.pattern)) {
      const KeyLayout& L = layout[g];
      r.pairs = L.pairs;
      r.word_dims = L.word_dims;
      r.pair_weight = weights_of[g];
      for (int f = 0; f < L.pairs; ++f) r.omega.push_back(omega(f, D));
      r.kernel_margin = kernel_margin(L.pairs, D, span + r.k);
      r.self_penalty = p.pattern == HeadPattern::same_word ? kSelfPenalty : 0.0;
      r.fit_error = std::max(qsolved.block_error[q_block[h]], ksolved.block_error[k_block[g]]);
    }
    info.push_back(std::move(r));
  }
  return w;
}

}  // namespace attn
