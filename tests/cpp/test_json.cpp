// The bindings' JSON writer (cpp/bindings/json.cpp) against plain references: every number as %.17g
// writes it (whole numbers take a path of their own, without printf), every string escaped byte by
// byte. JavaScript reads these texts back with JSON.parse, so one wrong digit is a wrong number.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bindings/json.h"

// This file's helpers and cases in a namespace of their own (the unity build compiles test files together).
namespace test_json {
namespace {

std::string written(double value) {
  bind::Json json;
  json.number(value);
  return json.text();
}

std::string printf_17g(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// The escaping JSON needs, one byte at a time: quote, backslash and the control bytes.
std::string escaped_by_byte(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\u%04x", byte);
      out += hex;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

TEST_CASE("JSON numbers are written as %.17g writes them, whole numbers included", "[json]") {
  std::vector<double> values = {0.0, 1.0, -1.0, 9.0, 10.0, 11.0, 0.5, -0.5, 1e-300, 5e-324, 1e300, -1e300,
                                std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                                9007199254740991.0, 9007199254740992.0, 9007199254740994.0, -9007199254740992.0,
                                99999999999999984.0, 1e17, -1e17, 1e17 + 16, 123456789012345678.0, 0.1, 1.0 / 3};
  for (double p = 1; p < 1e18; p *= 10)
    for (double d : {-2.0, -1.0, 0.0, 1.0, 2.0}) {
      values.push_back(p + d);
      values.push_back(-(p + d));
    }
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < 20000; ++i) {
    // Whole numbers of every magnitude up to 2^60, both signs, and doubles with fractions.
    const int bits = static_cast<int>(rng() % 61);
    const double whole = static_cast<double>(rng() >> (63 - bits));
    values.push_back(i % 2 ? whole : -whole);
    values.push_back(std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(rng() % 120) - 60));
  }
  int differ = 0;
  for (const double v : values) {
    const std::string got = written(v), want = printf_17g(v);
    if (got != want && ++differ <= 10) FAIL_CHECK(v << ": written " << got << ", %.17g " << want);
  }
  CHECK(differ == 0);
  CHECK(written(-0.0) == "-0");
  CHECK(written(0.0) == "0");
}

TEST_CASE("JSON numbers that are not finite are written as objects", "[json]") {
  CHECK(written(std::numeric_limits<double>::quiet_NaN()) == R"({"$number":"NaN"})");
  CHECK(written(std::numeric_limits<double>::infinity()) == R"({"$number":"Infinity"})");
  CHECK(written(-std::numeric_limits<double>::infinity()) == R"({"$number":"-Infinity"})");
}

TEST_CASE("JSON strings escape quotes, backslashes and control bytes, and pass the rest", "[json]") {
  std::string every;
  for (int b = 1; b < 256; ++b) {
    const std::string one(1, static_cast<char>(b));
    bind::Json json;
    json.string(one);
    CHECK(json.text() == escaped_by_byte(one));
    every += one;
  }
  const std::vector<std::string> texts = {"", "plain", "\"", "\\", "a\"b\\c", "\n\tq", "ends with a quote\"",
                                          "\x01start", "d_model \xc3\x97 n_heads", every, every + every};
  for (const std::string& s : texts) {
    bind::Json json;
    json.string(s);
    CHECK(json.text() == escaped_by_byte(s));
  }
  std::string with_nul("a\0b", 3);
  bind::Json json;
  json.string(with_nul);
  CHECK(json.text() == "\"a\\u0000b\"");
}

}  // namespace test_json
