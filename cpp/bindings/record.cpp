// Parsing and reading the record of one binding call (see record.h).
#include "record.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "call.h"

namespace bind {

Record::Record(const char* binding, double address) : binding_(binding) {
  const Input<std::uint8_t> in = current_call().input<std::uint8_t>(address);
  if (in.data == nullptr) fail("internal error: no options record");
  const std::uint8_t* p = in.data;
  const std::uint8_t* const end = in.data + in.count;
  auto bad = [&]() { fail("internal error: the options record is malformed"); };
  while (p < end) {
    std::string name;
    while (p < end && *p != 0) name += static_cast<char>(*p++);
    if (p == end || name.empty()) bad();
    ++p;  // the 0 byte
    if (p == end) bad();
    const std::uint8_t kind = *p++;
    Field f{name, Field::Null, 0.0, false};
    if (kind == 'n' || kind == 'b') {
      if (end - p < 8) bad();
      std::memcpy(&f.value, p, 8);  // wasm and JavaScript's typed arrays are little-endian
      p += 8;
      f.kind = kind == 'n' ? Field::Number : Field::Bool;
    } else if (kind != 'z') {
      bad();
    }
    if (find(name.c_str())) fail("internal error: the options record has " + name + " twice");
    fields_.push_back(f);
  }
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
