// The two parts of a token as the page makes it, a word embedding plus a positional encoding,
// and the solve that reads them apart: weights W that send each word of a side's vocabulary
// and each of its positions to a target of their own (least_squares.h). The constructed heads
// (head_patterns.h) set those targets.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attn {

/// Largest words + positions of one side, and most multiply-adds of one construction: the
/// Gram matrix, its factorisation and the fit check stay well under a second in wasm.
constexpr int kMaxSideRows = 1024;
constexpr double kMaxSolveWork = 1073741824.0;  // 2^30

/// One side of the attention (the queries' tokens or the keys'): its rows are made of V
/// distinct words and n positions, the rows of Z (words first, then positions), in double.
struct TokenSide {
  int n = 0;
  std::vector<std::string> vocab;
  std::vector<int> word_of;     // vocabulary index of token b·n + i
  std::vector<double> Z;        // (V + n) × d_model
  std::vector<float> x;         // the tokens as the layer sees them, [batch·n, d_model]
  int rows() const { return static_cast<int>(vocab.size()) + n; }
};

/// The side of `words` ([batch][n], equal lengths), embedded with `seed`. `which` names it in
/// errors ("query", "key"); more than kMaxSideRows words + positions is refused.
TokenSide make_side(const char* which, const std::vector<std::vector<std::string>>& words, int d_model, std::uint64_t seed);

/// Multiply-adds of solving a side for `cols` columns and checking the fit on its tokens.
double solve_work(const TokenSide& s, int d_model, int cols);

/// SideTargets of `cols` columns for a side: a row per word, then a row per position. A token's
/// target is its word's row plus its position's row.
struct SideTargets {
  int cols;
  std::vector<double> t;  // side.rows() × cols
  double* word(int v) { return t.data() + static_cast<std::size_t>(v) * cols; }
  double* position(const TokenSide& s, int i) { return t.data() + (s.vocab.size() + static_cast<std::size_t>(i)) * cols; }
};

/// W for a side, rounded to float as the layer stores it, and the worst error of x·W against
/// the targets over the real tokens, per column block of `block` columns (relative to the
/// block's largest target).
struct SideSolution {
  std::vector<float> w;  // d_model × cols
  std::vector<double> block_error;
};
SideSolution solve_side(const TokenSide& s, SideTargets& targets, int d_model, int block);

}  // namespace attn
