// FlashAttention (Dao et al., 2022) one tile at a time, for teaching: the query rows are taken
// B_r at a time, and for each such block the key/value rows B_c at a time, keeping per query row
// a running maximum m, a running sum ℓ of exp(logit − m) and an unnormalised output that is
// rescaled by exp(m_old − m_new) whenever m grows (the online softmax). It never holds the
// n_q × n_k matrix. One query row can be traced block by block, and a model of the slow-memory
// traffic (element reads and writes) of this tiling against standard attention is computed for
// the same sizes and an on-chip memory of M elements. The arithmetic is in double: the point is
// to show the algorithm, and the engine's fast paths (attention.h) stream the same way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn {

struct FlashOptions {
  bool causal = false;         // query i sees keys j ≤ i
  bool scale = true;           // logits × 1/√d_k
  int block_q = 0;             // B_r, query rows per block; 0 = the default for `sram`
  int block_k = 0;             // B_c, key rows per block; 0 = the default for `sram`
  std::int64_t sram = 1024;    // M: on-chip memory in elements (floats), for the defaults and the IO model
  int trace_item = 0;          // the batch item of the traced row
  int trace_row = -1;          // the traced query row; −1 = no trace
};

/// The traced row after each key block, as flat arrays (compact in the module; flash_tile below
/// reads one block back as a struct). Fields of `stats`, kTileFields per block, in this order:
enum FlashTileField {
  kKeyStart, kKeyEnd,  // the block's keys [key_start, key_end)
  kM,                  // running max of the row's logits over [0, key_end) (−∞ while none is visible)
  kL,                  // running Σ exp(logit − m)
  kMPrev,              // m before this block
  kRescale,            // exp(m_prev − m): what the old ℓ and o were multiplied by (0 from m_prev = −∞)
  kBlockMax,           // max of this block's logits for the row (−∞ when all are masked)
  kBlockSum,           // Σ over this block of exp(logit − m)
  kVisible,            // keys of this block the row may see
  kSkipped,            // 1: the whole query block sees none of these keys (causal), never loaded
  kTileFields
};
struct FlashTrace {
  std::vector<double> stats;   // kTileFields per key block, in order (empty without a trace)
  std::vector<float> o;        // d_v per key block: Σ exp(logit − m)·v / ℓ over [0, key_end) (0 while ℓ = 0)
  std::vector<double> logits;  // n_k: the row's scaled logits, −∞ where masked (block t: [key_start, key_end))
};

/// Slow-memory traffic, in elements, of one algorithm: reads and writes per term, their sums, and
/// the paper's order evaluated at n = max(n_q, n_k), d = max(d_k, d_v), M = sram.
template <int Terms>
struct IoSide {
  std::uint64_t reads[Terms] = {}, writes[Terms] = {};
  std::uint64_t read_total = 0, write_total = 0, total = 0;
  double order_value = 0;
};

/// The standard algorithm writes S, then P, then O and reads each back; its terms, in order:
/// read Q and K for S = α·Q·Kᵀ; write S; read S and write P = softmax(S); read P and V for O = P·V;
/// write O (Θ(n·d + n²)). The tiled one (FlashAttention-2's loop order): read Q once, one block at a
/// time; read K and V once per query block, minus the blocks a causal mask lets it skip; write O
/// once (Θ(n²·d²/M)).
struct FlashIo {
  std::int64_t sram = 0;
  int block_q = 0, block_k = 0;     // B_r, B_c in use
  int query_blocks = 0, key_blocks = 0;
  int default_block_q = 0, default_block_k = 0;  // the paper's choice for this M: B_c = ⌊M/4d⌋, B_r = min(B_c, d)
  std::int64_t paper_block_q = 0, paper_block_k = 0;  // the same before the cut to n_q and n_k (what a longer sequence gets)
  std::uint64_t sram_needed = 0;    // (B_r + B_c)·(d_k + d_v): the Q, O, K and V blocks on chip
  std::uint64_t s_tile = 0;         // B_r·B_c logits of one tile (held in registers in the paper's count)
  bool fits = false;                // sram_needed ≤ M
  std::uint64_t blocks_loaded = 0;  // key/value blocks read, over query blocks and batch items
  IoSide<5> standard;
  IoSide<3> tiled;
  double ratio = 0;                 // standard.total / tiled.total
};

struct FlashResult {
  std::vector<float> output;        // [batch, n_q, d_v]
  FlashTrace trace;
  FlashIo io;
};

/// One key block of a trace, as a struct (for callers in C++; the bindings send the flat arrays).
struct FlashTile {
  int key_start, key_end, visible;
  bool skipped;
  double m, l, m_prev, rescale, block_max, block_sum;
  std::vector<float> o;
  std::vector<double> logits;
};
inline int flash_tile_count(const FlashTrace& t) { return static_cast<int>(t.stats.size() / kTileFields); }
inline FlashTile flash_tile(const FlashTrace& t, int block, int d_v) {
  const double* s = &t.stats[static_cast<std::size_t>(block) * kTileFields];
  FlashTile x{static_cast<int>(s[kKeyStart]), static_cast<int>(s[kKeyEnd]), static_cast<int>(s[kVisible]),
              s[kSkipped] != 0, s[kM], s[kL], s[kMPrev], s[kRescale], s[kBlockMax], s[kBlockSum], {}, {}};
  x.o.assign(t.o.begin() + static_cast<std::size_t>(block) * d_v, t.o.begin() + static_cast<std::size_t>(block + 1) * d_v);
  x.logits.assign(t.logits.begin() + x.key_start, t.logits.begin() + x.key_end);
  return x;
}

/// The checks shared by flash_attention and linear_attention: every size in 1 … kMaxDim, and
/// q [batch, n_q, d_k], k [batch, n_k, d_k], v [batch, n_k, d_v] of exactly those lengths (named
/// query, key and value in the messages, as the JS API names them).
void require_attention_arrays(std::size_t q_len, std::size_t k_len, std::size_t v_len, int batch, int n_q, int n_k,
                              int d_k, int d_v);

/// The paper's default block sizes for an on-chip memory of `sram` elements, clamped to n_q and
/// n_k: B_c = max(1, ⌊M / (4·max(d_k, d_v))⌋), B_r = min(B_c, max(d_k, d_v)). Sizes must be valid.
void flash_default_blocks(std::int64_t sram, int n_q, int n_k, int d_k, int d_v, int* block_q, int* block_k);

/// The paper's block sizes for `sram` before the cut to the sequence: B_c = max(1, ⌊M / (4·max(d_k, d_v))⌋),
/// B_r = min(B_c, max(d_k, d_v)). flash_default_blocks is these at most n_k and n_q.
void flash_paper_blocks(std::int64_t sram, int d_k, int d_v, std::int64_t* block_q, std::int64_t* block_k);

/// The IO model alone (nothing allocated); block sizes 0 take the defaults. Throws Error naming a
/// bad size, a block size < 1 or an `sram` too small to hold one row each of Q, K, V and O.
FlashIo flash_io(int batch, int n_q, int n_k, int d_k, int d_v, bool causal, int block_q, int block_k,
                 std::int64_t sram);

/// q [batch, n_q, d_k], k [batch, n_k, d_k], v [batch, n_k, d_v], row-major. Throws Error naming
/// the field for wrong lengths, bad sizes or block sizes, a traced row out of range, non-finite inputs.
FlashResult flash_attention(const float* q, std::size_t q_len, const float* k, std::size_t k_len, const float* v,
                            std::size_t v_len, int batch, int n_q, int n_k, int d_k, int d_v, const FlashOptions& opt);

}  // namespace attn
