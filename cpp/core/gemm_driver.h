// The loop nest shared by the blocked matmuls (scalar and SIMD): rows of A in blocks of MC
// packed once, each B panel swept over them, one register tile of MR×NR at a time. Only the
// packing of A and the register tile differ between builds; they come in as functions.
#pragma once
#include <algorithm>
#include <cstddef>

#include "buffer.h"
#include "count.h"
#include "kernels.h"

namespace attn {

/// C = alpha · A · B [+ bias] [+ C] with B already packed in NR-wide panels.
/// pack_a(rows, K, A, lda, out) interleaves MR rows by k; micro(K, ap, bp, C, ldc, rows, cols,
/// alpha, bias, accumulate) computes one tile of at most MR×NR. Pass them as lambdas, not function
/// pointers: a pointer reaches V8 as an indirect call and the baseline build lost 15% to it.
template <int MR, int NR, int MC, class PackA, class Micro>
void blocked_gemm(int M, const float* A, int lda, const PackedB& B, float* C, int ldc, float alpha, const float* bias,
                  bool accumulate, FloatBuffer& a_block, PackA pack_a, Micro micro) {
  const int K = B.K, N = B.N;
  const int panels = N / NR + (N % NR != 0);
  // Only as many rows as one block of this call needs (a single query row must not reserve 64).
  const int block_rows = (std::min(M, MC) + MR - 1) / MR * MR;
  a_block.resize((Count(block_rows) * K).size());
  for (int i0 = 0; i0 < M; i0 += MC) {
    const int i1 = std::min(M, i0 + MC);
    pack_a(i1 - i0, K, A + static_cast<std::size_t>(i0) * lda, lda, a_block.data());
    for (int p = 0; p < panels; ++p) {
      const int j0 = p * NR, cols = std::min(NR, N - j0);
      const float* bp = B.panels.data() + static_cast<std::size_t>(p) * K * NR;
      for (int i = i0; i < i1; i += MR) {
        const float* ap = a_block.data() + static_cast<std::size_t>(i - i0) * K;
        micro(K, ap, bp, C + static_cast<std::size_t>(i) * ldc + j0, ldc, std::min(MR, i1 - i), cols, alpha,
              bias ? bias + j0 : nullptr, accumulate);
      }
    }
  }
}

}  // namespace attn
