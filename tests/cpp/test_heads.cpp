// Constructed heads: the page's word embeddings reproduced bit for bit, the weights solved for
// each pattern (exact on the page's default sentence), the pattern strengths the issue asks for
// measured on that sentence, the layouts grouped-query heads share, and every bad request.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/embedding.h"
#include "core/head_patterns.h"
#include "core/mha.h"
#include "check.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_heads {

namespace {

// The page's default view: d_model 64, 4 heads, weight seed 1, words seeded by input_seed 7.
const std::vector<std::string> kSentence = {"the", "cat", "sat", "on", "the", "mat", "because", "it", "was", "warm"};
const std::vector<std::string> kFrench = {"le", "chat", "était", "assis", "sur", "le", "tapis"};
constexpr std::uint64_t kInputSeed = 7;

attn::HeadSpec spec(int head, attn::HeadPattern pattern, int k = 1) {
  attn::HeadSpec s;
  s.head = head;
  s.pattern = pattern;
  s.k = k;
  return s;
}

// Runs the layer on the sentence(s) and returns the attention weights [batch, n_heads, n_q, n_k].
std::vector<float> weights_on(const attn::MultiHeadAttention& layer, const attn::PatternInputs& in) {
  const int D = layer.dims().d_model;
  const int batch = static_cast<int>(in.query_words.size()), n_q = static_cast<int>(in.query_words[0].size());
  const std::vector<float> query = attn::embed_tokens(in.query_words, D, in.input_seed);
  const bool self = in.key_words.empty();
  const std::vector<float> memory = self ? query : attn::embed_tokens(in.key_words, D, in.input_seed);
  const int n_k = self ? n_q : static_cast<int>(in.key_words[0].size());
  attn::ForwardOptions opt;
  opt.need_weights = true;
  return layer.forward({query.data(), query.size(), memory.data(), memory.size(), memory.data(), memory.size(), batch,
                        n_q, n_k},
                       opt)
      .weights;
}

// The measures, worst row over the batch, of head h.
struct Strengths {
  double previous = 1, same_word = 1, first_token = 1, uniform_error = 0;
  int same_rows = 0;  // rows that have another occurrence of their word
};
Strengths measure(const std::vector<float>& w, const attn::PatternInputs& in, int n_heads, int h, int k = 1) {
  const auto& qw = in.query_words;
  const auto& kw = in.key_words.empty() ? in.query_words : in.key_words;
  const int batch = static_cast<int>(qw.size()), n_q = static_cast<int>(qw[0].size()), n_k = static_cast<int>(kw[0].size());
  Strengths s;
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < n_q; ++i) {
      const float* row = w.data() + ((static_cast<std::size_t>(b) * n_heads + h) * n_q + i) * n_k;
      if (i >= k && i - k < n_k) s.previous = std::min(s.previous, static_cast<double>(row[i - k]));
      s.first_token = std::min(s.first_token, static_cast<double>(row[0]));
      double same = 0.0;
      bool has = false;
      for (int j = 0; j < n_k; ++j) {
        s.uniform_error = std::max(s.uniform_error, std::fabs(row[j] - 1.0 / n_k));
        if (j != i && kw[b][j] == qw[b][i]) {
          same += row[j];
          has = true;
        }
      }
      if (has) {
        s.same_word = std::min(s.same_word, same);
        ++s.same_rows;
      }
    }
  return s;
}

attn::MhaConfig layer_config(int d_model, int n_heads, int n_kv_heads, bool bias = true) {
  attn::MhaConfig c = check::mha_config(d_model, n_heads, 0, 0, bias, 1);
  c.n_kv_heads = n_kv_heads;
  return c;
}

}  // namespace

