// Scaled dot-product attention for one head and one block of query rows, in the two forms
// described in attention.h, plus the batched entry point used by the JS API and the tests.
#include "attention.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "buffer.h"
#include "dims.h"
#include "error.h"
#include "kernels.h"
#include "rng.h"

namespace attn {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

}  // namespace

// Zeroes dropped weights and scales kept ones by 1/(1−p) for keys [j0, j0 + count). Shared with
// the backward pass (backward.cpp), which must drop exactly the weights the forward pass does.
void apply_dropout(float* row, const AttentionOptions& opt, int b, int h, int i, int j0, int count) {
  const float keep_scale = 1.0f / (1.0f - opt.dropout);
  for (int j = 0; j < count; ++j)
    row[j] = dropout_keep(opt.seed, b, h, i, j0 + j, opt.dropout) ? row[j] * keep_scale : 0.0f;
}

namespace {

// The unnormalised sums Σ_j e^(s_j − max)·v_j (each factor ≤ 1, kept ones scaled by 1/(1−p)
// under dropout) reach n_k·max|v|/(1−p) before the division by the row's sum: for values near
// float's limit that overflows although the result, a weighted average, does not. Returns the
// power of two to multiply the exponentials by so those sums stay finite: 1 but in such cases.
float unnormalised_damping(const HeadProblem& p, const AttentionOptions& opt) {
  double bound = p.v_bound * p.n_k;
  if (dropout_active(opt)) bound /= 1.0 - opt.dropout;
  if (bound < 1e37) return 1.0f;
  return std::ldexp(1.0f, -static_cast<int>(std::ceil(std::log2(bound / 1e37))));
}

// Whole rows of logits S = αQKᵀ, masked, exponentiated and multiplied by V, in sub-blocks of
// softmax_rows() query rows, for one head whose K and V are packed already.
// weights_out: p.weights is the caller's rows × n_k buffer and its rows become the softmax
// weights. Otherwise p.weights is a softmax_rows() × n_k scratch that every sub-block reuses,
// no one reads the weights, and they stay unnormalised: each output row is divided by its
// row's sum after P·V instead (d_v multiplies per row rather than a pass over n_k weights),
// unless those unnormalised sums could overflow (see unnormalised_damping).
void attend_whole_rows_packed(const HeadProblem& p, const PackedB& k_packed, const PackedB& v_packed,
                              const AttentionOptions& opt, bool weights_out, std::vector<MaskedRow>* masked_rows) {
  const bool normalise = weights_out || unnormalised_damping(p, opt) != 1.0f;
  thread_local Scratch<FloatBuffer> inv_sum;
  const int step = softmax_rows(p.n_k);
  inv_sum.resize(std::min(step, p.rows));
  for (int r0 = 0; r0 < p.rows; r0 += step) {
    const int rows = std::min(step, p.rows - r0);
    float* logits = weights_out ? p.weights + static_cast<std::size_t>(r0) * p.n_k : p.weights;
    block_logits(p, opt, k_packed, r0, rows, logits);
    for (int r = 0; r < rows; ++r) {
      float* row = logits + static_cast<std::size_t>(r) * p.n_k;
      const int i = p.row0 + r0 + r;
      if (opt.mask.any()) mask_logits(row, opt.mask, p.b, i, 0, p.n_k, p.n_k);
      // Normalised: the softmax kernel itself. Otherwise its first two steps, keeping 1/sum.
      bool seen;  // false: every key masked, so weights and output are 0
      if (normalise) {
        seen = kern::softmax_row(row, p.n_k);
        inv_sum[r] = 1.0f;
      } else {
        const float max = kern::row_max(row, p.n_k);
        seen = max != kNegInf;
        if (seen) inv_sum[r] = static_cast<float>(1.0 / kern::exp_shift_row(row, p.n_k, max));
      }
      if (!seen) {
        std::fill_n(row, p.n_k, 0.0f);
        inv_sum[r] = 0.0f;
        if (masked_rows && p.h == 0) masked_rows->push_back({p.b, i});
        continue;
      }
      if (dropout_active(opt)) apply_dropout(row, opt, p.b, p.h, i, 0, p.n_k);
    }
    float* out = p.out + static_cast<std::size_t>(r0) * p.ldo;
    kern::gemm_packed(rows, logits, p.n_k, v_packed, out, p.ldo, 1.0f, nullptr, false);
    if (!normalise)
      for (int r = 0; r < rows; ++r) kern::scale(out + static_cast<std::size_t>(r) * p.ldo, p.d_v, inv_sum[r]);
  }
}

// K and V packed once for every query head of the group, then each head's whole rows.
void attend_whole_rows(const HeadProblem& p, const AttentionOptions& opt, bool weights_out,
                       std::vector<MaskedRow>* masked_rows) {
  thread_local Scratch<PackedB> k_packed, v_packed;
  kern::pack_b(p.d_k, p.n_k, p.k, p.ldk, true, k_packed);
  kern::pack_b(p.n_k, p.d_v, p.v, p.ldv, false, v_packed);
  for (int g = 0; g < p.heads; ++g)
    attend_whole_rows_packed(p.query_head(g), k_packed, v_packed, opt, weights_out, masked_rows);
}

// Streaming: key tiles with a running max m and running sum l per row (online softmax),
// so only a rows×kKeyTile tile of logits ever exists. Dropout follows the same
// (seed, b, h, i, j) pattern as the materialised path, so both give the same output.
void attend_streaming(const HeadProblem& p, const AttentionOptions& opt, std::vector<MaskedRow>* masked_rows) {
  thread_local Scratch<FloatBuffer> tile;
  thread_local Scratch<FloatBuffer> run_max;
  thread_local Scratch<Buffer<double>> run_sum;
  tile.resize(static_cast<std::size_t>(p.rows) * kKeyTile);
  run_max.assign(p.rows, kNegInf);
  run_sum.assign(p.rows, 0.0);
  for (int r = 0; r < p.rows; ++r) std::fill_n(p.out + static_cast<std::size_t>(r) * p.ldo, p.d_v, 0.0f);
  const float alpha = logit_scale(opt, p.d_k) / p.q_prescale;  // exact: q_prescale is a power of two
  const float damping = unnormalised_damping(p, opt);  // 1 unless the sums could overflow

  // Past every row's limit there is nothing to see (causal or padding): stop early.
  int key_end = 0;
  for (int r = 0; r < p.rows; ++r) key_end = std::max(key_end, opt.mask.row_limit(p.b, p.row0 + r, p.n_k));

  for (int j0 = 0; j0 < key_end; j0 += kKeyTile) {
    const int cols = std::min(kKeyTile, key_end - j0);
    kern::gemm(p.rows, cols, p.d_k, p.q, p.ldq, p.k + static_cast<std::size_t>(j0) * p.ldk, p.ldk, true,
               tile.data(), kKeyTile, alpha, nullptr, false);
    for (int r = 0; r < p.rows; ++r) {
      float* row = tile.data() + static_cast<std::size_t>(r) * kKeyTile;
      const int i = p.row0 + r;
      if (p.slopes) add_alibi(row, i, j0, cols, *p.slopes);
      if (opt.mask.any()) mask_logits(row, opt.mask, p.b, i, j0, cols, p.n_k);
      // Not std::max, which would drop a NaN tile max: NaN must spread to the output and be refused there.
      const float tile_max = kern::row_max(row, cols);
      const float new_max = (tile_max > run_max[r] || tile_max != tile_max) ? tile_max : run_max[r];
      if (new_max == kNegInf) {  // every key so far is masked: contributes nothing
        std::fill_n(row, cols, 0.0f);
        continue;
      }
      const float correction = run_max[r] == kNegInf ? 0.0f : std::exp(run_max[r] - new_max);
      double tile_sum = kern::exp_shift_row(row, cols, new_max);
      if (damping != 1.0f) {  // a power of two: the same factor on every term and on the sum
        kern::scale(row, cols, damping);
        tile_sum *= damping;
      }
      run_sum[r] = run_sum[r] * correction + tile_sum;
      if (correction != 1.0f) kern::scale(p.out + static_cast<std::size_t>(r) * p.ldo, p.d_v, correction);
      run_max[r] = new_max;
      if (dropout_active(opt)) apply_dropout(row, opt, p.b, p.h, i, j0, cols);
    }
    // out += P·V_tile (unnormalised; divided by the running sum at the end).
    kern::gemm(p.rows, p.d_v, cols, tile.data(), kKeyTile, p.v + static_cast<std::size_t>(j0) * p.ldv, p.ldv,
               false, p.out, p.ldo, 1.0f, nullptr, true);
  }
  for (int r = 0; r < p.rows; ++r) {
    float* out_row = p.out + static_cast<std::size_t>(r) * p.ldo;
    if (run_sum[r] == 0.0) {
      std::fill_n(out_row, p.d_v, 0.0f);
      if (masked_rows && p.h == 0) masked_rows->push_back({p.b, p.row0 + r});
    } else {
      kern::scale(out_row, p.d_v, static_cast<float>(1.0 / run_sum[r]));
    }
  }
}


}  // namespace

