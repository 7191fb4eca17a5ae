// Message helpers shared by every module of the core.
#include "error.h"

#include <algorithm>
#include <cstdio>

namespace attn {

std::string group_digits(std::uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  int count = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (count > 0 && count % 3 == 0) out.insert(out.begin(), ',');
    out.insert(out.begin(), *it);
    ++count;
  }
  return out;
}

std::string human_bytes(double bytes) {
  char buf[64];
  if (bytes >= 1024.0 * 1024.0 * 1024.0)
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  else if (bytes >= 1024.0 * 1024.0)
    std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024.0));
  else if (bytes >= 1024.0)
    std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  return buf;
}

void require_positive(const char* name, std::int64_t value) {
  if (value <= 0)
    throw Error(std::string(name) + " must be a positive integer (got " + std::to_string(value) + ")");
}

}  // namespace attn

namespace attn {

std::size_t first_non_finite(const float* data, std::size_t count) {
  // Blocks of 1024 values checked without a branch per value (x − x is 0 for finite x, NaN for
  // NaN and ±Inf), a loop the compiler vectorises; only a block that has one is searched again.
  constexpr std::size_t kBlock = 1024;
  for (std::size_t b = 0; b < count; b += kBlock) {
    const std::size_t e = std::min(count, b + kBlock);
    int bad = 0;
    for (std::size_t i = b; i < e; ++i) bad |= (data[i] - data[i] != 0.0f);
    if (bad)
      for (std::size_t i = b; i < e; ++i)
        if (data[i] - data[i] != 0.0f) return i;
  }
  return count;
}

void require_finite(const char* name, const float* data, std::size_t count, std::size_t row_length) {
  const std::size_t i = first_non_finite(data, count);
  if (i == count) return;
  const float x = data[i];
  const char* what = x != x ? "NaN" : (x > 0 ? "+Infinity" : "-Infinity");
  std::string where = "index " + group_digits(i);
  if (row_length > 0)
    where += " (row " + std::to_string(i / row_length) + ", column " + std::to_string(i % row_length) + ")";
  throw Error(std::string(name) + " contains " + what + " at " + where + "; every input value must be a finite number");
}

void require_length(const char* name, std::uint64_t got, std::uint64_t want, const std::string& dims) {
  if (got != want)
    throw Error(std::string(name) + " has " + group_digits(got) + " values but " + dims + " needs " +
                group_digits(want));
}

void require_within_budget(const char* what, std::uint64_t needed, std::uint64_t budget) {
  if (needed > budget)
    throw Error(std::string(what) + " needs " + group_digits(needed) + " bytes (" +
                human_bytes(static_cast<double>(needed)) + "), over the memory budget of " +
                group_digits(budget) + " bytes (" + human_bytes(static_cast<double>(budget)) + ")");
}

}  // namespace attn