TEST_CASE("word embeddings and token inputs are the page's numbers", "[heads][embedding]") {
  // Values printed by web/src/model/inputs.js (hashString, wordEmbedding) in Node.
  CHECK(attn::word_hash("the") == 3020861980u);
  CHECK(attn::word_hash("était") == 1060074238u);  // code points, not bytes
  CHECK(attn::word_hash("<pad>") == 468355590u);
  const std::vector<float> the = attn::word_embedding("the", 5, 7);
  const std::vector<float> want = {-0.0763632283f, 0.555888295f, -0.248521566f, 0.122599185f, 2.11830592f};
  CHECK(the == want);
  const std::vector<float> etait = attn::word_embedding("était", 4, 4294967295ull);
  CHECK(etait == std::vector<float>{-0.112400554f, -1.30227172f, 0.0499978065f, 2.73851228f});
  // Tokens: embedding + positional encoding, per position.
  const std::vector<float> x = attn::embed_tokens({{"the", "cat", "the"}}, 6, 7);
  const std::vector<float> pe = attn::positional_encoding(3, 6);
  const std::vector<float> e_the = attn::word_embedding("the", 6, 7), e_cat = attn::word_embedding("cat", 6, 7);
  for (int c = 0; c < 6; ++c) {
    CHECK(x[c] == e_the[c] + pe[c]);
    CHECK(x[6 + c] == e_cat[c] + pe[6 + c]);
    CHECK(x[12 + c] == e_the[c] + pe[12 + c]);
  }
  CHECK_THROWS_WITH(attn::embed_tokens({{"a", "b"}, {"c"}}, 4, 1), Catch::Contains("batch item 1 has 1 tokens, item 0 has 2"));
  CHECK_THROWS_WITH(attn::word_hash(std::string("a\xff")), Catch::Contains("is not valid UTF-8"));
}

TEST_CASE("constructed heads reach the issue's pattern strengths on the page's default sentence", "[heads]") {
  attn::MultiHeadAttention layer(layer_config(64, 4, 4));
  const attn::PatternInputs in{{kSentence}, {}, kInputSeed};
  const auto info = layer.set_head_patterns({spec(0, attn::HeadPattern::previous), spec(1, attn::HeadPattern::same_word),
                                             spec(2, attn::HeadPattern::first_token), spec(3, attn::HeadPattern::uniform)},
                                            in);
  REQUIRE(info.size() == 4);
  for (const attn::HeadPatternInfo& r : info) {
    INFO("head " << r.head << " (" << attn::head_pattern_name(r.pattern) << "): fit error " << r.fit_error);
    CHECK(r.exact);  // 9 words + 10 positions ≤ d_model 64
    CHECK(r.fit_error <= 1e-4);
  }
  // Positional keys: the number of fastest pairs whose kernel stands out most over these offsets.
  CHECK(info[0].pairs >= 1);
  CHECK(info[0].pairs <= 8);  // d_k = 16 holds eight
  CHECK(info[0].kernel_margin >= 0.3);
  CHECK(info[0].omega[0] == 1.0);
  // same_word keys: a direction for "the" (the one word that repeats) first, pairs, more words.
  CHECK(info[1].word_dims >= 1);
  CHECK(2 * info[1].pairs + info[1].word_dims <= 16);
  CHECK(info[0].strength == attn::kPatternStrength);

  const std::vector<float> w = weights_on(layer, in);
  const Strengths prev = measure(w, in, 4, 0), same = measure(w, in, 4, 1), first = measure(w, in, 4, 2),
                  uni = measure(w, in, 4, 3);
  WARN("default sentence, strength " << attn::kPatternStrength << ": previous min weight on i−1 " << prev.previous
                                     << ", same_word min weight on matching words " << same.same_word << " ("
                                     << same.same_rows << " rows), first_token min weight on key 0 "
                                     << first.first_token << ", uniform max |w − 1/n_k| " << uni.uniform_error
                                     << "; previous kernel margin " << info[0].kernel_margin);
  CHECK(prev.previous >= 0.8);
  CHECK(same.same_rows == 2);  // "the" at 0 and 4
  CHECK(same.same_word >= 0.8);
  CHECK(first.first_token >= 0.8);
  CHECK(uni.uniform_error <= 1e-6);
}

