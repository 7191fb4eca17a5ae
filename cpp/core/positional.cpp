// RoPE's rotation and ALiBi's slopes and bias (positional.h).
#include "positional.h"

#include <cmath>
#include <cstddef>
#include <cstdlib>

#include "attention.h"
#include "error.h"

namespace attn {

const char* positional_name(Positional p) {
  return p == Positional::rope ? "rope" : p == Positional::alibi ? "alibi" : "none";
}

Positional parse_positional(const std::string& name) {
  if (name == "none") return Positional::none;
  if (name == "rope") return Positional::rope;
  if (name == "alibi") return Positional::alibi;
  throw Error("positional must be 'none', 'rope' or 'alibi', got '" + name + "'");
}

double alibi_slope(int h, int n_heads) {
  int p = 1;
  while (p * 2 <= n_heads) p *= 2;
  // The first p heads: the power-of-two sequence 2^(−8(h+1)/p). The rest: odd-numbered slopes of 2p.
  if (h < p) return std::exp2(-8.0 * (h + 1) / p);
  return std::exp2(-8.0 * (2 * (h - p) + 1) / (2.0 * p));
}

std::vector<double> alibi_slopes(int n_heads) {
  require_positive("n_heads", n_heads);
  std::vector<double> out(n_heads);
  for (int h = 0; h < n_heads; ++h) out[h] = alibi_slope(h, n_heads);
  return out;
}

void add_alibi(float* row, int i, int j0, int count, float slope) {
  for (int j = 0; j < count; ++j) row[j] -= slope * static_cast<float>(std::abs(i - (j0 + j)));
}

void add_alibi_rows(float* logits, int ld, int rows, int i0, int n_k, float slope) {
  for (int r = 0; r < rows; ++r) add_alibi(logits + static_cast<std::size_t>(r) * ld, i0 + r, 0, n_k, slope);
}

void require_rope(int d_k, double base) {
  require(d_k % 2 == 0, "positional 'rope' rotates pairs of q and k: d_k must be even (got d_k " +
                            std::to_string(d_k) + ")");
  require(std::isfinite(base) && base > 1.0, "rope_base must be a finite number above 1 (got " + std::to_string(base) + ")");
}

void rope_rotate(float* x, int ld, int rows, int pos0, int heads, int d_k, double base, bool inverse) {
  const int pairs = d_k / 2;
  std::vector<double> freq(pairs);
  for (int t = 0; t < pairs; ++t) freq[t] = std::pow(base, -2.0 * t / d_k);
  for (int r = 0; r < rows; ++r) {
    const double pos = static_cast<double>(pos0) + r;
    for (int t = 0; t < pairs; ++t) {
      const double angle = (inverse ? -pos : pos) * freq[t];
      const float c = static_cast<float>(std::cos(angle)), s = static_cast<float>(std::sin(angle));
      for (int h = 0; h < heads; ++h) {
        float* p = x + static_cast<std::size_t>(r) * ld + static_cast<std::size_t>(h) * d_k + 2 * t;
        const float a = p[0], b = p[1];
        p[0] = c * a - s * b;
        p[1] = s * a + c * b;
      }
    }
  }
}

std::vector<double> rope_logits(const std::vector<float>& q, const std::vector<float>& k, int offset,
                                const std::vector<int>& positions, double base, bool scale) {
  const int d_k = static_cast<int>(q.size());
  require(d_k > 0 && k.size() == q.size(), "rope_logits: q and k need the same length d_k > 0");
  require_rope(d_k, base);
  std::vector<double> out;
  for (const int i : positions) {
    require(i >= 0 && i - offset >= 0, "rope_logits: positions must be ≥ 0 and ≥ offset");
    std::vector<float> qi = q, kj = k;
    rope_rotate(qi.data(), d_k, 1, i, 1, d_k, base, false);
    rope_rotate(kj.data(), d_k, 1, i - offset, 1, d_k, base, false);
    double dot = 0.0;
    for (int c = 0; c < d_k; ++c) dot += static_cast<double>(qi[c]) * kj[c];
    out.push_back(scale ? dot / std::sqrt(static_cast<double>(d_k)) : dot);
  }
  return out;
}

// Declared in mha.h (the layer's calls use them); defined here, in a file compiled for size.
std::vector<float> head_slopes(const AttentionOptions& opt, int n_heads) {
  std::vector<float> slopes;
  if (opt.positional != Positional::alibi) return slopes;
  const int total = opt.layer_heads > 0 ? opt.layer_heads : n_heads;
  for (int h = 0; h < n_heads; ++h) slopes.push_back(static_cast<float>(alibi_slope(opt.head_offset + h, total)));
  return slopes;
}

void require_rope_base_applies(Positional positional, const std::optional<double>& rope_base) {
  require(!rope_base || positional == Positional::rope,
          std::string("rope_base is only used with positional 'rope' (positional is '") + positional_name(positional) + "')");
}

void validate_positional(const AttentionOptions& opt, int n_heads, int d_k) {
  require_rope_base_applies(opt.positional, opt.rope_base);
  if (opt.positional == Positional::rope) require_rope(d_k, rope_base_or_default(opt.rope_base));
  const int total = opt.layer_heads > 0 ? opt.layer_heads : n_heads;
  require(opt.head_offset >= 0 && opt.layer_heads >= 0 && opt.head_offset <= total - n_heads,
          "head_offset " + std::to_string(opt.head_offset) + " and layer_heads " + std::to_string(opt.layer_heads) +
              " do not place this layer's " + std::to_string(n_heads) + " heads inside the layer");
}

}  // namespace attn
