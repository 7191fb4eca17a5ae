// Counts of elements, bytes and operations computed from sizes. Every product or sum of sizes
// that is used (a buffer length, a memory or work budget, an allocation) goes through Count, so
// it can never wrap around 2^64 (or a 32-bit size_t in wasm) and pass a check by accident: an
// overflow throws an attn::Error that says so. Also the work budget of the calls that are not
// bounded by memory (statistics, tables, matmul).
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

namespace attn {

/// A non-negative count in 64 bits whose + and × throw instead of wrapping.
class Count {
 public:
  Count() = default;
  /// Any integer; a negative one throws (sizes are validated as positive before they are counted).
  template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  Count(T value) : value_(static_cast<std::uint64_t>(value)) {  // NOLINT: implicit on purpose
    if constexpr (std::is_signed_v<T>)
      if (value < 0) negative(static_cast<std::int64_t>(value));
  }

  std::uint64_t value() const { return value_; }
  /// As a size_t for an allocation or a length: throws when it does not fit (32 bits in wasm).
  std::size_t size() const;
  /// As an int64 for the analysis' signed counts: throws past 2^63 − 1.
  std::int64_t signed_value() const;

  friend Count operator*(Count a, Count b) {
    std::uint64_t r;
    if (__builtin_mul_overflow(a.value_, b.value_, &r)) overflow("×", a.value_, b.value_);
    return Count(r);
  }
  friend Count operator+(Count a, Count b) {
    std::uint64_t r;
    if (__builtin_add_overflow(a.value_, b.value_, &r)) overflow("+", a.value_, b.value_);
    return Count(r);
  }
  Count& operator*=(Count b) { return *this = *this * b; }
  Count& operator+=(Count b) { return *this = *this + b; }

 private:
  [[noreturn]] static void overflow(const char* op, std::uint64_t a, std::uint64_t b);
  [[noreturn]] static void negative(std::int64_t value);
  std::uint64_t value_ = 0;
};

/// Work one call may do is bounded up front, like memory: a call that would run for minutes is
/// refused before it starts. `what` names the count, e.g. "√d_k statistics: d_k·n_k·samples";
/// `factors` multiply to the count (without wrapping: a product past 2^64 is simply too large);
/// `limit` is the largest count that stays within a few seconds (each call documents its rate).
/// Message: "<what> must be at most <limit> to finish within a few seconds (got <count>)".
void require_within_work(const std::string& what, std::initializer_list<std::uint64_t> factors,
                         std::uint64_t limit);

}  // namespace attn
