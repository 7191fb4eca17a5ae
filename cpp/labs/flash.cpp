// FlashAttention's tiled forward pass with the online softmax, its trace of one query row, and
// its slow-memory (IO) model against standard attention. See flash.h.
#include "flash.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/count.h"
#include "core/dims.h"
#include "core/error.h"
#include "core/trace.h"

namespace attn {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

void require_dims(int batch, int n_q, int n_k, int d_k, int d_v) {
  const char* names[] = {"batch", "n_q", "n_k", "d_k", "d_v"};
  const int values[] = {batch, n_q, n_k, d_k, d_v};
  for (int x = 0; x < 5; ++x) require_dim(names[x], values[x]);
}

void check_sizes(int batch, int n_q, int n_k, int d_k, int d_v, std::int64_t sram) {
  require_dims(batch, n_q, n_k, d_k, d_v);
  // One row each of Q, K, V and O must fit on chip, or no tiling exists.
  const std::int64_t least = 2 * (static_cast<std::int64_t>(d_k) + d_v);
  require(sram >= least && sram <= (std::int64_t{1} << 53),
          "sram (the on-chip memory M, in elements) must be a whole number from 2·(d_k + d_v) = " +
              group_digits(least) + " (one row each of Q, K, V and O) to 2^53, got " + std::to_string(sram));
}

// Key/value rows the query block [i0, i1) reads: every key block, or under the causal mask only
// the blocks that start at or before its last row (the others are skipped whole).
std::uint64_t keys_read(int i1, int n_k, int block_k, bool causal) {
  if (!causal) return static_cast<std::uint64_t>(n_k);
  const int last = i1 - 1;  // a block [j0, …) with j0 ≤ last is read
  const int blocks = std::min((n_k + block_k - 1) / block_k, last / block_k + 1);
  return static_cast<std::uint64_t>(std::min(n_k, blocks * block_k));
}

// Sums a side's terms (each a count that fits: Count threw otherwise).
template <int N>
void finish(IoSide<N>& side) {
  for (int x = 0; x < N; ++x) {
    side.read_total = (Count(side.read_total) + side.reads[x]).value();
    side.write_total = (Count(side.write_total) + side.writes[x]).value();
  }
  side.total = (Count(side.read_total) + side.write_total).value();
}

}  // namespace

void require_attention_arrays(std::size_t q_len, std::size_t k_len, std::size_t v_len, int batch, int n_q, int n_k,
                              int d_k, int d_v) {
  require_dims(batch, n_q, n_k, d_k, d_v);
  const char* names[] = {"query", "key", "value"};
  // The message gives both counts: "query has 23 values but [batch, n_q, d_k] needs 24".
  const char* dims[] = {"[batch, n_q, d_k]", "[batch, n_k, d_k]", "[batch, n_k, d_v]"};
  const std::size_t got[] = {q_len, k_len, v_len};
  const int rows[] = {n_q, n_k, n_k}, widths[] = {d_k, d_k, d_v};
  for (int x = 0; x < 3; ++x) require_length(names[x], got[x], (Count(batch) * rows[x] * widths[x]).value(), dims[x]);
}

void flash_paper_blocks(std::int64_t sram, int d_k, int d_v, std::int64_t* block_q, std::int64_t* block_k) {
  const std::int64_t d = std::max(d_k, d_v);
  *block_k = std::max<std::int64_t>(1, sram / (4 * d));
  *block_q = std::min(*block_k, d);
}

void flash_default_blocks(std::int64_t sram, int n_q, int n_k, int d_k, int d_v, int* block_q, int* block_k) {
  std::int64_t bq = 0, bk = 0;
  flash_paper_blocks(sram, d_k, d_v, &bq, &bk);
  *block_k = static_cast<int>(std::min<std::int64_t>(bk, n_k));
  *block_q = static_cast<int>(std::min<std::int64_t>(bq, n_q));
}