void mask_logits(float* row, const Mask& mask, int b, int i, int j0, int count, int n_k) {
  const int limit = mask.row_limit(b, i, n_k) - j0;
  for (int j = std::max(limit, 0); j < count; ++j) row[j] = kNegInf;
  if (!mask.matrix.empty())
    kern::mask_row(row, mask.matrix.data() + static_cast<std::size_t>(i) * n_k + j0, std::min(count, std::max(limit, 0)));
  // Out of line (mask.cpp, compiled for size): the sparse patterns are rare next to this hot path.
  if (mask.window > 0 || mask.stride > 0) mask.hide_sparse(row, i, j0, std::min(count, std::max(limit, 0)));
}

void block_logits(const HeadProblem& p, const AttentionOptions& opt, const PackedB& k_packed, int r0, int rows,
                  float* logits) {
  // exact: q_prescale is a power of two (guard_logits), undone in α.
  kern::gemm_packed(rows, p.q + static_cast<std::size_t>(r0) * p.ldq, p.ldq, k_packed, logits, p.n_k,
                    logit_scale(opt, p.d_k) / p.q_prescale, nullptr, false);
  if (p.slopes) add_alibi_rows(logits, p.n_k, rows, p.row0 + r0, p.n_k, *p.slopes);
}

float logit_scale(const AttentionOptions& opt, int d_k) {
  return opt.scale ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_k))) : 1.0f;
}

