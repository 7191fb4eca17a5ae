// FlashAttention's tiled forward pass with the online softmax, its trace of one query row, and
// its slow-memory (IO) model against standard attention. See flash.h.
#include "flash.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "count.h"
#include "dims.h"
#include "error.h"

namespace attn {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

std::string dims_text(int batch, int rows, int width, const char* r, const char* w) {
  return std::string("[batch, ") + r + ", " + w + "] = [" + std::to_string(batch) + ", " + std::to_string(rows) + ", " +
         std::to_string(width) + "]";
}

void check_sizes(int batch, int n_q, int n_k, int d_k, int d_v, std::int64_t sram) {
  require_dim("batch", batch);
  require_dim("n_q", n_q);
  require_dim("n_k", n_k);
  require_dim("d_k", d_k);
  require_dim("d_v", d_v);
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

void add(IoCount& c, const char* what, const char* formula, std::uint64_t reads, std::uint64_t writes) {
  c.terms.push_back({what, formula, reads, writes});
  c.reads = (Count(c.reads) + reads).value();
  c.writes = (Count(c.writes) + writes).value();
  c.total = (Count(c.reads) + c.writes).value();
}

}  // namespace

void flash_default_blocks(std::int64_t sram, int n_q, int n_k, int d_k, int d_v, int* block_q, int* block_k) {
  const std::int64_t d = std::max(d_k, d_v);
  const std::int64_t bc = std::max<std::int64_t>(1, sram / (4 * d));
  *block_k = static_cast<int>(std::min<std::int64_t>(bc, n_k));
  *block_q = static_cast<int>(std::min<std::int64_t>(std::min(bc, d), n_q));
}

FlashIo flash_io(int batch, int n_q, int n_k, int d_k, int d_v, bool causal, int block_q, int block_k,
                 std::int64_t sram) {
  check_sizes(batch, n_q, n_k, d_k, d_v, sram);
  FlashIo io;
  io.sram = sram;
  flash_default_blocks(sram, n_q, n_k, d_k, d_v, &io.default_block_q, &io.default_block_k);
  require(block_q >= 0, "block_q (B_r, query rows per block) must be at least 1, got " + std::to_string(block_q));
  require(block_k >= 0, "block_k (B_c, key rows per block) must be at least 1, got " + std::to_string(block_k));
  // A block larger than the sequence is the whole sequence.
  io.block_q = block_q == 0 ? io.default_block_q : std::min(block_q, n_q);
  io.block_k = block_k == 0 ? io.default_block_k : std::min(block_k, n_k);
  io.query_blocks = (n_q + io.block_q - 1) / io.block_q;
  io.key_blocks = (n_k + io.block_k - 1) / io.block_k;
  io.sram_needed = (Count(io.block_q + io.block_k) * (d_k + d_v)).value();
  io.s_tile = (Count(io.block_q) * io.block_k).value();
  io.fits = io.sram_needed <= static_cast<std::uint64_t>(sram);

  const Count b(batch), nq(n_q), nk(n_k), dk(d_k), dv(d_v);
  IoCount& s = io.standard;
  add(s, "read Q and K for S = α·Q·Kᵀ", "batch·(n_q + n_k)·d_k", (b * (nq + nk) * dk).value(), 0);
  add(s, "write S (n_q × n_k)", "batch·n_q·n_k", 0, (b * nq * nk).value());
  add(s, "read S, write P = softmax(S)", "2·batch·n_q·n_k", (b * nq * nk).value(), (b * nq * nk).value());
  add(s, "read P and V for O = P·V", "batch·(n_q·n_k + n_k·d_v)", (b * (nq * nk + nk * dv)).value(), 0);
  add(s, "write O", "batch·n_q·d_v", 0, (b * nq * dv).value());
  s.order = "Θ(n·d + n²)";

  Count rows_read = 0;  // key/value rows read over the query blocks of one batch item
  Count blocks = 0;
  for (int i0 = 0; i0 < n_q; i0 += io.block_q) {
    const std::uint64_t keys = keys_read(std::min(n_q, i0 + io.block_q), n_k, io.block_k, causal);
    rows_read += keys;
    blocks += (keys + io.block_k - 1) / io.block_k;
  }
  io.blocks_loaded = (b * blocks).value();
  IoCount& t = io.tiled;
  add(t, "read Q, one B_r-row block at a time, once", "batch·n_q·d_k", (b * nq * dk).value(), 0);
  add(t, causal ? "read K and V: each query block reads the key blocks it does not skip"
                : "read K and V once per query block",
      causal ? "batch·Σ_blocks keys_seen·(d_k + d_v)" : "batch·⌈n_q/B_r⌉·n_k·(d_k + d_v)",
      (b * rows_read * (dk + dv)).value(), 0);
  add(t, "write O, one block at a time, once", "batch·n_q·d_v", 0, (b * nq * dv).value());
  t.order = "Θ(n²·d²/M)";

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
  require_length("query", q_len, (Count(batch) * n_q * d_k).value(), dims_text(batch, n_q, d_k, "n_q", "d_k"));
  require_length("key", k_len, (Count(batch) * n_k * d_k).value(), dims_text(batch, n_k, d_k, "n_k", "d_k"));
  require_length("value", v_len, (Count(batch) * n_k * d_v).value(), dims_text(batch, n_k, d_v, "n_k", "d_v"));
  const bool traced = opt.trace_row >= 0;
  require(opt.trace_item >= 0 && opt.trace_item < batch,
          "trace.item " + std::to_string(opt.trace_item) + " is out of range 0…" + std::to_string(batch - 1) +
              " (batch = " + std::to_string(batch) + ")");
  require(opt.trace_row >= -1 && opt.trace_row < n_q,
          "trace.query_index " + std::to_string(opt.trace_row) + " is out of range 0…" + std::to_string(n_q - 1) +
              " (n_q = " + std::to_string(n_q) + ")");
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
            FlashTile tile;
            tile.key_start = j0;
            tile.key_end = j0 + cols;
            tile.m = m[r_];
            tile.l = l[r_];
            tile.o.resize(DV);
            for (std::size_t t = 0; t < DV; ++t) tile.o[t] = l[r_] > 0 ? static_cast<float>(o[t] / l[r_]) : 0.0f;
            tile.m_prev = m_old;
            tile.rescale = factor;
            tile.block_max = block_max;
            tile.block_sum = sum;
            tile.visible = visible;
            tile.skipped = skipped;
            tile.logits.assign(s.begin(), s.begin() + cols);
            r.tiles.push_back(std::move(tile));
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