FlashIo flash_io(int batch, int n_q, int n_k, int d_k, int d_v, bool causal, int block_q, int block_k,
                 std::int64_t sram) {
  check_sizes(batch, n_q, n_k, d_k, d_v, sram);
  FlashIo io;
  io.sram = sram;
  flash_default_blocks(sram, n_q, n_k, d_k, d_v, &io.default_block_q, &io.default_block_k);
  flash_paper_blocks(sram, d_k, d_v, &io.paper_block_q, &io.paper_block_k);
  // 0 asks for the default; a negative block size is an error (require_positive names it).
  if (block_q < 0 || block_k < 0) require_positive(block_q < 0 ? "block_q" : "block_k", block_q < 0 ? block_q : block_k);
  // A block larger than the sequence is the whole sequence.
  io.block_q = block_q == 0 ? io.default_block_q : std::min(block_q, n_q);
  io.block_k = block_k == 0 ? io.default_block_k : std::min(block_k, n_k);
  io.query_blocks = (n_q + io.block_q - 1) / io.block_q;
  io.key_blocks = (n_k + io.block_k - 1) / io.block_k;
  io.sram_needed = (Count(io.block_q + io.block_k) * (d_k + d_v)).value();
  io.s_tile = (Count(io.block_q) * io.block_k).value();
  io.fits = io.sram_needed <= static_cast<std::uint64_t>(sram);

  const Count b(batch), nq(n_q), nk(n_k), dk(d_k), dv(d_v);
  IoSide<5>& s = io.standard;  // the terms in flash.h's order
  s.reads[0] = (b * (nq + nk) * dk).value();
  s.writes[1] = (b * nq * nk).value();
  s.reads[2] = s.writes[2] = s.writes[1];
  s.reads[3] = (b * (nq * nk + nk * dv)).value();
  s.writes[4] = (b * nq * dv).value();
  finish(s);

  Count rows_read = 0;  // key/value rows read over the query blocks of one batch item
  Count blocks = 0;
  for (int i0 = 0; i0 < n_q; i0 += io.block_q) {
    const std::uint64_t keys = keys_read(std::min(n_q, i0 + io.block_q), n_k, io.block_k, causal);
    rows_read += keys;
    blocks += (keys + io.block_k - 1) / io.block_k;
  }
  io.blocks_loaded = (b * blocks).value();
  IoSide<3>& t = io.tiled;
  t.reads[0] = (b * nq * dk).value();
  t.reads[1] = (b * rows_read * (dk + dv)).value();
  t.writes[2] = s.writes[4];
  finish(t);

  const double n = std::max(n_q, n_k), d = std::max(d_k, d_v), m = static_cast<double>(sram);
  s.order_value = static_cast<double>(batch) * (n * d + n * n);
  t.order_value = static_cast<double>(batch) * n * n * d * d / m;
  io.ratio = static_cast<double>(s.total) / static_cast<double>(t.total);
  return io;
}

