// The matmul the API exposes on its own (C = A·B with this build's kernel), with the checks every
// core call makes: sizes, lengths, memory and work budgets, all counted in 64 bits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn {

/// Multiply-adds one matmul call may do (m·k·n): about 2 s in the baseline wasm module, which ran
/// 4.4 G multiply-adds/s on the development machine (1024³ through the JS API, CPU time; the SIMD
/// module 5.2 G). Within the memory budget alone, m = k = n = 9,459 would take over three minutes.
constexpr std::uint64_t kMatmulMacs = 8'000'000'000;

/// Checks m, k, n (positive), the memory of A, B and C against the default budget and m·k·n
/// against kMatmulMacs, before anything is allocated. matmul() runs it first; a binding can run
/// it before copying its arrays in.
void validate_matmul(int m, int k, int n);

/// C (m×n) = A (m×k)·B (k×n), all row-major; a and b must hold exactly m·k and k·n values.
std::vector<float> matmul(const float* a, std::size_t a_len, const float* b, std::size_t b_len, int m, int k, int n);

}  // namespace attn
