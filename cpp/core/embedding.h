// Token inputs as the page makes them: each word a seeded N(0, 1) embedding (FNV-1a of the word,
// a 32-bit mixing generator, Box–Muller), plus the sinusoidal positional encoding of its
// position; and the page's random inputs from the same generator. The page has no copy of these
// rules: it asks the engine (embedTokens, randomNormal). The constructed heads are built against
// exactly these inputs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attn {

/// 32-bit FNV-1a over the word's Unicode code points (UTF-8 decoded), as the page hashes a word.
std::uint32_t word_hash(const std::string& word);

/// The embedding of a word: d_model N(0, 1) values seeded by (word, seed). Words are used as
/// given: the page lower-cases them first, so "The" and "the" are one word there.
std::vector<float> word_embedding(const std::string& word, int d_model, std::uint64_t seed);

/// [batch, n, d_model]: word embedding + positional encoding, words[b] holding the n tokens of
/// batch item b (the page fills short sentences with "<pad>"); every item must have n tokens.
std::vector<float> embed_tokens(const std::vector<std::vector<std::string>>& words, int d_model, std::uint64_t seed);

/// `count` N(0, 1) values of the page's seeded stream (its random inputs): the word embeddings'
/// generator and Box–Muller, seeded by all of `seed` (seeds up to 2^53 give different streams).
std::vector<float> random_normal(std::uint64_t seed, std::size_t count);

}  // namespace attn
