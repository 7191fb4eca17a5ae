// The API's stand-alone matmul: every check first, then the dispatched gemm kernel.
#include "matmul.h"

#include "count.h"
#include "error.h"
#include "kernels.h"

namespace attn {

void validate_matmul(int m, int k, int n) {
  require_positive("m", m);
  require_positive("k", k);
  require_positive("n", n);
  // A, B and C in float32, before anything is allocated (m·n alone can pass a 32-bit size_t).
  const Count bytes = Count(4) * (Count(m) * k + Count(k) * n + Count(m) * n);
  require_within_budget("this matmul", bytes.value(), kDefaultMemoryBudget);
  require_within_work("matmul: m·k·n", {static_cast<std::uint64_t>(m), static_cast<std::uint64_t>(k),
                      static_cast<std::uint64_t>(n)}, kMatmulMacs);
}

std::vector<float> matmul(const float* a, std::size_t a_len, const float* b, std::size_t b_len, int m, int k, int n) {
  validate_matmul(m, k, n);
  require_length("a", a_len, (Count(m) * k).value(), "m×k = " + std::to_string(m) + "×" + std::to_string(k));
  require_length("b", b_len, (Count(k) * n).value(), "k×n = " + std::to_string(k) + "×" + std::to_string(n));
  std::vector<float> c((Count(m) * n).size());
  kern::gemm(m, n, k, a, k, b, n, false, c.data(), n, 1.0f, nullptr, false);
  return c;
}

}  // namespace attn
