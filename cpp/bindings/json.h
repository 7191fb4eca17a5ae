// A small JSON text writer. The bindings hand every structured result (dims, shapes, counts,
// masked rows, the lesson's examples) to JavaScript as JSON text, so that building it never
// calls into JavaScript (see the pattern at the top of embind.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

namespace bind {

class Json {
 public:
  Json& begin_object() { return open('{'); }
  Json& end_object() { return close('}'); }
  Json& begin_array() { return open('['); }
  Json& end_array() { return close(']'); }
  /// The key of the next value inside an object.
  Json& key(const char* name);
  /// The shortest text that reads back as the same double. JSON has no NaN or infinity: those
  /// are written as {"$number": "NaN" | "Infinity" | "-Infinity"}, which the JS side turns
  /// back into numbers (web/src/engine/native.js), never into null.
  Json& number(double value);
  Json& boolean(bool value);
  Json& string(const std::string& value);
  Json& null();

  /// key(name) then the value: bools as true/false, other arithmetic types as numbers
  /// (exact up to 2^53), strings as strings.
  template <class T>
  Json& field(const char* name, const T& value) {
    key(name);
    if constexpr (std::is_same_v<T, bool>) return boolean(value);
    else if constexpr (std::is_arithmetic_v<T>) return number(static_cast<double>(value));
    else return string(value);
  }

  const std::string& text() const { return out_; }
  bool empty() const { return out_.empty(); }

 private:
  void separate();  // a comma before every value of a container but the first
  Json& open(char bracket);
  Json& close(char bracket);
  std::string out_;
  bool need_comma_ = false;
};

}  // namespace bind
