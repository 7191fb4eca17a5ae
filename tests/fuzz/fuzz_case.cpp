// Decoding of fuzz inputs into cases: libFuzzer's bytes (every byte string is some case, so
// mutations stay meaningful) and the readable text format of the corpus of past failures.
#include "fuzz_case.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace fuzz {
namespace {

// Reads the input front to back; past the end every read is 0.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t u8() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(u16()) | (static_cast<std::uint32_t>(u16()) << 16); }
  std::int32_t i32() {
    const std::uint32_t u = u32();
    std::int32_t v;
    std::memcpy(&v, &u, sizeof v);
    return v;
  }
  float f32() {
    const std::uint32_t u = u32();
    float v;
    std::memcpy(&v, &u, sizeof v);
    return v;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
};

// Tensor contents come from a generator seeded by the input, so a few bytes make large tensors.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 2685821657736338717ull;
  }
  float unit() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }  // [0, 1)
  float sym() { return 2.0f * unit() - 1.0f; }                                      // [−1, 1)

 private:
  std::uint64_t s_;
};

const float kSpecial[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                          std::numeric_limits<float>::denorm_min(), 0.0f};

// Length a tensor of these sizes needs, or `cap` + 1 when that is more than cap (raw sizes).
std::size_t needed(std::initializer_list<long long> dims, std::size_t cap) {
  long double n = 1;
  for (long long d : dims) n *= d > 0 ? static_cast<long double>(d) : 0.0L;
  return n > cap ? cap + 1 : static_cast<std::size_t>(n);
}

// Fills `len` values, rows of `width`, in one of five ways chosen by the input: uniform in
// [−1, 1]·2^e (e from −130 to 125, so from subnormal to 4e37), constant ±2^e, per-row sign with
// |x| in [0.98, 1]·2^e (the rows of issue 9's overflowing logits), raw float bits from the input
// (NaN, ±∞ included), or uniform over float's whole range (±3.4e38).
std::vector<float> tensor(std::size_t len, int width, Bytes& in, Rng& rng) {
  const std::uint8_t mode = in.u8();
  const float scale = std::ldexp(1.0f, static_cast<int>(in.u8()) - 130);
  std::vector<float> x(len);
  const float sign = mode & 0x80 ? -1.0f : 1.0f;
  float row_sign = 1.0f;
  for (std::size_t i = 0; i < len; ++i) {
    if (width > 0 && i % static_cast<std::size_t>(width) == 0) row_sign = rng.next() & 1 ? 1.0f : -1.0f;
    switch (mode % 5) {
      case 0: x[i] = rng.sym() * scale; break;
      case 1: x[i] = sign * scale; break;
      case 2: x[i] = row_sign * scale * (1.0f - 0.02f * rng.unit()); break;
      case 3: x[i] = in.f32(); break;
      default: x[i] = rng.sym() * std::numeric_limits<float>::max(); break;
    }
  }
  return x;
}

// Sizes of ordinary cases: small, and one time in 16 larger, past the engine's 128-key tile and
// 512-query block (a large case costs a hundred small ones).
int small_size(Bytes& in, int most, int rare) {
  const std::uint16_t v = in.u16();
  return 1 + static_cast<int>((v & 0xf000) == 0xf000 ? (v & 0x0fff) % rare : (v & 0x0fff) % most);
}

void decode_analysis(Bytes& in, Case& c) {
  c.api = Api::analysis;
  c.analysis_call = in.u8() % 5;
  for (int i = 0; i < 6; ++i) {
    // Mostly small numbers, sometimes any int: the calls must refuse what is too large, quickly.
    const std::uint8_t kind = in.u8();
    c.args.push_back(kind & 1 ? in.i32() : static_cast<int>(in.u16() % 4097) - (kind & 2 ? 1 : 0));
  }
}

}  // namespace