double max_row_norm2(const float* x, int ld, int rows, int width) {
  double worst = 0.0;
  for (int r = 0; r < rows; ++r) {
    const float* row = x + static_cast<std::size_t>(r) * ld;
    // Four partial sums: one chain of dependent double adds ran at a quarter of the speed.
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int c = 0;
    for (; c + 4 <= width; c += 4) {
      s0 += static_cast<double>(row[c]) * row[c];
      s1 += static_cast<double>(row[c + 1]) * row[c + 1];
      s2 += static_cast<double>(row[c + 2]) * row[c + 2];
      s3 += static_cast<double>(row[c + 3]) * row[c + 3];
    }
    for (; c < width; ++c) s0 += static_cast<double>(row[c]) * row[c];
    const double s = (s0 + s1) + (s2 + s3);
    // Not std::max, which keeps `worst` when s is NaN: a NaN row must reach the guard. Once
    // worst is NaN, no comparison replaces it.
    if (s > worst || s != s) worst = s;
  }
  return worst;
}

void require_finite_stage(const char* stage, double norm2, int b, int h) {
  if (std::isfinite(norm2)) return;
  throw Error(std::string(stage) + " overflowed float32 (batch item " + std::to_string(b) + ", head " +
              std::to_string(h) + ", " + (norm2 != norm2 ? "NaN" : "±Infinity") +
              "): the input values or weights are too large, scale them down");
}