FlashResult flash_attention(const float* q, std::size_t q_len, const float* k, std::size_t k_len, const float* v,
                            std::size_t v_len, int batch, int n_q, int n_k, int d_k, int d_v, const FlashOptions& opt) {
  FlashResult r;
  r.io = flash_io(batch, n_q, n_k, d_k, d_v, opt.causal, opt.block_q, opt.block_k, opt.sram);
  require_attention_arrays(q_len, k_len, v_len, batch, n_q, n_k, d_k, d_v);
  const bool traced = opt.trace_row != -1;  // −1: no trace
  require_index("trace.item", opt.trace_item, batch, "batch");
  if (traced) require_index("trace.query_index", opt.trace_row, n_q, "n_q");
  // The teaching path runs in double, a few hundred million multiply-adds a second.
  require_within_work("flashAttention: batch·n_q·n_k·(d_k + d_v)",
                      {static_cast<std::uint64_t>(batch), static_cast<std::uint64_t>(n_q),
                       static_cast<std::uint64_t>(n_k), static_cast<std::uint64_t>(d_k) + d_v},
                      std::uint64_t{1} << 29);
  require_finite("query", q, q_len, d_k);
  require_finite("key", k, k_len, d_k);
  require_finite("value", v, v_len, d_v);

  const int br = r.io.block_q, bc = r.io.block_k;
  const double alpha = opt.scale ? 1.0 / std::sqrt(static_cast<double>(d_k)) : 1.0;
  const std::size_t DK = d_k, DV = d_v, NQ = n_q, NK = n_k;
  if (traced) r.trace.logits.assign(NK, 0.0);
  r.output.assign(static_cast<std::size_t>(batch) * NQ * DV, 0.0f);
  // On-chip state of one query block: m, ℓ and the unnormalised output per row, the S tile.
  std::vector<double> m(br), l(br), acc(br * DV), s(bc);
  for (int b = 0; b < batch; ++b) {
    const float* qb = q + b * NQ * DK;
    const float* kb = k + b * NK * DK;
    const float* vb = v + b * NK * DV;
    for (int i0 = 0; i0 < n_q; i0 += br) {
      const int rows = std::min(br, n_q - i0);
      std::fill(m.begin(), m.end(), kNegInf);
      std::fill(l.begin(), l.end(), 0.0);
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int j0 = 0; j0 < n_k; j0 += bc) {
        const int cols = std::min(bc, n_k - j0);
        // Causal: a key block that starts after the block's last row is invisible to all its rows.
        const bool skipped = opt.causal && j0 > i0 + rows - 1;
        for (int r_ = 0; r_ < rows; ++r_) {
          const int i = i0 + r_;
          const bool follow = traced && b == opt.trace_item && i == opt.trace_row;
          double block_max = kNegInf;
          int visible = 0;
          for (int c = 0; c < cols; ++c) {
            const int j = j0 + c;
            s[c] = kNegInf;
            if (skipped || (opt.causal && j > i)) continue;
            double dot = 0;
            for (std::size_t t = 0; t < DK; ++t) dot += static_cast<double>(qb[i * DK + t]) * kb[j * DK + t];
            s[c] = alpha * dot;
            block_max = std::max(block_max, s[c]);
            ++visible;
          }
          const double m_old = m[r_], m_new = std::max(m_old, block_max);
          double factor = 1.0, sum = 0.0;
          double* o = &acc[r_ * DV];
          if (m_new != kNegInf) {  // with nothing visible yet, ℓ and o stay 0 (no −∞ − −∞ = NaN)
            factor = std::exp(m_old - m_new);  // exp(−∞) = 0 on the first visible block
            for (std::size_t t = 0; t < DV; ++t) o[t] *= factor;
            for (int c = 0; c < cols; ++c) {
              if (s[c] == kNegInf) continue;
              const double p = std::exp(s[c] - m_new);
              sum += p;
              for (std::size_t t = 0; t < DV; ++t) o[t] += p * vb[(j0 + c) * DV + t];
            }
            l[r_] = l[r_] * factor + sum;
            m[r_] = m_new;
          }
          if (follow) {
            const double stats[kTileFields] = {double(j0), double(j0 + cols), m[r_], l[r_], m_old, factor, block_max, sum,
                                               double(visible), double(skipped)};
            for (double x : stats) r.trace.stats.push_back(x);
            for (std::size_t t = 0; t < DV; ++t)
              r.trace.o.push_back(l[r_] > 0 ? static_cast<float>(o[t] / l[r_]) : 0.0f);
            std::copy(s.begin(), s.begin() + cols, r.trace.logits.begin() + j0);
          }
        }
      }
      // The block's output is written once, normalised; a row that saw no key stays 0.
      for (int r_ = 0; r_ < rows; ++r_) {
        if (!(l[r_] > 0)) continue;
        float* out = &r.output[(b * NQ + i0 + r_) * DV];
        for (std::size_t t = 0; t < DV; ++t) out[t] = static_cast<float>(acc[r_ * DV + t] / l[r_]);
      }
    }
  }
  return r;
}

}  // namespace attn