Case decode_bytes(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  Case c;
  const std::uint8_t b0 = in.u8(), b1 = in.u8(), b2 = in.u8();
  if ((b0 & 3) == 3) {
    decode_analysis(in, c);
    return c;
  }
  c.api = (b0 & 1) ? Api::mha : Api::sdpa;
  const bool raw_sizes = b0 & 0x4;
  const bool wrong_length = b1 & 0x40, special = b1 & 0x80;
  Rng rng(in.u32());
  if (raw_sizes) {
    c.batch = in.i32();
    c.n_q = in.i32();
    c.n_k = in.i32();
  } else {
    c.batch = 1 + in.u8() % 3;
    c.n_q = small_size(in, 40, 700);
    c.n_k = small_size(in, 40, 300);
  }
  if (c.api == Api::sdpa) {
    c.d_k = raw_sizes ? in.i32() : 1 + in.u8() % 40;
    c.d_v = raw_sizes ? in.i32() : 1 + in.u8() % 20;
  } else {
    // A layer's weights are made when it is built: only sizes that are small or refused at once.
    c.d_model = 1 + in.u8() % 24;
    c.n_heads = 1 + in.u8() % 4;
    const std::uint8_t widths = in.u8();
    c.d_k = widths & 1 ? 1 + (widths >> 1) % 12 : 0;
    c.d_v = widths & 1 ? 1 + (widths >> 4) % 12 : 0;
    c.bias = b0 & 0x8;
    if (raw_sizes && (b2 & 0x10)) c.d_model = in.u8() & 1 ? 12288 : -in.u8();  // refused: too large, or not positive
  }
  c.opt.scale = !(b1 & 0x1);
  c.opt.mask.causal = b1 & 0x2;
  c.opt.seed = in.u16();
  const bool valid_sizes = c.batch > 0 && c.batch <= 8 && c.n_q > 0 && c.n_k > 0;
  if ((b1 & 0x4) && valid_sizes)  // padding (b2 bit 0: one length too many or out of range)
    for (int b = 0; b < c.batch + ((b2 & 1) ? 1 : 0); ++b)
      c.opt.mask.key_lengths.push_back(static_cast<int>(in.u16() % (static_cast<unsigned>(c.n_k) + 2)) - ((b2 & 2) ? 1 : 0));
  if ((b1 & 0x8) && c.n_q > 0 && c.n_k > 0) {
    const std::size_t count = needed({c.n_q, c.n_k}, 1u << 20);
    const std::uint8_t density = in.u8();
    if (count <= (1u << 20)) {
      c.opt.mask.matrix.resize(count + ((b2 & 4) ? 1 : 0));
      for (auto& m : c.opt.mask.matrix) m = (rng.next() & 255) < density ? 1 : 0;
    }
  }
  if (b1 & 0x10) {
    const std::uint8_t p = in.u8();
    const float table[] = {0.1f, 0.5f, 0.9f, 0.99999994f, 1.0f, -0.25f, std::numeric_limits<float>::quiet_NaN()};
    c.opt.dropout = p < 200 ? p / 256.0f : table[p % 7];
    c.opt.training = !(b1 & 0x20);
  }
  // Tensors: at most 2^17 values each are made (ordinary sizes stay below; a longer one would
  // only be refused anyway).
  const std::size_t cap = 1u << 17;
  if (c.api == Api::sdpa) {
    c.x = tensor(needed({c.batch, c.n_q, c.d_k}, cap), c.d_k, in, rng);
    c.y = tensor(needed({c.batch, c.n_k, c.d_k}, cap), c.d_k, in, rng);
    c.z = tensor(needed({c.batch, c.n_k, c.d_v}, cap), c.d_v, in, rng);
    c.self = (b2 & 8) && c.n_q == c.n_k && c.d_k == c.d_v;  // one buffer for q, k and v
    if (c.self) c.y = c.z = c.x;
  } else {
    c.self = (b2 & 8) && c.n_q == c.n_k;
    c.into = b2 & 0x20;
    c.x = tensor(needed({c.batch, c.n_q, c.d_model}, cap), c.d_model, in, rng);
    if (!c.self) {
      c.y = tensor(needed({c.batch, c.n_k, c.d_model}, cap), c.d_model, in, rng);
      c.z = tensor(needed({c.batch, c.n_k, c.d_model}, cap), c.d_model, in, rng);
    }
    c.default_weights = !(b2 & 0x40);
    if (!c.default_weights && c.d_model > 0 && c.d_model <= 64) {
      const int D = c.d_model, h = c.n_heads;
      const int qk = h * (c.d_k ? c.d_k : D / h), v = h * (c.d_v ? c.d_v : D / h);
      if (qk > 0 && v > 0) {
        c.weights.wq = tensor(static_cast<std::size_t>(D) * qk, qk, in, rng);
        c.weights.wk = tensor(static_cast<std::size_t>(D) * qk, qk, in, rng);
        c.weights.wv = tensor(static_cast<std::size_t>(D) * v, v, in, rng);
        c.weights.wo = tensor(static_cast<std::size_t>(v) * D, D, in, rng);
        if (c.bias) {
          c.weights.bq = tensor(qk, qk, in, rng);
          c.weights.bk = tensor(qk, qk, in, rng);
          c.weights.bv = tensor(v, v, in, rng);
          c.weights.bo = tensor(D, D, in, rng);
        }
      }
    }
  }
  if (special) {  // one NaN, ±∞, ±max, smallest normal or subnormal, or 0 somewhere
    std::vector<float>* which[] = {&c.x, &c.y, &c.z};
    std::vector<float>& t = *which[in.u8() % 3];
    const std::uint32_t at = in.u32();
    const float value = kSpecial[in.u8() % 8];
    if (!t.empty()) t[at % t.size()] = value;
  }
  if (wrong_length) {  // one tensor a few values off
    std::vector<float>* which[] = {&c.x, &c.y, &c.z};
    std::vector<float>& t = *which[in.u8() % 3];
    const int delta = static_cast<int>(in.u8() % 5) - 2;
    if (delta == 0) t.clear();
    else if (delta > 0) t.resize(t.size() + delta, 0.5f);
    else t.resize(t.size() > static_cast<std::size_t>(-delta) ? t.size() + delta : 0);
  }
  return c;
}

