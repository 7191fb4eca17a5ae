// JSON text for the bindings' structured results: exact numbers, escaped strings.
#include "json.h"

#include <cmath>
#include <cstdio>

namespace bind {

void Json::separate() {
  if (need_comma_) out_ += ',';
  need_comma_ = true;
}

Json& Json::open(char bracket) {
  separate();
  out_ += bracket;
  need_comma_ = false;
  return *this;
}

Json& Json::close(char bracket) {
  out_ += bracket;
  need_comma_ = true;
  return *this;
}

Json& Json::key(const char* name) {
  string(name);
  out_ += ':';
  need_comma_ = false;  // the value that follows belongs to this key
  return *this;
}

Json& Json::number(double value) {
  if (!std::isfinite(value)) {
    begin_object();
    key("$number").string(std::isnan(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
    return end_object();
  }
  separate();
  // %.17g always reads back as the same double (JSON.parse gives back exactly this value). A
  // shorter form tried first would need strtod to check it, and strtod's long-double parser
  // was a tenth of the module's download.
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  out_ += text;
  return *this;
}

Json& Json::boolean(bool value) {
  separate();
  out_ += value ? "true" : "false";
  return *this;
}

Json& Json::string(const std::string& value) {
  separate();
  out_ += '"';
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out_ += '\\';
      out_ += c;
    } else if (byte < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out_ += escaped;
    } else {
      out_ += c;  // UTF-8 passes through; Embind decodes the returned std::string as UTF-8
    }
  }
  out_ += '"';
  return *this;
}

Json& Json::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace bind
