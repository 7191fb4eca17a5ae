// Scaled dot-product attention for one head and one block of query rows, in the two forms
// described in attention.h, plus the batched entry point used by the JS API and the tests.
#include "attention.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "error.h"
#include "kernels.h"
#include "rng.h"

namespace attn {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Masks the logits of query row i (global index) for keys [j0, j0 + count).
void mask_logits(float* row, const Mask& mask, int b, int i, int j0, int count, int n_k) {
  const int limit = mask.row_limit(b, i, n_k) - j0;
  for (int j = std::max(limit, 0); j < count; ++j) row[j] = kNegInf;
  if (!mask.matrix.empty())
    kern::mask_row(row, mask.matrix.data() + static_cast<std::size_t>(i) * n_k + j0, std::min(count, std::max(limit, 0)));
}

// Zeroes dropped weights and scales kept ones by 1/(1−p) for keys [j0, j0 + count).
void apply_dropout(float* row, const AttentionOptions& opt, int b, int h, int i, int j0, int count) {
  const float keep_scale = 1.0f / (1.0f - opt.dropout);
  for (int j = 0; j < count; ++j)
    row[j] = dropout_keep(opt.seed, b, h, i, j0 + j, opt.dropout) ? row[j] * keep_scale : 0.0f;
}

bool dropout_active(const AttentionOptions& opt) { return opt.training && opt.dropout > 0.0f; }

// Weights written out: S = αQKᵀ into the weights rows, mask, softmax, dropout, then A·V.
void attend_materialised(const HeadProblem& p, const AttentionOptions& opt, std::vector<MaskedRow>* masked_rows) {
  kern::gemm(p.rows, p.n_k, p.d_k, p.q, p.ldq, p.k, p.ldk, true, p.weights, p.n_k, logit_scale(opt, p.d_k),
             nullptr, false);
  for (int r = 0; r < p.rows; ++r) {
    float* row = p.weights + static_cast<std::size_t>(r) * p.n_k;
    const int i = p.row0 + r;
    if (opt.mask.any()) mask_logits(row, opt.mask, p.b, i, 0, p.n_k, p.n_k);
    if (!kern::softmax_row(row, p.n_k)) {
      if (masked_rows && p.h == 0) masked_rows->push_back({p.b, i});
      continue;
    }
    if (dropout_active(opt)) apply_dropout(row, opt, p.b, p.h, i, 0, p.n_k);
  }
  kern::gemm(p.rows, p.d_v, p.n_k, p.weights, p.n_k, p.v, p.ldv, false, p.out, p.ldo, 1.0f, nullptr, false);
}

// Streaming: key tiles with a running max m and running sum l per row (online softmax),
// so only a rows×kKeyTile tile of logits ever exists. Dropout follows the same
// (seed, b, h, i, j) pattern as the materialised path, so both give the same output.
void attend_streaming(const HeadProblem& p, const AttentionOptions& opt, std::vector<MaskedRow>* masked_rows) {
  thread_local std::vector<float> tile;
  thread_local std::vector<float> run_max;
  thread_local std::vector<double> run_sum;
  tile.resize(static_cast<std::size_t>(p.rows) * kKeyTile);
  run_max.assign(p.rows, kNegInf);
  run_sum.assign(p.rows, 0.0);
  for (int r = 0; r < p.rows; ++r) std::fill_n(p.out + static_cast<std::size_t>(r) * p.ldo, p.d_v, 0.0f);
  const float alpha = logit_scale(opt, p.d_k);

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
      if (opt.mask.any()) mask_logits(row, opt.mask, p.b, i, j0, cols, p.n_k);
      const float new_max = std::max(run_max[r], kern::row_max(row, cols));
      if (new_max == kNegInf) {  // every key so far is masked: contributes nothing
        std::fill_n(row, cols, 0.0f);
        continue;
      }
      const float correction = run_max[r] == kNegInf ? 0.0f : std::exp(run_max[r] - new_max);
      const double tile_sum = kern::exp_shift_row(row, cols, new_max);
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

float logit_scale(const AttentionOptions& opt, int d_k) {
  return opt.scale ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_k))) : 1.0f;
}

double max_row_norm2(const float* x, int ld, int rows, int width) {
  double worst = 0.0;
  for (int r = 0; r < rows; ++r) {
    const float* row = x + static_cast<std::size_t>(r) * ld;
    double s = 0.0;
    for (int c = 0; c < width; ++c) s += static_cast<double>(row[c]) * row[c];
    worst = std::max(worst, s);
  }
  return worst;
}

void require_finite_logits(double q_norm2, double k_norm2, double v_norm2, float alpha, int h) {
  const double bound = std::sqrt(q_norm2) * std::sqrt(k_norm2) * alpha;
  if (!(bound < 1e38)) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "the attention scores can overflow float32: |q|·|k|·scale reaches %.3g (head %d), beyond "
                  "3.4e38; the queries and keys are too large, scale the inputs or weights down",
                  bound, h);
    throw Error(buf);
  }
  if (!std::isfinite(v_norm2))
    throw Error("the value vectors of head " + std::to_string(h) + " overflowed float32; scale the inputs or weights down");
}