namespace {

bool fail(std::string& error, const std::string& why) {
  error = why;
  return false;
}

// "fill X", "values x1 x2 ...", "identity", "random LO HI SEED", then optionally "length N".
bool parse_tensor(std::istringstream& words, std::size_t len, int width, std::vector<float>& out, std::string& error) {
  std::string how;
  words >> how;
  out.assign(len, 0.0f);
  if (how == "fill") {
    float x;
    if (!(words >> x)) return fail(error, "fill needs a value");
    out.assign(len, x);
  } else if (how == "values") {
    float x;
    std::size_t i = 0;
    while (words >> x) {
      if (i < len) out[i] = x;
      ++i;
    }
    words.clear();
  } else if (how == "identity") {
    for (std::size_t r = 0; width > 0 && r < len / static_cast<std::size_t>(width); ++r)
      if (r < static_cast<std::size_t>(width)) out[r * width + r] = 1.0f;
  } else if (how == "random") {
    float lo, hi;
    std::uint64_t seed;
    if (!(words >> lo >> hi >> seed)) return fail(error, "random needs LO HI SEED");
    Rng rng(seed);
    for (float& x : out) x = lo + (hi - lo) * rng.unit();
  } else {
    return fail(error, "unknown tensor form '" + how + "'");
  }
  std::string word;
  std::size_t length;
  if (words >> word) {
    if (word != "length" || !(words >> length) || length > (1u << 22)) return fail(error, "expected 'length N'");
    out.resize(length, 0.5f);
  }
  return true;
}

}  // namespace