TEST_CASE("back k, grouped-query layouts, cross-attention and padded batches", "[heads]") {
  const attn::PatternInputs in{{kSentence}, {}, kInputSeed};
  SECTION("previous with k = 1, 2, 3 on four heads") {
    attn::MultiHeadAttention layer(layer_config(64, 4, 4));
    layer.set_head_patterns({spec(0, attn::HeadPattern::previous, 1), spec(1, attn::HeadPattern::previous, 2),
                             spec(2, attn::HeadPattern::previous, 3)},
                            in);
    const std::vector<float> w = weights_on(layer, in);
    for (int k = 1; k <= 3; ++k) {
      const double got = measure(w, in, 4, k - 1, k).previous;
      INFO("back " << k << ": min weight on i−k " << got);
      CHECK(got >= 0.8);
    }
  }
  SECTION("GQA: two query heads share one key/value head, MQA: all four") {
    for (int n_kv : {2, 1}) {
      attn::MultiHeadAttention layer(layer_config(64, 4, n_kv));
      // Heads 0 and 1 share keys (and with MQA all four do): previous and first_token use the
      // same positional keys; same_word adds word directions to the shared keys.
      const auto info = layer.set_head_patterns(
          {spec(0, attn::HeadPattern::previous), spec(1, attn::HeadPattern::first_token),
           spec(2, attn::HeadPattern::same_word), spec(3, attn::HeadPattern::previous, 2)},
          in);
      CHECK(info[0].kv_head == 0);
      CHECK(info[3].kv_head == (n_kv == 2 ? 1 : 0));
      const std::vector<float> w = weights_on(layer, in);
      const double p1 = measure(w, in, 4, 0).previous, f = measure(w, in, 4, 1).first_token,
                   s = measure(w, in, 4, 2).same_word, p2 = measure(w, in, 4, 3, 2).previous;
      WARN("n_kv_heads " << n_kv << ": previous " << p1 << " (" << info[0].pairs << " pairs), first_token " << f
                         << ", same_word " << s << ", back 2 " << p2 << " (" << info[3].pairs << " pairs)");
      CHECK(s >= 0.8);
      CHECK(f >= 0.8);
      CHECK(p1 >= 0.8);
      CHECK(p2 >= 0.8);
    }
  }
  SECTION("cross-attention (the French encoder sentence) and a padded batch") {
    attn::MultiHeadAttention layer(layer_config(64, 4, 4));
    const attn::PatternInputs cross{{kSentence}, {kFrench}, kInputSeed};
    const auto info = layer.set_head_patterns({spec(0, attn::HeadPattern::previous), spec(2, attn::HeadPattern::first_token)},
                                              cross);
    CHECK(info[0].exact);
    const std::vector<float> w = weights_on(layer, cross);
    CHECK(measure(w, cross, 4, 0).previous >= 0.8);
    CHECK(measure(w, cross, 4, 2).first_token >= 0.8);
    // Two sentences of a batch, the shorter filled with <pad>: one set of weights serves both.
    const attn::PatternInputs batch{{kSentence, {"a", "dog", "ran", "<pad>", "<pad>", "<pad>", "<pad>", "<pad>", "<pad>", "<pad>"}},
                                    {}, kInputSeed};
    layer.set_head_patterns({spec(0, attn::HeadPattern::previous), spec(1, attn::HeadPattern::same_word)}, batch);
    const std::vector<float> wb = weights_on(layer, batch);
    CHECK(measure(wb, batch, 4, 0).previous >= 0.8);
    CHECK(measure(wb, batch, 4, 1).same_word >= 0.8);
  }
}

TEST_CASE("random restores the default initialisation, uniform is W_Q = 0, patterns are remembered", "[heads]") {
  const attn::PatternInputs in{{kSentence}, {}, kInputSeed};
  for (bool bias : {true, false}) {
    attn::MultiHeadAttention fresh(layer_config(64, 4, 2, bias)), layer(layer_config(64, 4, 2, bias));
    CHECK(layer.head_patterns()[3].pattern == attn::HeadPattern::random);
    layer.set_head_patterns({spec(0, attn::HeadPattern::previous), spec(1, attn::HeadPattern::uniform),
                             spec(2, attn::HeadPattern::same_word), spec(3, attn::HeadPattern::first_token)},
                            in);
    CHECK(layer.weights().wq != fresh.weights().wq);
    CHECK(layer.head_patterns()[2].pattern == attn::HeadPattern::same_word);
    // Uniform: its query columns are all 0, and so is its part of bᴽ.
    const attn::MhaWeights w = layer.weights();
    for (int r = 0; r < 64; ++r)
      for (int c = 16; c < 32; ++c) REQUIRE(w.wq[static_cast<std::size_t>(r) * 64 + c] == 0.0f);
    // Back to random everywhere: exactly the fresh layer's weights.
    const auto info = layer.set_head_patterns({spec(0, attn::HeadPattern::random), spec(1, attn::HeadPattern::random),
                                               spec(2, attn::HeadPattern::random), spec(3, attn::HeadPattern::random)},
                                              in);
    CHECK(info[0].strength == 1.0);
    CHECK(layer.weights().wq == fresh.weights().wq);
    CHECK(layer.weights().wk == fresh.weights().wk);
    CHECK(layer.weights().bq == fresh.weights().bq);
    CHECK(layer.weights().wv == fresh.weights().wv);
    CHECK(layer.weights().wo == fresh.weights().wo);
    // A random head with strength 2: its query columns doubled, the keys of its group the default.
    attn::HeadSpec twice = spec(1, attn::HeadPattern::random);
    twice.strength = 2.0;
    layer.set_head_patterns({twice}, {});
    for (int r = 0; r < 64; ++r)
      for (int c = 16; c < 32; ++c)
        REQUIRE(layer.weights().wq[static_cast<std::size_t>(r) * 64 + c] == 2.0f * fresh.weights().wq[static_cast<std::size_t>(r) * 64 + c]);
  }
  // Seeded: the same request twice builds the same weights; set_weights makes every head custom.
  attn::MultiHeadAttention a(layer_config(64, 4, 4)), b(layer_config(64, 4, 4));
  a.set_head_patterns({spec(1, attn::HeadPattern::same_word)}, in);
  b.set_head_patterns({spec(1, attn::HeadPattern::same_word)}, in);
  CHECK(a.weights().wq == b.weights().wq);
  CHECK(a.weights().wk == b.weights().wk);
  b.set_weights(b.weights());
  for (const attn::HeadSpec& p : b.head_patterns()) CHECK(p.pattern == attn::HeadPattern::custom);
  // A custom head keeps its W_Q when others are constructed.
  const attn::MhaWeights before = b.weights();
  b.set_head_patterns({spec(0, attn::HeadPattern::previous)}, in);
  for (int r = 0; r < 64; ++r)
    for (int c = 16; c < 64; ++c)
      REQUIRE(b.weights().wq[static_cast<std::size_t>(r) * 64 + c] == before.wq[static_cast<std::size_t>(r) * 64 + c]);
}

