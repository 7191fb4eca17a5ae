// Errors the core reports: one exception type whose message names the problem in the
// lesson's vocabulary, and small helpers that build such messages.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace attn {

/// Thrown for every bad input; what() is a sentence a learner can read.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// "1,048,576": counts are written with thousands separators, as the lesson writes them.
std::string group_digits(std::uint64_t value);
/// "1.00 GiB", "16.8 MB": a human size next to an exact byte count.
std::string human_bytes(double bytes);

/// Throws Error(message) when ok is false.
inline void require(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}
/// A size that must be a positive whole number: "d_model must be a positive integer (got 0)".
void require_positive(const char* name, std::int64_t value);

}  // namespace attn

namespace attn {
/// Throws when data holds a NaN or an infinity: "query contains NaN at index 37 (row 0, column 37)".
/// row_length gives the width used to turn the flat index into a row and a column.
void require_finite(const char* name, const float* data, std::size_t count, std::size_t row_length);
/// Index of the first NaN or ±Inf among data[0..count), or count when every value is finite.
std::size_t first_non_finite(const float* data, std::size_t count);
/// Throws when a buffer does not have the length its dims call for (`want` in 64 bits, from Count:
/// never truncated to a 32-bit size_t).
void require_length(const char* name, std::uint64_t got, std::uint64_t want, const std::string& dims);

/// Default memory budget for one forward call: 1 GiB, well inside a 32-bit wasm heap.
constexpr std::uint64_t kDefaultMemoryBudget = 1ull << 30;
/// Throws before anything is allocated when `needed` exceeds `budget`.
void require_within_budget(const char* what, std::uint64_t needed, std::uint64_t budget);
}  // namespace attn