void AttentionOptions::validate(int batch, int n_q, int n_k) const {
  require(dropout >= 0.0f && dropout < 1.0f,
          "dropout must be in [0, 1) (got " + std::to_string(dropout) + ")");
  mask.validate(batch, n_q, n_k);
}

void attend_head(const HeadProblem& p, const AttentionOptions& opt, std::vector<MaskedRow>* masked_rows) {
  if (p.weights) {
    attend_materialised(p, opt, masked_rows);
  } else if (uses_scratch(opt, p.rows, p.n_k)) {
    thread_local std::vector<float> scratch;
    scratch.resize(static_cast<std::size_t>(p.rows) * p.n_k);
    HeadProblem in_scratch = p;
    in_scratch.weights = scratch.data();
    attend_materialised(in_scratch, opt, masked_rows);
  } else {
    attend_streaming(p, opt, masked_rows);
  }
}

AttentionResult scaled_dot_product_attention(const float* q, std::size_t q_len, const float* k,
                                             std::size_t k_len, const float* v, std::size_t v_len,
                                             int batch, int n_q, int n_k, int d_k, int d_v,
                                             const AttentionOptions& opt, bool need_weights,
                                             std::uint64_t memory_budget) {
  require_positive("batch", batch);
  require_positive("n_q", n_q);
  require_positive("n_k", n_k);
  require_positive("d_k", d_k);
  require_positive("d_v", d_v);
  const std::uint64_t B = batch, NQ = n_q, NK = n_k;
  require_length("q", q_len, B * NQ * d_k, "[batch, n_q, d_k] = [" + std::to_string(batch) + ", " +
                 std::to_string(n_q) + ", " + std::to_string(d_k) + "]");
  require_length("k", k_len, B * NK * d_k, "[batch, n_k, d_k] = [" + std::to_string(batch) + ", " +
                 std::to_string(n_k) + ", " + std::to_string(d_k) + "]");
  require_length("v", v_len, B * NK * d_v, "[batch, n_k, d_v] = [" + std::to_string(batch) + ", " +
                 std::to_string(n_k) + ", " + std::to_string(d_v) + "]");
  opt.validate(batch, n_q, n_k);
  const int block_rows = std::min(n_q, kQueryBlock);
  const std::uint64_t block_logits = uses_scratch(opt, block_rows, n_k)
                                         ? static_cast<std::uint64_t>(block_rows) * NK
                                         : static_cast<std::uint64_t>(block_rows) * kKeyTile;
  // Inputs (copied into the heap by callers such as the JS API), output, logits, and the matmul's
  // packed operands: all of K_i and V_i (rounded up to 8 columns) and up to 64 rows of weights.
  const bool whole_rows = need_weights || uses_scratch(opt, block_rows, n_k);
  const std::uint64_t cols = whole_rows ? NK : static_cast<std::uint64_t>(kKeyTile);
  const std::uint64_t packs = static_cast<std::uint64_t>(d_k) * ((cols + 7) / 8 * 8) +
                              cols * ((static_cast<std::uint64_t>(d_v) + 7) / 8 * 8) +
                              std::min<std::uint64_t>(block_rows, 64) * cols;
  const std::uint64_t needed = 4 * (B * NQ * d_k + B * NK * (d_k + d_v) + B * NQ * d_v +
                                    (need_weights ? B * NQ * NK : block_logits) + packs);
  require_within_budget("this attention", needed, memory_budget);
  require_finite("q", q, q_len, d_k);
  require_finite("k", k, k_len, d_k);
  require_finite("v", v, v_len, d_v);

  AttentionResult result;
  result.output.assign(B * NQ * d_v, 0.0f);
  if (need_weights) result.weights.assign(B * NQ * NK, 0.0f);
  std::vector<double> k_norm2(batch), v_norm2(batch);
  for (int b = 0; b < batch; ++b) {
    k_norm2[b] = max_row_norm2(k + b * NK * d_k, d_k, n_k, d_k);
    v_norm2[b] = max_row_norm2(v + b * NK * d_v, d_v, n_k, d_v);
  }
  for (int b = 0; b < batch; ++b) {
    for (int i0 = 0; i0 < n_q; i0 += kQueryBlock) {
      const int rows = std::min(kQueryBlock, n_q - i0);
      require_finite_logits(max_row_norm2(q + (b * NQ + i0) * d_k, d_k, rows, d_k), k_norm2[b], v_norm2[b],
                            logit_scale(opt, d_k), 0);
      HeadProblem p{q + (b * NQ + i0) * d_k, d_k, k + b * NK * d_k, d_k, v + b * NK * d_v, d_v,
                    result.output.data() + (b * NQ + i0) * d_v, d_v,
                    need_weights ? result.weights.data() + (b * NQ + i0) * NK : nullptr,
                    rows, n_k, d_k, d_v, i0, b, 0};
      attend_head(p, opt, &result.masked_rows);
    }
  }
  return result;
}

}  // namespace attn
