// Word embeddings, token inputs and the page's random inputs (every step is 32-bit integer
// arithmetic or a double rounded once to float, so the numbers are the same natively and in wasm).
#include "embedding.h"

#include <cmath>

#include "analysis.h"
#include "error.h"

namespace attn {
namespace {

// The page's uniform stream for a seed: a counter stepped by
// 0x6d2b79f5 and mixed, giving 32 random bits per draw.
class PageUniform {
 public:
  explicit PageUniform(std::uint32_t seed) : state_(seed ^ 0x9e3779b9u) {}
  /// A seed above 2^32 also moves the start by its high bits, so that every seed has its own stream.
  explicit PageUniform(std::uint64_t seed)
      : state_((static_cast<std::uint32_t>(seed) ^ 0x9e3779b9u) + static_cast<std::uint32_t>(seed >> 32) * 0x85ebca6bu) {}
  double next() {
    state_ += 0x6d2b79f5u;
    std::uint32_t z = state_;
    z = (z ^ (z >> 15)) * (z | 1u);
    z ^= z + (z ^ (z >> 7)) * (z | 61u);
    return static_cast<double>(z ^ (z >> 14)) / 4294967296.0;
  }

 private:
  std::uint32_t state_;
};

// Box–Muller, both values of each pair used: e[i] = r·cos t, e[i + 1] = r·sin t.
void fill_normal(std::vector<float>& e, PageUniform& uniform) {
  const double two_pi = 2.0 * 3.141592653589793;
  for (std::size_t i = 0; i < e.size(); i += 2) {
    const double u1 = 1.0 - uniform.next();  // in (0, 1]: the logarithm stays finite
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double t = two_pi * uniform.next();
    e[i] = static_cast<float>(r * std::cos(t));
    if (i + 1 < e.size()) e[i + 1] = static_cast<float>(r * std::sin(t));
  }
}

// Decodes one UTF-8 sequence at s[i], advancing i; throws on a malformed one.
std::uint32_t next_code_point(const std::string& s, std::size_t& i) {
  const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(s[at]); };
  const unsigned char lead = byte(i);
  const int extra = lead < 0x80 ? 0 : (lead >> 5) == 0x6 ? 1 : (lead >> 4) == 0xE ? 2 : (lead >> 3) == 0x1E ? 3 : -1;
  require(extra >= 0 && i + extra < s.size(), "the word “" + s + "” is not valid UTF-8");
  std::uint32_t cp = extra == 0 ? lead : lead & (0x3Fu >> extra);
  for (int k = 1; k <= extra; ++k) {
    require((byte(i + k) & 0xC0) == 0x80, "the word “" + s + "” is not valid UTF-8");
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  i += extra + 1;
  return cp;
}

}  // namespace

std::uint32_t word_hash(const std::string& word) {
  std::uint32_t h = 0x811c9dc5u;
  for (std::size_t i = 0; i < word.size();) {
    h ^= next_code_point(word, i);
    h *= 0x01000193u;
  }
  return h;
}

std::vector<float> word_embedding(const std::string& word, int d_model, std::uint64_t seed) {
  require_positive("d_model", d_model);
  // As inputs.js: the word's hash xor the seed's low 32 bits times 0x27d4eb2d.
  PageUniform uniform(static_cast<std::uint32_t>(word_hash(word) ^ (static_cast<std::uint32_t>(seed) * 0x27d4eb2du)));
  std::vector<float> e(static_cast<std::size_t>(d_model));
  fill_normal(e, uniform);
  return e;
}

std::vector<float> embed_tokens(const std::vector<std::vector<std::string>>& words, int d_model, std::uint64_t seed) {
  require(!words.empty(), "no tokens: give at least one batch item of words");
  const int n = static_cast<int>(words[0].size());
  require_positive("n (tokens per batch item)", n);
  for (std::size_t b = 0; b < words.size(); ++b)
    require(words[b].size() == words[0].size(), "batch item " + std::to_string(b) + " has " +
                                                    std::to_string(words[b].size()) + " tokens, item 0 has " +
                                                    std::to_string(n) + ": fill short items with \"<pad>\"");
  require(static_cast<std::uint64_t>(words.size()) * n * d_model <= (1ull << 26),
          "token inputs of " + group_digits(words.size()) + "×" + group_digits(n) + "×" + group_digits(d_model) +
              " values are too many to embed (at most 67,108,864)");
  const std::vector<float> pe = positional_encoding(n, d_model);
  std::vector<float> x(words.size() * n * static_cast<std::size_t>(d_model));
  for (std::size_t b = 0; b < words.size(); ++b)
    for (int pos = 0; pos < n; ++pos) {
      const std::vector<float> e = word_embedding(words[b][pos], d_model, seed);
      float* row = x.data() + (b * n + pos) * static_cast<std::size_t>(d_model);
      for (int c = 0; c < d_model; ++c) row[c] = e[c] + pe[static_cast<std::size_t>(pos) * d_model + c];
    }
  return x;
}

std::vector<float> random_normal(std::uint64_t seed, std::size_t count) {
  require(count <= (1u << 26), "random inputs of " + group_digits(count) + " values are too many (at most 67,108,864)");
  PageUniform uniform(seed);
  std::vector<float> x(count);
  fill_normal(x, uniform);
  return x;
}

}  // namespace attn