TEST_CASE("bad pattern requests are refused by name, and change nothing", "[heads][errors]") {
  using Catch::Contains;
  const attn::PatternInputs in{{kSentence}, {}, kInputSeed};
  attn::MultiHeadAttention layer(layer_config(64, 4, 4));
  const attn::MhaWeights before = layer.weights();
  CHECK_THROWS_WITH(attn::parse_head_pattern("previous token"),
                    Contains("unknown head pattern “previous token”; choose one of random, uniform, previous, same_word, first_token"));
  CHECK(attn::parse_head_pattern("same_word") == attn::HeadPattern::same_word);
  CHECK_THROWS_WITH(layer.set_head_patterns({spec(4, attn::HeadPattern::previous)}, in),
                    Contains("head 4 does not exist: heads are 0..3"));
  CHECK_THROWS_WITH(layer.set_head_patterns({spec(1, attn::HeadPattern::previous), spec(1, attn::HeadPattern::uniform)}, in),
                    Contains("head 1 is given more than one pattern"));
  attn::HeadSpec bad = spec(0, attn::HeadPattern::previous);
  bad.strength = -1.0;
  CHECK_THROWS_WITH(layer.set_head_patterns({bad}, in), Contains("head 0 (previous): strength must be a number in [0, 1,000,000]"));
  bad.strength = NAN;
  CHECK_THROWS_WITH(layer.set_head_patterns({bad}, in), Contains("strength must be a number"));
  CHECK_THROWS_WITH(layer.set_head_patterns({spec(0, attn::HeadPattern::previous, 0)}, in),
                    Contains("head 0 (previous): k must be a whole number from 1"));
  CHECK_THROWS_WITH(layer.set_head_patterns({spec(0, attn::HeadPattern::same_word)}, {}),
                    Contains("constructed heads need the tokens of the inputs"));
  CHECK_THROWS_WITH(layer.set_head_patterns({spec(0, attn::HeadPattern::custom)}, in), Contains("custom is not a pattern to set"));
  CHECK_THROWS_WITH(layer.set_head_patterns({spec(0, attn::HeadPattern::previous)}, {{kSentence, {"a"}}, {}, 7}),
                    Contains("batch item 1 has 1 tokens, item 0 has 10"));
  CHECK_THROWS_WITH(layer.set_head_patterns({spec(0, attn::HeadPattern::previous)}, {{kSentence}, {kFrench, kFrench}, 7}),
                    Contains("key_words has 2 batch items, query_words 1"));
  CHECK(layer.weights().wq == before.wq);
  CHECK(layer.head_patterns()[0].pattern == attn::HeadPattern::random);
  // d_k = 1 holds no (sin, cos) pair.
  attn::MultiHeadAttention thin(layer_config(4, 4, 4));
  CHECK_THROWS_WITH(thin.set_head_patterns({spec(0, attn::HeadPattern::first_token)}, in),
                    Contains("head 0 (first_token) needs d_k ≥ 2 and d_model ≥ 2"));
  // Too many words and positions to solve for; too much work for one call.
  std::vector<std::string> many;
  for (int i = 0; i < 600; ++i) many.push_back("w" + std::to_string(i));
  CHECK_THROWS_WITH(layer.set_head_patterns({spec(0, attn::HeadPattern::previous)}, {{many}, {}, 7}),
                    Contains("the query tokens have 600 distinct words and 600 positions, too many to solve for here "
                             "(words + positions 1,200, at most 1,024)"));
  attn::MhaConfig wide = layer_config(1024, 4, 4);
  attn::MultiHeadAttention big(wide);
  many.resize(500);
  CHECK_THROWS_WITH(big.set_head_patterns({spec(0, attn::HeadPattern::previous)}, {{many}, {}, 7}),
                    Contains("constructed heads: solving for these inputs takes about") && Contains("multiply-adds"));
}

