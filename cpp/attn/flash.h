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
#include <string>
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

/// The state of the traced row after the keys [0, key_end) have been seen.
struct FlashTile {
  int key_start = 0, key_end = 0;
  double m = 0;                 // running max of the row's logits over [0, key_end) (−∞ while none is visible)
  double l = 0;                 // running Σ exp(logit − m)
  std::vector<float> o;         // d_v: Σ exp(logit − m)·v / l (0 while l = 0)
  double m_prev = 0;            // m before this block
  double rescale = 1;           // exp(m_prev − m): what the old ℓ and o were multiplied by (0 from m_prev = −∞)
  double block_max = 0;         // max of this block's logits for the row (−∞ when all are masked)
  double block_sum = 0;         // Σ over this block of exp(logit − m)
  int visible = 0;              // keys of this block the row may see
  bool skipped = false;         // the whole query block sees none of these keys (causal): never loaded
  std::vector<double> logits;   // this block's scaled logits for the row, −∞ where masked
};

/// One term of a memory-traffic count: what it is, its formula in the lesson's sizes, its count.
struct IoTerm {
  std::string what, formula;
  std::uint64_t reads = 0, writes = 0;
};

struct IoCount {
  std::vector<IoTerm> terms;
  std::uint64_t reads = 0, writes = 0, total = 0;
  std::string order;            // the paper's Θ(·)
  double order_value = 0;       // that expression at n = max(n_q, n_k), d = max(d_k, d_v), M = sram
};

/// Slow-memory traffic in elements of the standard algorithm (S, then P, then O, each written
/// out and read back) and of the tiled one (loop order of FlashAttention-2: each query block
/// reads its Q block once, every key/value block it does not skip, and writes its O block once).
struct FlashIo {
  std::int64_t sram = 0;
  int block_q = 0, block_k = 0;     // B_r, B_c in use
  int query_blocks = 0, key_blocks = 0;
  int default_block_q = 0, default_block_k = 0;  // the paper's choice for this M: B_c = ⌊M/4d⌋, B_r = min(B_c, d)
  std::uint64_t sram_needed = 0;    // (B_r + B_c)·(d_k + d_v): the Q, O, K and V blocks on chip
  std::uint64_t s_tile = 0;         // B_r·B_c logits of one tile (held in registers in the paper's count)
  bool fits = false;                // sram_needed ≤ M
  std::uint64_t blocks_loaded = 0;  // key/value blocks read, over query blocks and batch items
  IoCount standard, tiled;
  double ratio = 0;                 // standard.total / tiled.total
};

struct FlashResult {
  std::vector<float> output;        // [batch, n_q, d_v]
  std::vector<FlashTile> tiles;     // the traced row, one per key block in order (empty without a trace)
  FlashIo io;
};

/// The paper's default block sizes for an on-chip memory of `sram` elements, clamped to n_q and
/// n_k: B_c = max(1, ⌊M / (4·max(d_k, d_v))⌋), B_r = min(B_c, max(d_k, d_v)). Sizes must be valid.
void flash_default_blocks(std::int64_t sram, int n_q, int n_k, int d_k, int d_v, int* block_q, int* block_k);

/// The IO model alone (nothing allocated); block sizes 0 take the defaults. Throws Error naming a
/// bad size, a block size < 1 or an `sram` too small to hold one row each of Q, K, V and O.
FlashIo flash_io(int batch, int n_q, int n_k, int d_k, int d_v, bool causal, int block_q, int block_k,
                 std::int64_t sram);

/// q [batch, n_q, d_k], k [batch, n_k, d_k], v [batch, n_k, d_v], row-major. Throws Error naming
/// the field for wrong lengths, bad sizes or block sizes, a traced row out of range, non-finite inputs.
FlashResult flash_attention(const float* q, std::size_t q_len, const float* k, std::size_t k_len, const float* v,
                            std::size_t v_len, int batch, int n_q, int n_k, int d_k, int d_v, const FlashOptions& opt);

}  // namespace attn