void require_unscaled_logits(const char* who, const char* kind, double q_norm2, double k_norm2, double v_norm2,
                             float alpha, int b, int h) {
  const std::string stage(kind);
  require_finite_stage(("the query " + stage).c_str(), q_norm2, b, h);
  require_finite_stage(("the key " + stage).c_str(), k_norm2, b, h);
  require_finite_stage(("the value " + stage).c_str(), v_norm2, b, h);
  if (guard_logits(q_norm2, k_norm2, alpha, h) != 1.0f)
    throw Error(std::string("the unscaled scores q·k of head ") + std::to_string(h) + " can overflow float32 (|q|·|k| " +
                "reaches 1e38), so " + who + " cannot be computed; the forward pass handles this head by " +
                "scaling q down by a power of two, scale the inputs or weights down to use " + who);
}

float guard_logits(double q_norm2, double k_norm2, float alpha, int h) {
  const double unscaled = std::sqrt(q_norm2) * std::sqrt(k_norm2);
  const double bound = unscaled * alpha;
  if (!(bound < 1e38)) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "the attention scores can overflow float32: |q|·|k|·scale reaches %.3g (head %d), not below "
                  "1e38; the queries and keys are too large, scale the inputs or weights down",
                  bound, h);
    throw Error(buf);
  }
  if (unscaled < 1e38) return 1.0f;
  // 2^-e·|q|·|k| < 1e38; α ≥ 2^-10 (d_k ≤ 2^20) keeps e ≤ 11, far from float's exponent range.
  const int e = std::max(1, static_cast<int>(std::ceil(std::log2(unscaled / 1e38))) + 1);
  return std::ldexp(1.0f, -e);
}

int softmax_rows(int n_k) { return std::max(4, std::min(64, (131072 / std::max(n_k, 1)) / 4 * 4)); }

HeadWorkingFloats attend_working_floats(const AttentionOptions& opt, int n_q, int n_k, int d_k, int d_v,
                                        bool need_weights) {
  const Count NK = n_k, dk = d_k, Bc = kKeyTile;
  const Count dv8 = (Count(d_v) + 7).value() / 8 * 8, nk8 = (NK + 7).value() / 8 * 8;
  auto tile_rows = [](int rows) { return Count((std::min(rows, 64) + 3) / 4 * 4); };  // the A-pack's rows
  auto larger = [](Count a, Count b) { return a.value() < b.value() ? b : a; };
  // Each path keeps its own thread_local buffers, so a call whose full query blocks stream and
  // whose last, shorter block takes whole rows holds both sets; the matmul's A-pack is shared.
  Count whole = 0, streaming = 0, a_pack = 0;
  const int full = std::min(n_q, kQueryBlock), last = n_q % kQueryBlock;
  for (const int rows : {full, last}) {
    if (rows == 0) continue;
    if (need_weights || uses_scratch(opt, rows, n_k)) {
      // K and V packed side by side, the sub-block of logits (in the caller's weights buffer when
      // weights are requested) with its row sums; the matmul packs a sub-block of Q (d_k wide)
      // and of the weights (n_k wide).
      const int step = std::min(softmax_rows(n_k), rows);
      whole = larger(whole, dk * nk8 + NK * dv8 + (need_weights ? Count(0) : Count(step) * NK) + step);
      a_pack = larger(a_pack, tile_rows(step) * larger(NK, dk));
    } else {
      // One tile of logits, running max and sum (float, double) per row, one key tile of K or V
      // packed at a time; the matmul packs a block's Q (d_k wide) and a tile of weights.
      streaming = larger(streaming, Count(rows) * Bc + Count(3) * rows + larger(dk * Bc, Bc * dv8));
      a_pack = larger(a_pack, tile_rows(rows) * larger(Bc, dk));
    }
  }
  return {(whole + streaming).value(), a_pack.value()};
}