TEST_CASE("random_normal: the page's random inputs, the numbers its JavaScript generator gave", "[heads][inputs]") {
  // Printed by the page's former JavaScript randomNormal(seed, count) (web/src/model/inputs.js,
  // now deleted: the page asks the engine), so a link made before keeps its inputs.
  const std::vector<float> seven = attn::random_normal(7, 5);
  const std::vector<float> want7 = {-1.43342400f, 2.45445919f, 1.07078469f, 1.09131765f, 0.209967926f};
  CHECK(seven == want7);
  // 2·(2^32 − 1) + 1: the high bits of a seed above 2^32 move its stream too.
  const std::vector<float> high = attn::random_normal(2ull * 4294967295ull + 1, 4);
  CHECK(high == std::vector<float>{0.507186055f, 0.427551329f, -1.52277362f, -0.151799127f});
  CHECK(attn::random_normal(0, 3) == std::vector<float>{0.741765380f, 0.582144797f, 1.30486965f});
  CHECK(attn::random_normal(7, 0).empty());
  CHECK_THROWS_WITH(attn::random_normal(1, (1u << 26) + 1), Catch::Contains("too many"));
}


TEST_CASE("a previous-token head's pairs and kernel margin match a direct computation, over long offset spans", "[heads]") {
  // The margin is 1 − max over the offsets 1..span (span: the query and key positions, plus k) of
  // Σ_f a_f·cos(ω_f·Δ), with a_f = ω_f / Σ ω over the head's pairs; the head takes the pair count from 1 to
  // d_k/2 with the largest margin (the first of equal ones). Recomputed here directly, offset by offset,
  // for spans of one block of offsets and of several (head_patterns.cpp takes them 64 at a time).
  for (const int k : {1, 3, 60, 200, 1000}) {
    attn::MultiHeadAttention layer(layer_config(64, 4, 4));
    const attn::PatternInputs in{{kSentence}, {}, kInputSeed};
    const auto info = layer.set_head_patterns({spec(0, attn::HeadPattern::previous, k)}, in);
    const int n = static_cast<int>(kSentence.size()), span = 2 * n + k, cap = 8;  // d_k 16: 8 pairs at most
    const auto margin_of = [&](int pairs) {
      double total = 0.0;
      for (int f = 0; f < pairs; ++f) total += std::pow(10000.0, -2.0 * f / 64);
      double worst = -1.0;
      for (int delta = 1; delta <= span; ++delta) {
        double kappa = 0.0;
        for (int f = 0; f < pairs; ++f) {
          const double w = std::pow(10000.0, -2.0 * f / 64);
          kappa += w / total * std::cos(w * delta);
        }
        worst = std::max(worst, kappa);
      }
      return 1.0 - worst;
    };
    int best = 1;
    double best_margin = -1.0;
    for (int pairs = 1; pairs <= cap; ++pairs)
      if (margin_of(pairs) > best_margin + 1e-12) best = pairs, best_margin = margin_of(pairs);
    INFO("k = " << k << ": " << info[0].pairs << " pairs, margin " << info[0].kernel_margin << "; directly " << best
                << " pairs, margin " << best_margin);
    REQUIRE(info.size() == 4);  // the other three heads keep their random weights
    CHECK(info[0].pairs == best);
    CHECK(info[0].kernel_margin == best_margin);
  }
}

}  // namespace test_heads
