// Scaled dot-product attention: softmax(Q·Kᵀ/√d_k [masked]) [dropout] · V, on one head at a
// time. Three ways to the same output: whole rows written into the caller's n_q×n_k weights
// (for the heatmaps); whole rows a few at a time in scratch, normalised after P·V, when no one
// needs the weights and n_k is moderate; and streaming (key tiles with an online softmax) for
// long keys. The last two never hold n_q×n_k: memory stays O(n) instead of O(n²).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "count.h"
#include "mask.h"
#include "positional.h"

namespace attn {

struct AttentionOptions {
  Mask mask;
  /// Divide the logits by √d_k. Off shows what goes wrong without it (saturated softmax).
  bool scale = true;
  /// Dropout probability p on the attention weights; kept weights are scaled by 1/(1−p).
  /// Applied only when training is true, so inference is deterministic by default.
  float dropout = 0.0f;
  bool training = false;
  /// Seed of the dropout pattern; a weight's fate depends only on (seed, b, h, i, j).
  std::uint64_t seed = 1;
  /// Without need_weights, a query block whose rows×n_k logits number at most this many takes
  /// the whole-row path (each sub-block of softmax_rows() rows: one matmul, one softmax pass,
  /// one matmul, faster than tiles; only a sub-block's logits are held); larger blocks stream
  /// with an online softmax over key tiles. The default keeps whole rows up to n_k = 4096 with
  /// full query blocks. 0 always streams.
  std::size_t scratch_logits = std::size_t{1} << 21;
  /// Positional method on the logits (MultiHeadAttention only, positional.h): RoPE with rope_base,
  /// or ALiBi, whose slope of this layer's head h is that of head head_offset + h of a layer of
  /// layer_heads heads (0: this layer's n_heads), so a worker holding some of a layer's heads
  /// gives each its slope in the whole layer.
  Positional positional = Positional::none;
  /// Not given: kRopeBase. Given with another positional method it is refused (validate_positional),
  /// as window is with a mask other than sliding: an option that does not apply is an error.
  std::optional<double> rope_base;
  int head_offset = 0, layer_heads = 0;
  /// Checks dropout ∈ [0, 1) and the mask against the sizes.
  void validate(int batch, int n_q, int n_k) const;
};

/// A query row in which every key was masked: its weights and output are 0 (never NaN).
struct MaskedRow {
  int b, i;
};

/// The path attend_head takes for a block of `rows` query rows without weights requested.
inline bool uses_scratch(const AttentionOptions& opt, int rows, int n_k) {
  return (Count(rows) * n_k).value() <= opt.scratch_logits;
}

/// One (batch item, head) problem over strided operands, for a block of query rows; or, with
/// heads > 1, the query heads h, h+1, ... that share one key/value head (grouped-query
/// attention): K and V are then packed once for all of them.
struct HeadProblem {
  const float* q;  int ldq;  // rows × d_k
  const float* k;  int ldk;  // n_k × d_k
  const float* v;  int ldv;  // n_k × d_v
  float* out;      int ldo;  // rows × d_v, overwritten
  float* weights;            // rows × n_k (row stride n_k) to return them, or nullptr (not wanted)
  int rows, n_k, d_k, d_v;
  int row0;                  // index of the block's first query row in the sequence
  int b, h;                  // coordinates, for the padding mask and the dropout pattern
  double v_bound;            // ≥ every |v| of this head (√ of V's largest squared row norm)
  float q_prescale = 1.0f;   // the power of two q was multiplied by (guard_logits); 1 = none
  int heads = 1;             // query heads sharing k and v; head g's q, out and weights start
  int q_step = 0, out_step = 0;    // g·q_step, g·out_step columns and
  std::size_t weights_step = 0;    // g·weights_step floats further on
  const float* slopes = nullptr;   // ALiBi: slopes[g] for query head g of the group; null = none
  /// Query head g of the group as a problem of its own (q_prescale is the group's).
  HeadProblem query_head(int g) const {
    HeadProblem one = *this;
    one.q += static_cast<std::size_t>(g) * q_step;
    one.out += static_cast<std::size_t>(g) * out_step;
    if (weights) one.weights += g * weights_step;
    if (slopes) one.slopes += g;
    one.h += g;
    one.heads = 1;
    return one;
  }
};

/// The factor the logits are multiplied by: 1/√d_k, or 1 when opt.scale is off.
float logit_scale(const AttentionOptions& opt, int d_k);
/// Dropout changes the weights only when training with p > 0.
inline bool dropout_active(const AttentionOptions& opt) { return opt.training && opt.dropout > 0.0f; }

// The per-row steps of the whole-row path, shared with the trace of one query (trace.h), so
// that the trace shows the very numbers the forward pass computes.
struct PackedB;
/// Logits of rows [r0, r0 + rows) of p's query block against every key, α·q_i·k_j (minus
/// ALiBi's slope·|i − j| when p.slopes), into `logits` (row stride n_k), not masked. k_packed: p.k as kern::pack_b(d_k, n_k, p.k, p.ldk,
/// true, ·) packs it.
void block_logits(const HeadProblem& p, const AttentionOptions& opt, const PackedB& k_packed, int r0, int rows,
                  float* logits);
/// Sets to −∞ the logits of query row i (its index in the sequence) of batch item b for the
/// masked keys among [j0, j0 + count); `row` holds those count logits.
void mask_logits(float* row, const Mask& mask, int b, int i, int j0, int count, int n_k);
/// Multiplies weights (b, h, i, j0 .. j0 + count) of one row by their dropout factor: 0 when
/// dropped, 1/(1−p) when kept, decided by dropout_keep (rng.h) from the seed and the coordinates.
void apply_dropout(float* row, const AttentionOptions& opt, int b, int h, int i, int j0, int count);
/// Largest squared row norm (in double) of a rows×width matrix with row stride ld. A row holding
/// NaN or ±∞ makes the result NaN or +∞ (never dropped), so a non-finite result means a
/// non-finite entry: finite floats cannot overflow a double sum of squares.
double max_row_norm2(const float* x, int ld, int rows, int width);
/// Throws, naming the stage ("the query projection") and where, when a tensor the layer computed
/// holds ±∞ or NaN: `norm2` is its max_row_norm2, finite exactly when every entry is.
void require_finite_stage(const char* stage, double norm2, int b, int h);
/// The overflow guard of the logits, run before attend_head for each block of query rows and
/// head, from the largest squared row norms of the block's q and of k. A logit α·q·k is at most
/// α·|q|·|k| (Cauchy–Schwarz): throws when that bound reaches 1e38, so no logit is ±∞ and the
/// softmax never makes NaN. The kernels sum q·k first and multiply by α after, and that unscaled
/// sum (every partial sum of it is at most |q|·|k| too) can overflow although α·q·k does not:
/// returns the power of two the block's q must be multiplied by before Q·Kᵀ (exact), 1 unless
/// |q|·|k| reaches 1e38. Pass it as HeadProblem::q_prescale.
float guard_logits(double q_norm2, double k_norm2, float alpha, int h);
/// For what shows or reuses q·k before the scale (`who`: "its trace", "the backward pass"): the
/// forward pass's checks of one head's q, K and V by their largest squared row norms (`kind`:
/// "projection" or "input" names the stage), and a refusal naming the overflow where the
/// unscaled q·k could leave float's range (where the forward pass prescales q, see guard_logits).
void require_unscaled_logits(const char* who, const char* kind, double q_norm2, double k_norm2, double v_norm2,
                             float alpha, int b, int h);

/// Query rows whose logits are exponentiated and multiplied by V together in the whole-row
/// path: about 512 KB of logits, so the softmax passes and the P·V matmul find them in L2
/// (256 rows × 2048 keys, 2 MB, did not fit). A multiple of the matmul's 4-row tile.
int softmax_rows(int n_k);

/// Working memory, in floats, that attend_head holds over all query blocks of n_q rows (full
/// blocks of kQueryBlock and a last, shorter one, which may take the other path): the logits
/// scratch or streaming tile, row statistics and the packed K and V (`buffers`), and the rows of
/// A the matmul packs (`a_pack`, a buffer the projections' matmuls share).
struct HeadWorkingFloats {
  std::uint64_t buffers, a_pack;
};
HeadWorkingFloats attend_working_floats(const AttentionOptions& opt, int n_q, int n_k, int d_k, int d_v,
                                        bool need_weights);

/// Attention of one head (or one group of query heads, see HeadProblem) for one block of query
/// rows. Appends fully masked rows to `masked_rows` when it is non-null. Sizes are trusted:
/// callers validate first.
void attend_head(const HeadProblem& p, const AttentionOptions& opt, std::vector<MaskedRow>* masked_rows);

/// Plain scaled dot-product attention over batch items (no projections).
/// q: [batch, n_q, d_k], k: [batch, n_k, d_k], v: [batch, n_k, d_v], all row-major.
struct AttentionResult {
  std::vector<float> output;   // [batch, n_q, d_v]
  std::vector<float> weights;  // [batch, n_q, n_k] when need_weights, else empty
  std::vector<MaskedRow> masked_rows;
};
AttentionResult scaled_dot_product_attention(const float* q, std::size_t q_len, const float* k,
                                             std::size_t k_len, const float* v, std::size_t v_len,
                                             int batch, int n_q, int n_k, int d_k, int d_v,
                                             const AttentionOptions& opt, bool need_weights,
                                             std::uint64_t memory_budget);
/// The checks of scaled_dot_product_attention's arguments that allocate nothing: positive
/// sizes, the lengths of q, k and v, the options. Shared with the trace of one query (trace.h).
void validate_attention_sizes(std::size_t q_len, std::size_t k_len, std::size_t v_len, int batch, int n_q, int n_k,
                              int d_k, int d_v, const AttentionOptions& opt);
/// Throws when q, k or v holds a NaN or an infinity (a pass over every input: after the budget).
void require_finite_attention_inputs(const float* q, std::size_t q_len, const float* k, std::size_t k_len,
                                     const float* v, std::size_t v_len, int d_k, int d_v);

/// Rows of queries handled together (the block the projections and the heads share). 512
/// rather than 256: K and V are packed once per block and head, so half as often (1.5% at
/// n = 2048, measured); Q and Concat for a block stay small (512 × d_model floats each).
constexpr int kQueryBlock = 512;
/// Keys per tile in the streaming path.
constexpr int kKeyTile = 128;

}  // namespace attn
