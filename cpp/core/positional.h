// Positional methods that act on the attention logits rather than on the inputs: RoPE rotates
// every head's q and k by an angle proportional to the position, ALiBi adds a distance penalty
// with one slope per query head. The layer (mha.cpp), its trace and its backward pass call these.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace attn {

enum class Positional { none, rope, alibi };

/// RoPE's base when none is given (pair t turns by pos·base^(−2t/d_k)).
constexpr double kRopeBase = 10000.0;
inline double rope_base_or_default(const std::optional<double>& given) { return given.value_or(kRopeBase); }
/// Throws unless rope_base is absent or positional is rope: a base given with another method
/// would be silently ignored (the same rule as window with a mask other than sliding).
void require_rope_base_applies(Positional positional, const std::optional<double>& rope_base);

/// "none", "rope" or "alibi"; parse_positional throws Error naming the choices.
const char* positional_name(Positional p);
Positional parse_positional(const std::string& name);

/// ALiBi's slope of head h of n_heads: 2^(−8(h+1)/n) for n a power of two; otherwise the slopes
/// of the largest power of two p < n, then every other slope of 2p (the paper's rule).
double alibi_slope(int h, int n_heads);
std::vector<double> alibi_slopes(int n_heads);

/// Subtracts slope·|i − j| from the logits row[0 .. count) of keys j0 .. j0 + count − 1 (query i).
void add_alibi(float* row, int i, int j0, int count, float slope);
/// add_alibi on `rows` rows of n_k logits (row stride ld), query i0 + r for row r, keys from 0.
void add_alibi_rows(float* logits, int ld, int rows, int i0, int n_k, float slope);

/// Rotates each pair (2t, 2t+1) of `heads` consecutive d_k-wide slices of rows × (heads·d_k)
/// values (row stride ld) by angle pos·base^(−2t/d_k), pos = pos0 + row. inverse: by −angle
/// (the transpose, for gradients). d_k must be even (checked by the caller: require_rope).
void rope_rotate(float* x, int ld, int rows, int pos0, int heads, int d_k, double base, bool inverse);
/// Throws unless d_k is even and base > 1 is finite.
void require_rope(int d_k, double base);

/// The logits α·rope(q, i)·rope(k, j) of one q and k placed at query positions i and key
/// positions j = i − offset, for every i of `positions`: RoPE makes them depend on the offset only.
std::vector<double> rope_logits(const std::vector<float>& q, const std::vector<float>& k, int offset,
                                const std::vector<int>& positions, double base, bool scale);

}  // namespace attn
