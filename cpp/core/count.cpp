// The messages of Count's overflow checks and the work-budget check.
#include "count.h"

#include <limits>

#include "error.h"

namespace attn {

void Count::overflow(const char* op, std::uint64_t a, std::uint64_t b) {
  throw Error("these sizes are too large: a count of them, " + group_digits(a) + " " + op + " " + group_digits(b) +
              ", does not fit in 64 bits; reduce the sizes");
}

void Count::negative(std::int64_t value) {
  throw Error("a size must not be negative (got " + std::to_string(value) + ")");
}

std::size_t Count::size() const {
  if (value_ > std::numeric_limits<std::size_t>::max())
    throw Error("these sizes are too large: " + group_digits(value_) + " elements or bytes do not fit in this build's " +
                std::to_string(8 * sizeof(std::size_t)) + "-bit addresses; reduce the sizes");
  return static_cast<std::size_t>(value_);
}

std::int64_t Count::signed_value() const {
  if (value_ > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    throw Error("these sizes are too large: a count of them, " + group_digits(value_) +
                ", does not fit in a signed 64-bit integer; reduce the sizes");
  return static_cast<std::int64_t>(value_);
}

void require_within_work(const std::string& what, std::initializer_list<std::uint64_t> factors, std::uint64_t limit) {
  std::uint64_t count = 1;
  bool wrapped = false;
  for (const std::uint64_t f : factors) wrapped = wrapped || __builtin_mul_overflow(count, f, &count);
  if (wrapped || count > limit)
    throw Error(what + " must be at most " + group_digits(limit) + " to finish within a few seconds (got " +
                (wrapped ? "more than " + group_digits(std::numeric_limits<std::uint64_t>::max()) : group_digits(count)) +
                ")");
}

}  // namespace attn