void AttentionOptions::validate(int batch, int n_q, int n_k) const {
  require(dropout >= 0.0f && dropout < 1.0f,
          "dropout must be in [0, 1) (got " + std::to_string(dropout) + ")");
  mask.validate(batch, n_q, n_k);
}

void attend_head(const HeadProblem& p, const AttentionOptions& opt, std::vector<MaskedRow>* masked_rows) {
  if (p.weights) {
    attend_whole_rows(p, opt, true, masked_rows);
  } else if (uses_scratch(opt, p.rows, p.n_k)) {
    thread_local Scratch<FloatBuffer> scratch;
    scratch.resize((Count(std::min(softmax_rows(p.n_k), p.rows)) * p.n_k).size());
    HeadProblem in_scratch = p;
    in_scratch.weights = scratch.data();
    in_scratch.weights_step = 0;  // every head of a group reuses the scratch
    attend_whole_rows(in_scratch, opt, false, masked_rows);
  } else {
    // Each key tile is packed inside its matmul, a 1/rows share of that matmul's work.
    for (int g = 0; g < p.heads; ++g) attend_streaming(p.query_head(g), opt, masked_rows);
  }
}

void validate_attention_sizes(std::size_t q_len, std::size_t k_len, std::size_t v_len, int batch, int n_q, int n_k,
                              int d_k, int d_v, const AttentionOptions& opt) {
  // Each size at most kMaxDim, as for a layer, so every index of a row stays inside 32 bits.
  require_dim("batch", batch);
  require_dim("n_q", n_q);
  require_dim("n_k", n_k);
  require_dim("d_k", d_k);
  require_dim("d_v", d_v);
  // Every count in 64 bits through Count: with batch 2^24, n 2^30, d_k 2^19 the plain products
  // wrapped around 2^64, matched an empty buffer and passed every check.
  const Count q_count = Count(batch) * n_q * d_k, k_count = Count(batch) * n_k * d_k,
              v_count = Count(batch) * n_k * d_v;
  require_length("q", q_len, q_count.value(), "[batch, n_q, d_k] = [" + std::to_string(batch) + ", " +
                 std::to_string(n_q) + ", " + std::to_string(d_k) + "]");
  require_length("k", k_len, k_count.value(), "[batch, n_k, d_k] = [" + std::to_string(batch) + ", " +
                 std::to_string(n_k) + ", " + std::to_string(d_k) + "]");
  require_length("v", v_len, v_count.value(), "[batch, n_k, d_v] = [" + std::to_string(batch) + ", " +
                 std::to_string(n_k) + ", " + std::to_string(d_v) + "]");
  opt.validate(batch, n_q, n_k);
  require(opt.positional == Positional::none,
          "positional ('rope', 'alibi') applies to MultiHeadAttention, where q and k have head and position");
}

void require_finite_attention_inputs(const float* q, std::size_t q_len, const float* k, std::size_t k_len,
                                     const float* v, std::size_t v_len, int d_k, int d_v) {
  require_finite("q", q, q_len, d_k);
  require_finite("k", k, k_len, d_k);
  require_finite("v", v, v_len, d_v);
}

