// The small dense solve behind the constructed heads, in double: the weights W that send given
// input rows to given targets, Z·W ≈ T, with the smallest norm.
#pragma once
#include <vector>

namespace attn {

/// W (d×c, row-major) = Zᵀ·(Z·Zᵀ + λI)⁻¹·T for Z m×d and T m×c, row-major, with
/// λ = 1e-10 × the mean of diag(Z·Zᵀ) (0 when Z is 0). When the m rows of Z are linearly
/// independent (m ≤ d) this is the minimum-norm exact solution Z·W = T up to rounding;
/// otherwise the least-squares fit. Cholesky factorisation of the m×m Gram matrix.
std::vector<double> min_norm_solve(const std::vector<double>& Z, int m, int d, const std::vector<double>& T, int c);

}  // namespace attn
