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
  // Whole numbers below 10^17 (counts, shapes, sizes: most of what the bindings write) are written
  // digit by digit, as %.17g writes them. printf is for messages: called for every number of a
  // result it became hot enough in a page's first view for the browser to optimise it, a compile
  // that took tens of ms of CPU beside the first run (issue 34, first view).
  if (value == std::floor(value) && std::fabs(value) < 1e17) {
    if (value == 0) {
      out_ += std::signbit(value) ? "-0" : "0";
      return *this;
    }
    char digits[24];  // written last digit first (std::to_chars put 153 more gzipped bytes in the module)
    int n = 0;
    for (auto left = static_cast<std::uint64_t>(std::fabs(value)); left > 0; left /= 10)
      digits[n++] = static_cast<char>('0' + left % 10);
    if (value < 0) out_ += '-';
    while (n > 0) out_ += digits[--n];
    return *this;
  }
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
  // Runs of characters that need no escape are appended whole (UTF-8 passes through; Embind decodes
  // the returned std::string as UTF-8).
  std::size_t run = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    const auto byte = static_cast<unsigned char>(c);
    if (c != '"' && c != '\\' && byte >= 0x20) continue;
    out_.append(value, run, i - run);
    run = i + 1;
    if (byte < 0x20) {
      static const char hex[] = "0123456789abcdef";
      const char escaped[] = {'\\', 'u', '0', '0', hex[byte >> 4], hex[byte & 15]};
      out_.append(escaped, sizeof escaped);
    } else {
      out_ += '\\';
      out_ += c;
    }
  }
  out_.append(value, run, value.size() - run);
  out_ += '"';
  return *this;
}

Json& Json::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace bind