AttentionResult scaled_dot_product_attention(const float* q, std::size_t q_len, const float* k,
                                             std::size_t k_len, const float* v, std::size_t v_len,
                                             int batch, int n_q, int n_k, int d_k, int d_v,
                                             const AttentionOptions& opt, bool need_weights,
                                             std::uint64_t memory_budget) {
  validate_attention_sizes(q_len, k_len, v_len, batch, n_q, n_k, d_k, d_v, opt);
  const Count q_count = Count(batch) * n_q * d_k, k_count = Count(batch) * n_k * d_k,
              v_count = Count(batch) * n_k * d_v, out_count = Count(batch) * n_q * d_v;
  const Count weight_count = need_weights ? Count(batch) * n_q * n_k : Count(0);
  const HeadWorkingFloats work = attend_working_floats(opt, n_q, n_k, d_k, d_v, need_weights);
  // A block of q multiplied by guard_logits' power of two, when the unscaled logits could overflow.
  const Count q_block_count = Count(std::min(n_q, kQueryBlock)) * d_k;
  // Inputs (copied into the heap by callers such as the JS API), output, weights, working buffers,
  // the prescaled q block and the two row norms (double) per batch item of the overflow guard.
  const Count needed = Count(4) * (q_count + k_count + v_count + out_count + weight_count + work.buffers +
                                   work.a_pack + q_block_count + Count(4) * batch);
  require_within_budget("this attention", needed.value() + opt.mask.bytes(), memory_budget);
  require_finite_attention_inputs(q, q_len, k, k_len, v, v_len, d_k, d_v);

  const std::size_t NQ = n_q, NK = n_k;
  AttentionResult result;
  result.output.assign(out_count.size(), 0.0f);
  if (need_weights) result.weights.assign(weight_count.size(), 0.0f);
  std::vector<double> k_norm2(batch), v_norm2(batch);
  for (int b = 0; b < batch; ++b) {
    k_norm2[b] = max_row_norm2(k + b * NK * d_k, d_k, n_k, d_k);
    v_norm2[b] = max_row_norm2(v + b * NK * d_v, d_v, n_k, d_v);
  }
  std::vector<float> q_prescaled;  // allocated the first time a block needs it
  const float alpha = logit_scale(opt, d_k);
  for (int b = 0; b < batch; ++b) {
    for (int i0 = 0; i0 < n_q; i0 += kQueryBlock) {
      const int rows = std::min(kQueryBlock, n_q - i0);
      const float* q_block = q + (b * NQ + i0) * d_k;
      const float q_prescale = guard_logits(max_row_norm2(q_block, d_k, rows, d_k), k_norm2[b], alpha, 0);
      if (q_prescale != 1.0f) {
        q_prescaled.resize(q_block_count.size());
        for (int r = 0; r < rows; ++r) {
          float* row = q_prescaled.data() + static_cast<std::size_t>(r) * d_k;
          std::copy_n(q_block + static_cast<std::size_t>(r) * d_k, d_k, row);
          kern::scale(row, d_k, q_prescale);
        }
        q_block = q_prescaled.data();
      }
      HeadProblem p{};  // by name, as mha.cpp fills it: several fields of one type side by side
      p.q = q_block;
      p.ldq = d_k;
      p.k = k + b * NK * d_k;
      p.ldk = d_k;
      p.v = v + b * NK * d_v;
      p.ldv = d_v;
      p.out = result.output.data() + (b * NQ + i0) * d_v;
      p.ldo = d_v;
      p.weights = need_weights ? result.weights.data() + (b * NQ + i0) * NK : nullptr;
      p.rows = rows;
      p.n_k = n_k;
      p.d_k = d_k;
      p.d_v = d_v;
      p.row0 = i0;
      p.b = b;
      p.h = 0;
      p.v_bound = std::sqrt(v_norm2[b]);
      p.q_prescale = q_prescale;
      attend_head(p, opt, &result.masked_rows);
    }
  }
  // Finite inputs can still give an infinite average (values near 3.4e38, or dropout's 1/(1−p)
  // on top): say so rather than return ±∞.
  const std::size_t bad = first_non_finite(result.output.data(), result.output.size());
  if (bad != result.output.size())
    throw Error("the attention output overflowed float32 at batch item " + std::to_string(bad / (NQ * d_v)) +
                ", query " + std::to_string(bad / d_v % NQ) + ": the values are too large, scale them down");
  return result;
}

}  // namespace attn
