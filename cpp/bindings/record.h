// The options of one binding call as one record, read and checked once by name. The JS wrapper
// (web/src/engine/record.js) writes the checked options into an input of the call, field after
// field: the field's name (ASCII), a 0 byte, its kind ('n' number, 'b' true/false, 'z' null) and,
// for a number or a boolean, its value as 8 bytes of a little-endian double (NaN and ±∞ as they
// are). A binding reads each field by its name and then calls done(): an unknown field, a field
// of the wrong type or a missing one is an error naming the binding and the field, so a field
// that is misspelt or in the wrong place on either side fails loudly instead of landing in
// another parameter.
//
// Why not emscripten::val: reading a JavaScript object from C++ runs JavaScript while C++ frames
// are live, which the binding pattern (embind.cpp) forbids. Why not JSON text: reading its
// numbers needs strtod, 6.6 kB of the module gzipped; a double's bytes need nothing.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bind {

class Record {
 public:
  /// Reads the record in the call's input at `address`; `binding` names the call in messages.
  /// Throws std::invalid_argument for bytes that are not a record.
  Record(const char* binding, double address);

  /// A number (any double, NaN included): required.
  double number(const char* name);
  /// A whole number within int32: required.
  int integer(const char* name);
  /// A number, or nothing when the field is absent or null.
  std::optional<double> optional_number(const char* name);
  bool boolean(const char* name);
  /// A seed: a whole number in [0, 2^53).
  std::uint64_t seed(const char* name);
  /// The address of an input of the call (0 = none): a whole number.
  double address(const char* name) { return optional_number(name).value_or(0); }

  /// Throws when a field was never read (an unknown option for this binding).
  void done() const;

 private:
  struct Field {
    std::string name;
    enum Kind { Number, Bool, Null } kind;
    double value;
    bool read;
  };
  Field* find(const char* name);
  Field& require(const char* name);
  [[noreturn]] void fail(const std::string& message) const;

  std::string binding_;
  std::vector<Field> fields_;
};

}  // namespace bind
