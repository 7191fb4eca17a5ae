// Parsing and reading the record of one binding call (see record.h).
#include "record.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "call.h"

namespace bind {
namespace {

// A cursor over the record's text.
struct Text {
  const char* p;
  const char* end;
  void space() {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) ++p;
  }
  bool take(const char* word) {
    const char* q = p;
    for (; *word; ++word, ++q)
      if (q >= end || *q != *word) return false;
    p = q;
    return true;
  }
};

}  // namespace

Record::Record(const char* binding, double address) : binding_(binding) {
  const Input<std::uint8_t> in = current_call().input<std::uint8_t>(address);
  if (in.data == nullptr) fail("internal error: no options record");
  Text t{reinterpret_cast<const char*>(in.data), reinterpret_cast<const char*>(in.data) + in.count};
  auto bad = [&]() { fail("internal error: the options record is not a flat JSON object"); };
  t.space();
  if (!t.take("{")) bad();
  t.space();
  if (t.take("}")) return;
  for (;;) {
    t.space();
    if (!t.take("\"")) bad();
    std::string name;
    // Field names are the lesson's identifiers: no escapes needed or accepted.
    while (t.p < t.end && *t.p != '"') {
      if (*t.p == '\\') bad();
      name += *t.p++;
    }
    if (!t.take("\"")) bad();
    t.space();
    if (!t.take(":")) bad();
    t.space();
    Field f{name, Field::Number, 0.0, false};
    if (t.take("true")) f = {name, Field::Bool, 1.0, false};
    else if (t.take("false")) f = {name, Field::Bool, 0.0, false};
    else if (t.take("null")) f = {name, Field::Null, 0.0, false};
    else if (t.take("NaN")) f.value = std::numeric_limits<double>::quiet_NaN();
    else if (t.take("Infinity")) f.value = INFINITY;
    else if (t.take("-Infinity")) f.value = -INFINITY;
    else {
      std::string number;
      while (t.p < t.end && (std::isdigit(static_cast<unsigned char>(*t.p)) || *t.p == '-' || *t.p == '+' ||
                             *t.p == '.' || *t.p == 'e' || *t.p == 'E'))
        number += *t.p++;
      char* stop = nullptr;
      f.value = std::strtod(number.c_str(), &stop);
      if (number.empty() || stop != number.c_str() + number.size()) bad();
    }
    if (find(name.c_str())) fail("internal error: the options record has " + name + " twice");
    fields_.push_back(f);
    t.space();
    if (t.take("}")) break;
    if (!t.take(",")) bad();
  }
  t.space();
  if (t.p != t.end) bad();
}

void Record::fail(const std::string& message) const { throw std::invalid_argument(binding_ + ": " + message); }

Record::Field* Record::find(const char* name) {
  for (Field& f : fields_)
    if (f.name == name) return &f;
  return nullptr;
}

Record::Field& Record::require(const char* name) {
  Field* f = find(name);
  if (f == nullptr || f->kind == Field::Null) fail(std::string(name) + " is required");
  f->read = true;
  return *f;
}

double Record::number(const char* name) {
  Field& f = require(name);
  if (f.kind != Field::Number) fail(std::string(name) + " must be a number, got " + (f.value ? "true" : "false"));
  return f.value;
}

int Record::integer(const char* name) {
  const double v = number(name);
  if (!(v == std::floor(v)) || v < -2147483648.0 || v > 2147483647.0)
    fail(std::string(name) + " must be a whole number within 32 bits, got " + std::to_string(v));
  return static_cast<int>(v);
}

std::optional<double> Record::optional_number(const char* name) {
  Field* f = find(name);
  if (f == nullptr) return std::nullopt;
  f->read = true;
  if (f->kind == Field::Null) return std::nullopt;
  return number(name);
}

bool Record::boolean(const char* name) {
  Field& f = require(name);
  if (f.kind != Field::Bool) fail(std::string(name) + " must be true or false, got " + std::to_string(f.value));
  return f.value != 0.0;
}

std::uint64_t Record::seed(const char* name) {
  const double v = number(name);
  if (!(v == std::floor(v)) || v < 0 || v > 9007199254740991.0)
    fail(std::string(name) + " must be a whole number from 0 to 2^53 − 1, got " + std::to_string(v));
  return static_cast<std::uint64_t>(v);
}

void Record::done() const {
  for (const Field& f : fields_)
    if (!f.read) fail("unknown option '" + f.name + "'");
}

}  // namespace bind
