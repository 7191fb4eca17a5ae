// Minimum-norm solve through the Gram matrix: m (words plus positions) is small next to the
// weights it produces, so the m×m system is the cheap side.
#include "least_squares.h"

#include <cmath>
#include <cstddef>

#include "error.h"

namespace attn {

std::vector<double> min_norm_solve(const std::vector<double>& Z, int m, int d, const std::vector<double>& T, int c) {
  require(m > 0 && d > 0 && c >= 0, "min_norm_solve: sizes must be positive");
  require(Z.size() == static_cast<std::size_t>(m) * d && T.size() == static_cast<std::size_t>(m) * c,
          "min_norm_solve: Z must be m×d and T m×c");
  const std::size_t M = m, D = d, C = c;
  // Gram matrix G = Z·Zᵀ (lower triangle), then the ridge.
  std::vector<double> G(M * M, 0.0);
  double trace = 0.0;
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      double s = 0.0;
      for (std::size_t t = 0; t < D; ++t) s += Z[i * D + t] * Z[j * D + t];
      G[i * M + j] = s;
      if (i == j) trace += s;
    }
  const double ridge = 1e-10 * trace / static_cast<double>(M);
  for (std::size_t i = 0; i < M; ++i) G[i * M + i] += ridge > 0 ? ridge : 1e-300;
  // Cholesky G = L·Lᵀ in place (lower triangle).
  for (std::size_t j = 0; j < M; ++j) {
    double diag = G[j * M + j];
    for (std::size_t t = 0; t < j; ++t) diag -= G[j * M + t] * G[j * M + t];
    // The ridge keeps the pivot positive; rounding could still leave a tiny one.
    const double l = std::sqrt(diag > 0 ? diag : ridge > 0 ? ridge : 1e-300);
    G[j * M + j] = l;
    for (std::size_t i = j + 1; i < M; ++i) {
      double s = G[i * M + j];
      for (std::size_t t = 0; t < j; ++t) s -= G[i * M + t] * G[j * M + t];
      G[i * M + j] = s / l;
    }
  }
  // Y = G⁻¹·T by forward then backward substitution, every column of T at once.
  std::vector<double> Y = T;
  for (std::size_t i = 0; i < M; ++i) {
    for (std::size_t t = 0; t < i; ++t)
      for (std::size_t k = 0; k < C; ++k) Y[i * C + k] -= G[i * M + t] * Y[t * C + k];
    for (std::size_t k = 0; k < C; ++k) Y[i * C + k] /= G[i * M + i];
  }
  for (std::size_t i = M; i-- > 0;) {
    for (std::size_t t = i + 1; t < M; ++t)
      for (std::size_t k = 0; k < C; ++k) Y[i * C + k] -= G[t * M + i] * Y[t * C + k];
    for (std::size_t k = 0; k < C; ++k) Y[i * C + k] /= G[i * M + i];
  }
  // W = Zᵀ·Y.
  std::vector<double> W(D * C, 0.0);
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t t = 0; t < D; ++t) {
      const double z = Z[i * D + t];
      if (z == 0.0) continue;
      for (std::size_t k = 0; k < C; ++k) W[t * C + k] += z * Y[i * C + k];
    }
  return W;
}

}  // namespace attn
