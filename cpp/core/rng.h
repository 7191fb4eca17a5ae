// Seeded random numbers that give the same stream natively and in wasm, so a seed in a
// shared link reproduces a run exactly. SplitMix64 for streams, and a stateless hash for
// dropout so that the materialised and the streaming attention drop the same weights.
#pragma once
#include <cmath>
#include <cstdint>

namespace attn {

/// SplitMix64 finaliser: a good 64-bit mix of one counter.
inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A small sequential generator for weights and random inputs.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next_u64() { return mix64(state_++ * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull); }
  /// Uniform in [0, 1) with 24 random bits, exactly representable in float.
  float uniform() { return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f); }
  /// Uniform in [lo, hi).
  float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }
  /// Standard normal by Box-Muller (double inside, for the √d_k statistics).
  double normal() {
    double u1 = (static_cast<double>(next_u64() >> 11) + 1.0) * (1.0 / 9007199254740993.0);
    double u2 = static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  std::uint64_t state_;
};

/// Dropout decision for one attention weight, a pure function of its coordinates:
/// true when weight (batch b, head h, query i, key j) is kept.
inline bool dropout_keep(std::uint64_t seed, std::uint32_t b, std::uint32_t h, std::uint32_t i,
                         std::uint32_t j, float p) {
  std::uint64_t z = mix64(seed ^ mix64((static_cast<std::uint64_t>(b) << 32) | h));
  z = mix64(z ^ ((static_cast<std::uint64_t>(i) << 32) | j));
  float u = static_cast<float>(z >> 40) * (1.0f / 16777216.0f);
  return u >= p;
}

}  // namespace attn
