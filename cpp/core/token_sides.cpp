// Reading a token's word and position apart: the sides' vocabularies and positions, the
// solve for given targets, and how well the solved weights hit them on the real tokens.
#include "token_sides.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis.h"
#include "embedding.h"
#include "error.h"
#include "least_squares.h"

namespace attn {

TokenSide make_side(const char* which, const std::vector<std::vector<std::string>>& words, int d, std::uint64_t seed) {
  TokenSide s;
  s.x = embed_tokens(words, d, seed);  // checks that every item has the same number of tokens
  s.n = static_cast<int>(words[0].size());
  std::map<std::string, int> index;
  for (const auto& item : words)
    for (const std::string& w : item) {
      const auto [it, added] = index.emplace(w, static_cast<int>(s.vocab.size()));
      if (added) s.vocab.push_back(w);
      s.word_of.push_back(it->second);
    }
  const std::uint64_t m = s.vocab.size() + s.n;
  require(m <= kMaxSideRows, std::string("constructed heads: the ") + which + " tokens have " +
                            group_digits(s.vocab.size()) + " distinct words and " + group_digits(s.n) +
                            " positions, too many to solve for here (words + positions " + group_digits(m) +
                            ", at most " + group_digits(kMaxSideRows) + "); use shorter or fewer sentences");
  s.Z.resize(m * d);
  for (std::size_t v = 0; v < s.vocab.size(); ++v) {
    const std::vector<float> e = word_embedding(s.vocab[v], d, seed);
    std::copy(e.begin(), e.end(), s.Z.begin() + static_cast<std::ptrdiff_t>(v * d));
  }
  const std::vector<float> pe = positional_encoding(s.n, d);
  std::copy(pe.begin(), pe.end(), s.Z.begin() + static_cast<std::ptrdiff_t>(s.vocab.size() * d));
  return s;
}

double solve_work(const TokenSide& s, int d, int cols) {
  const double m = s.rows(), tokens = static_cast<double>(s.word_of.size());
  return m * m * d + m * m * m / 3 + m * m * cols + m * d * cols + tokens * d * cols;
}

SideSolution solve_side(const TokenSide& s, SideTargets& T, int d, int block) {
  SideSolution out;
  const std::vector<double> w = min_norm_solve(s.Z, s.rows(), d, T.t, T.cols);
  out.w.assign(w.begin(), w.end());
  const int blocks = T.cols / block;
  std::vector<double> err(blocks, 0.0), scale(blocks, 0.0);
  const std::size_t tokens = s.word_of.size();
  std::vector<double> y(T.cols);
  for (std::size_t t = 0; t < tokens; ++t) {
    std::fill(y.begin(), y.end(), 0.0);
    const float* x = s.x.data() + t * d;
    for (int r = 0; r < d; ++r)
      for (int c = 0; c < T.cols; ++c) y[c] += static_cast<double>(x[r]) * out.w[static_cast<std::size_t>(r) * T.cols + c];
    const double* tw = T.word(s.word_of[t]);
    const double* tp = T.position(s, static_cast<int>(t % s.n));
    for (int c = 0; c < T.cols; ++c) {
      const double want = tw[c] + tp[c];
      err[c / block] = std::max(err[c / block], std::fabs(y[c] - want));
      scale[c / block] = std::max(scale[c / block], std::fabs(want));
    }
  }
  for (int b = 0; b < blocks; ++b) out.block_error.push_back(scale[b] > 0 ? err[b] / scale[b] : err[b]);
  return out;
}

}  // namespace attn