bool decode_text(const std::string& text, Case& c, std::string& error) {
  c = Case();
  std::istringstream lines(text);
  std::string line;
  bool have_api = false;
  struct Pending {
    std::string name, rest;
  };
  std::vector<Pending> tensors;  // parsed once the sizes are known
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string key;
    if (!(words >> key) || key[0] == '#') continue;
    if (key == "api") {
      std::string api;
      words >> api;
      if (api == "sdpa") c.api = Api::sdpa;
      else if (api == "mha") {
        c.api = Api::mha;
        c.d_k = c.d_v = 0;  // derived from d_model / n_heads unless given
      }
      else if (api == "analysis") c.api = Api::analysis;
      else return fail(error, "unknown api '" + api + "'");
      have_api = true;
    } else if (key == "sizes") {
      std::string name;
      long long value;
      while (words >> name >> value) {
        if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
          return fail(error, "size out of int range");
        const int v = static_cast<int>(value);
        if (name == "batch") c.batch = v;
        else if (name == "n_q") c.n_q = v;
        else if (name == "n_k") c.n_k = v;
        else if (name == "d_k") c.d_k = v;
        else if (name == "d_v") c.d_v = v;
        else if (name == "d_model") c.d_model = v;
        else if (name == "n_heads") c.n_heads = v;
        else if (name == "bias") c.bias = v != 0;
        else return fail(error, "unknown size '" + name + "'");
      }
    } else if (key == "scale") {
      int v = 1;
      words >> v;
      c.opt.scale = v != 0;
    } else if (key == "causal") {
      c.opt.mask.causal = true;
    } else if (key == "padding") {
      int len;
      while (words >> len) c.opt.mask.key_lengths.push_back(len);
    } else if (key == "matrix") {  // the rows of the mask, as 0/1 words, n_q·n_k of them
      int m;
      while (words >> m) c.opt.mask.matrix.push_back(m != 0);
    } else if (key == "dropout") {
      words >> c.opt.dropout;
      c.opt.training = true;
    } else if (key == "seed") {
      words >> c.opt.seed;
    } else if (key == "self") {
      c.self = true;
    } else if (key == "into") {
      c.into = true;
    } else if (key == "call") {  // analysis: call number and integer arguments
      words >> c.analysis_call;
      int a;
      while (words >> a) c.args.push_back(a);
    } else {
      std::string rest;
      std::getline(words, rest);
      tensors.push_back({key, rest});
    }
  }
  if (!have_api) return fail(error, "no 'api' line");
  const std::size_t cap = 1u << 20;
  const int D = c.d_model, h = c.n_heads > 0 ? c.n_heads : 1;
  const int qk = h * (c.d_k > 0 ? c.d_k : D / h), vw = h * (c.d_v > 0 ? c.d_v : D / h);
  for (const Pending& t : tensors) {
    std::istringstream words(t.rest);
    std::vector<float>* out = nullptr;
    std::size_t len = 0;
    int width = 0;
    if (c.api == Api::sdpa && t.name == "q") out = &c.x, len = needed({c.batch, c.n_q, c.d_k}, cap), width = c.d_k;
    else if (c.api == Api::sdpa && t.name == "k") out = &c.y, len = needed({c.batch, c.n_k, c.d_k}, cap), width = c.d_k;
    else if (c.api == Api::sdpa && t.name == "v") out = &c.z, len = needed({c.batch, c.n_k, c.d_v}, cap), width = c.d_v;
    else if (c.api == Api::mha && t.name == "query") out = &c.x, len = needed({c.batch, c.n_q, D}, cap), width = D;
    else if (c.api == Api::mha && t.name == "key") out = &c.y, len = needed({c.batch, c.n_k, D}, cap), width = D;
    else if (c.api == Api::mha && t.name == "value") out = &c.z, len = needed({c.batch, c.n_k, D}, cap), width = D;
    else if (c.api == Api::mha && t.name == "wq") out = &c.weights.wq, len = needed({D, qk}, cap), width = qk;
    else if (c.api == Api::mha && t.name == "wk") out = &c.weights.wk, len = needed({D, qk}, cap), width = qk;
    else if (c.api == Api::mha && t.name == "wv") out = &c.weights.wv, len = needed({D, vw}, cap), width = vw;
    else if (c.api == Api::mha && t.name == "wo") out = &c.weights.wo, len = needed({vw, D}, cap), width = D;
    else if (c.api == Api::mha && t.name == "bq") out = &c.weights.bq, len = needed({qk}, cap), width = qk;
    else if (c.api == Api::mha && t.name == "bk") out = &c.weights.bk, len = needed({qk}, cap), width = qk;
    else if (c.api == Api::mha && t.name == "bv") out = &c.weights.bv, len = needed({vw}, cap), width = vw;
    else if (c.api == Api::mha && t.name == "bo") out = &c.weights.bo, len = needed({D}, cap), width = D;
    else return fail(error, "unknown line '" + t.name + "'");
    if (len > cap) len = 0;  // sizes too large to make: an empty buffer (the call must refuse it)
    if (!parse_tensor(words, len, width, *out, error)) return fail(error, t.name + ": " + error);
    if (out != &c.x && out != &c.y && out != &c.z) c.default_weights = false;
  }
  if (c.api == Api::mha && !c.default_weights && c.weights.wq.empty())
    return fail(error, "a layer with given weights needs wq, wk, wv and wo");
  if (c.self) c.y = c.z = (c.api == Api::sdpa ? c.x : std::vector<float>());
  return true;
}

std::string describe(const Case& c) {
  std::ostringstream o;
  o << (c.api == Api::sdpa ? "plain attention" : c.api == Api::mha ? "multi-head layer" : "analysis call");
  if (c.api == Api::analysis) {
    o << " " << c.analysis_call << " (";
    for (int a : c.args) o << a << " ";
    o << ")";
    return o.str();
  }
  o << ": batch " << c.batch << ", n_q " << c.n_q << ", n_k " << c.n_k << ", d_k " << c.d_k << ", d_v " << c.d_v;
  if (c.api == Api::mha) o << ", d_model " << c.d_model << ", n_heads " << c.n_heads << ", bias " << c.bias
                           << (c.default_weights ? ", default weights" : ", given weights") << (c.self ? ", self" : ", cross")
                           << (c.into ? ", into the query buffer" : "");
  else if (c.self) o << ", q = k = v";
  o << "; mask " << c.opt.mask.describe() << ", scale " << c.opt.scale << ", dropout " << c.opt.dropout
    << (c.opt.training ? " (training)" : "") << ", seed " << c.opt.seed << "; lengths " << c.x.size() << ", "
    << c.y.size() << ", " << c.z.size();
  return o.str();
}

}  // namespace fuzz
