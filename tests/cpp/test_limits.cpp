// Sizes whose products wrap around 64 bits (or a 32-bit size_t) must be refused, not matched
// against an empty buffer (issue 9, item 4); calls whose work would run for minutes or hours are
// refused up front with their limit in the message (item 5); the kernels check their arguments.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/attention.h"
#include "core/count.h"
#include "core/dims.h"
#include "core/error.h"
#include "core/kernels.h"
#include "core/matmul.h"
#include "core/mha.h"
#include "check.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_limits {

namespace {

attn::AttentionResult sdpa(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                           int batch, int n_q, int n_k, int d_k, int d_v, const attn::AttentionOptions& opt = {}) {
  return attn::scaled_dot_product_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), batch, n_q, n_k,
                                            d_k, d_v, opt, false, attn::kDefaultMemoryBudget);
}

}  // namespace

TEST_CASE("plain attention refuses sizes whose products wrap 2^64 instead of crashing", "[limits][item4]") {
  // The repro: batch 2^24, n 2^30, d_k 2^19: batch·n·d_k = 2^73 ≡ 0 (mod 2^64) matched
  // empty buffers, the budget's sum wrapped as well, and the run read far out of bounds.
  const std::vector<float> none;
  CHECK_THROWS_AS(sdpa(none, none, none, 1 << 24, 1 << 30, 1 << 30, 1 << 19, 1), attn::Error);
  CHECK_THROWS_WITH(sdpa(none, none, none, 1 << 24, 1 << 30, 1 << 30, 1 << 19, 1),
                    Catch::Contains("batch (16,777,216) is larger than the 1,048,576 this engine accepts"));
  // Every size is held to the same limit as a layer's.
  const std::vector<float> one(1, 0.5f);
  CHECK_THROWS_WITH(sdpa(one, one, one, 1, 1, 1, (1 << 20) + 1, 1), Catch::Contains("d_k (1,048,577) is larger than"));
  CHECK_THROWS_WITH(sdpa(one, one, one, 1, 1, 1, 1, 1 << 21), Catch::Contains("d_v (2,097,152) is larger than"));
  CHECK_THROWS_WITH(sdpa(one, one, one, 1, (1 << 20) + 1, 1, 1, 1), Catch::Contains("n_q (1,048,577) is larger than"));
}

TEST_CASE("a mask matrix is checked against n_q·n_k in 64 bits", "[limits][item4]") {
  // 65,537 × 65,536 = 2^32 + 65,536: in a 32-bit size_t (wasm) that wrapped to 65,536, so a
  // 65,536-entry matrix passed and the mask was read 4 GB past its end. Streaming (no weights)
  // keeps the rest of this problem small: d_k = d_v = 1.
  const int n_q = 65537, n_k = 65536;
  const std::vector<float> q(n_q, 0.5f), kv(n_k, 0.5f);
  attn::AttentionOptions opt;
  opt.mask.matrix.assign(static_cast<std::uint32_t>(static_cast<std::uint64_t>(n_q) * n_k), 0);
  CHECK_THROWS_WITH(sdpa(q, kv, kv, 1, n_q, n_k, 1, 1, opt),
                    Catch::Contains("mask matrix has 65,536 entries but n_q×n_k = 65537×65536 = 4,295,032,832"));
}

TEST_CASE("Count multiplies and adds in 64 bits and throws instead of wrapping", "[limits][item4]") {
  CHECK((attn::Count(1 << 24) * (1 << 30) * (1 << 9)).value() == (std::uint64_t{1} << 63));
  CHECK_THROWS_WITH(attn::Count(1 << 24) * (1 << 30) * (1 << 19),
                    Catch::Contains("does not fit in 64 bits") && Catch::Contains("18,014,398,509,481,984 × 524,288"));
  CHECK_THROWS_WITH(attn::Count(std::numeric_limits<std::uint64_t>::max()) + 1, Catch::Contains("does not fit in 64 bits"));
  CHECK_THROWS_WITH(attn::Count(-3), Catch::Contains("must not be negative (got -3)"));
  CHECK_THROWS_WITH((attn::Count(std::uint64_t{1} << 63)).signed_value(), Catch::Contains("signed 64-bit"));
  if (sizeof(std::size_t) == 4)  // wasm: 2^32 elements cannot be addressed
    CHECK_THROWS_WITH((attn::Count(1 << 16) * (1 << 16)).size(), Catch::Contains("32-bit addresses"));
  else
    CHECK((attn::Count(1 << 16) * (1 << 16)).size() == (std::size_t{1} << 32));
}

TEST_CASE("the analysis refuses sizes whose counts would overflow, whichever function is called first", "[limits][item4]") {
  const attn::MhaDims d = attn::resolve_dims(check::mha_config(1024, 16));
  const int big = 1 << 30;
  // Each used to multiply int64 sizes without a guard when called on its own.
  CHECK_THROWS_WITH(attn::flop_counts(d, big, big, big, true), Catch::Contains("at most 1,048,576"));
  CHECK_THROWS_WITH(attn::tensor_trace(d, big, big, big, true), Catch::Contains("at most 1,048,576"));
  CHECK_THROWS_WITH(attn::run_memory(d, big, big, big, true, false), Catch::Contains("at most 1,048,576"));
  CHECK_THROWS_WITH(attn::flop_counts(d, 1 << 20, 1 << 20, 1 << 20, true), Catch::Contains("too large to count exactly"));
  // 4·h·batch·n_q·n_k for int sizes: 2^2·2^30·2^30·2^30·2^30 passes 2^64.
  CHECK_THROWS_WITH(attn::attention_weight_bytes(big, big, big, big), Catch::Contains("does not fit in 64 bits"));
  CHECK(attn::attention_weight_bytes(8, 32, 128, 128) == 16777216u);  // the lesson's P4
}

TEST_CASE("the kernels check sizes and strides at entry", "[limits][item4][kernels]") {
  std::vector<float> a(16, 1.0f), b(16, 1.0f), c(16, 0.0f);
  attn::PackedB packed;
  CHECK_THROWS_WITH(attn::kern::gemm(-1, 2, 2, a.data(), 2, b.data(), 2, false, c.data(), 2, 1.0f, nullptr, false),
                    Catch::Contains("sizes must not be negative (got M -1"));
  CHECK_THROWS_WITH(attn::ref::gemm(2, 2, 3, a.data(), 2, b.data(), 2, false, c.data(), 2, 1.0f, nullptr, false),
                    Catch::Contains("a row stride is shorter than its row (lda 2 for K 3"));
  CHECK_THROWS_WITH(attn::kern::gemm(2, 3, 2, a.data(), 2, b.data(), 3, false, c.data(), 2, 1.0f, nullptr, false),
                    Catch::Contains("ldc 2 for N 3"));
  CHECK_THROWS_WITH(attn::kern::pack_b(3, 2, b.data(), 2, true, packed), Catch::Contains("ldb 2 for 3"));
  CHECK_THROWS_WITH(attn::kern::pack_b(2, -8, b.data(), 2, false, packed), Catch::Contains("must not be negative"));
  attn::kern::pack_b(2, 2, b.data(), 2, false, packed);
  CHECK_THROWS_WITH(attn::kern::gemm_packed(2, a.data(), 1, packed, c.data(), 2, 1.0f, nullptr, false),
                    Catch::Contains("lda 1 for K 2"));
  // Valid calls still run: 2×2 of ones times 2×2 of ones.
  attn::kern::gemm_packed(2, a.data(), 2, packed, c.data(), 2, 1.0f, nullptr, false);
  CHECK(c[0] == 2.0f);
  CHECK(c[3] == 2.0f);
}

TEST_CASE("√d_k statistics refuse work past their limit, with the limit, even when the product wraps", "[limits][item5]") {
  // d_k = n_k = 2^21, samples = 2^22 (the call): the product is 2^64, which wrapped to 0
  // and ran for hours. Each size is now held to 2^20 first; within those, the product still wraps.
  CHECK_THROWS_WITH(attn::sqrt_dk_stats(1 << 21, 1 << 21, 1 << 22, 1),
                    Catch::Contains("d_k and n_k must each be at most 1,048,576"));
  CHECK_THROWS_WITH(attn::sqrt_dk_stats(1 << 20, 1 << 20, 1 << 24, 1),
                    Catch::Contains("√d_k statistics: d_k·n_k·samples must be at most " +
                                    attn::group_digits(attn::kSqrtDkDraws)) &&
                        Catch::Contains("(got more than 18,446,744,073,709,551,615)"));
  CHECK_THROWS_WITH(attn::sqrt_dk_stats(1000, 1000, 1000, 1), Catch::Contains("(got 1,000,000,000)"));
  CHECK_NOTHROW(attn::sqrt_dk_stats(16, 64, 20, 1));
  // The shared check: the limit itself passes, one more does not.
  const std::uint64_t limit = attn::kSqrtDkDraws;
  CHECK_NOTHROW(attn::require_within_work("w", {limit}, limit));
  CHECK_NOTHROW(attn::require_within_work("w", {limit / 2, 2}, limit));
  CHECK_THROWS_WITH(attn::require_within_work("w", {limit + 1}, limit), Catch::Contains("w must be at most"));
}

TEST_CASE("positional properties refuse an O(n²·d_model) table past the work limit", "[limits][item5]") {
  // n = 4,096 and d_model = 16,384: 4096·4095/2·16384 = 1.4e11 steps, hours in wasm.
  CHECK_THROWS_WITH(attn::positional_properties(4096, 16384, 1),
                    Catch::Contains("positional properties: n·(n − 1)/2·d_model must be at most " +
                                    attn::group_digits(attn::kPositionalPairSteps)) &&
                        Catch::Contains("(got 137,405,399,040)"));
  // The page's largest table (64 positions, d_model 16,384) stays well inside.
  CHECK(std::uint64_t{64} * 63 / 2 * 16384 <= attn::kPositionalPairSteps);
  CHECK_NOTHROW(attn::positional_properties(64, 512, 3));
  // The encoding table itself is bounded by its value count.
  CHECK_THROWS_WITH(attn::positional_encoding(1 << 20, 1 << 20), Catch::Contains("too large to tabulate"));
}

TEST_CASE("matmul checks sizes, lengths, memory and work before computing", "[limits][item5]") {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, 0, 1, 1, 1};  // 2×3 and 3×2
  const std::vector<float> c = attn::matmul(a.data(), a.size(), b.data(), b.size(), 2, 3, 2);
  CHECK(c == std::vector<float>{4, 5, 10, 11});
  CHECK_THROWS_WITH(attn::matmul(a.data(), a.size(), b.data(), 5, 2, 3, 2), Catch::Contains("b has 5 values but k×n = 3×2 needs 6"));
  CHECK_THROWS_WITH(attn::validate_matmul(0, 3, 2), Catch::Contains("m must be a positive integer (got 0)"));
  CHECK_THROWS_WITH(attn::validate_matmul(65536, 1, 65537),
                    Catch::Contains("this matmul needs 17,180,655,620 bytes") && Catch::Contains("over the memory budget"));
  // Within the memory budget (582 MB) but not the work budget: 12,000 × 64 × 12,000 = 9.2e9 multiply-adds.
  const std::uint64_t macs = std::uint64_t{12000} * 64 * 12000;
  REQUIRE(macs > attn::kMatmulMacs);
  CHECK_NOTHROW(attn::validate_matmul(8192, 64, 8192));  // 4.3e9: within both
  CHECK_THROWS_WITH(attn::validate_matmul(12000, 64, 12000),
                    Catch::Contains("matmul: m·k·n must be at most " + attn::group_digits(attn::kMatmulMacs)) &&
                        Catch::Contains("(got " + attn::group_digits(macs) + ")"));
}

TEST_CASE("resolve_dims holds d_model and n_heads to the engine's limit before looking for nearby head counts",
          "[limits][dims]") {
  // Found by the fuzzer: d_model 2^31 − 1 and n_heads ≈ 5.4·10^8 made the search for nearby head
  // counts compute 4·n_heads in int (signed overflow), and would have looped up to d_model.
  attn::MhaConfig c;
  c.d_model = 2147483647;
  c.n_heads = 544175882;
  CHECK_THROWS_WITH(attn::resolve_dims(c), Catch::Contains("d_model (2,147,483,647) is larger than the 1,048,576"));
  c.d_model = 1 << 20;
  c.n_heads = (1 << 20) + 1;
  CHECK_THROWS_WITH(attn::resolve_dims(c), Catch::Contains("n_heads (1,048,577) is larger than the 1,048,576"));
  // Within the limit, the nearest divisors are still suggested.
  c.d_model = 1 << 20;
  c.n_heads = 3;
  CHECK_THROWS_WITH(attn::resolve_dims(c), Catch::Contains("Try n_heads = 2 or 4"));
}

}  // namespace test_limits
