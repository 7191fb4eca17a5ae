// FlashAttention one tile at a time (labs/flash.h) against float64 loops written here: the output
// against softmax attention (and the engine's own scaled_dot_product_attention), every tile of the
// traced row against the softmax of the keys seen so far, causal blocks, block sizes that do not
// divide n, of 1 and beyond n, batch > 1, the IO model's counts, and bad input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/attention.h"
#include "core/error.h"
#include "labs/flash.h"
#include "check.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_flash {

namespace {

struct Problem {
  int batch, n_q, n_k, d_k, d_v;
  std::vector<float> q, k, v;
  Problem(int batch_, int n_q_, int n_k_, int d_k_, int d_v_, std::uint64_t seed)
      : batch(batch_), n_q(n_q_), n_k(n_k_), d_k(d_k_), d_v(d_v_) {
    check::TestRng rng(seed);
    q = rng.vec(static_cast<std::size_t>(batch) * n_q * d_k, -2.0f, 2.0f);
    k = rng.vec(static_cast<std::size_t>(batch) * n_k * d_k, -2.0f, 2.0f);
    v = rng.vec(static_cast<std::size_t>(batch) * n_k * d_v, -1.0f, 1.0f);
  }
  // The row's logits in double, −∞ where the causal mask hides the key.
  std::vector<double> logits(int b, int i, bool causal, bool scale) const {
    std::vector<double> s(n_k);
    const double alpha = scale ? 1.0 / std::sqrt(static_cast<double>(d_k)) : 1.0;
    for (int j = 0; j < n_k; ++j) {
      double dot = 0;
      for (int t = 0; t < d_k; ++t)
        dot += static_cast<double>(q[(static_cast<std::size_t>(b) * n_q + i) * d_k + t]) *
               k[(static_cast<std::size_t>(b) * n_k + j) * d_k + t];
      s[j] = causal && j > i ? -INFINITY : alpha * dot;
    }
    return s;
  }
  // Softmax over the keys [0, end) of row (b, i), then the weighted values: { m, l, o }.
  struct Prefix {
    double m, l;
    std::vector<double> o;
  };
  Prefix prefix(int b, int i, int end, bool causal, bool scale) const {
    const std::vector<double> s = logits(b, i, causal, scale);
    Prefix p{-INFINITY, 0.0, std::vector<double>(d_v, 0.0)};
    for (int j = 0; j < end; ++j) p.m = std::max(p.m, s[j]);
    if (p.m == -INFINITY) return p;
    for (int j = 0; j < end; ++j) {
      const double e = std::exp(s[j] - p.m);
      p.l += e;
      for (int t = 0; t < d_v; ++t) p.o[t] += e * v[(static_cast<std::size_t>(b) * n_k + j) * d_v + t];
    }
    for (double& x : p.o) x /= p.l;
    return p;
  }
  std::vector<double> output(bool causal, bool scale) const {
    std::vector<double> out;
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n_q; ++i) {
        const Prefix p = prefix(b, i, n_k, causal, scale);
        out.insert(out.end(), p.o.begin(), p.o.end());
      }
    return out;
  }
  attn::FlashResult flash(const attn::FlashOptions& o) const {
    return attn::flash_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), batch, n_q, n_k, d_k, d_v, o);
  }
};

attn::FlashOptions options(bool causal, int block_q, int block_k, int item = 0, int row = -1, bool scale = true) {
  attn::FlashOptions o;
  o.causal = causal;
  o.scale = scale;
  o.block_q = block_q;
  o.block_k = block_k;
  o.trace_item = item;
  o.trace_row = row;
  return o;
}

struct Case {
  int batch, n_q, n_k, d_k, d_v, block_q, block_k;
  bool causal, scale;
};
// Blocks that do not divide n, blocks of 1, blocks beyond n, batch > 1, causal, unscaled.
const Case kCases[] = {
    {2, 7, 11, 5, 3, 3, 4, false, true}, {1, 16, 16, 8, 8, 1, 1, true, true}, {3, 9, 9, 4, 6, 20, 20, true, true},
    {1, 13, 10, 3, 2, 5, 3, false, false}, {2, 10, 10, 6, 4, 4, 3, true, true}, {1, 5, 17, 7, 7, 2, 16, false, true},
};

}  // namespace

TEST_CASE("flash attention's output is softmax attention's, within 1e-6 normwise", "[flash]") {
  for (const Case& c : kCases) {
    const Problem p(c.batch, c.n_q, c.n_k, c.d_k, c.d_v, 11 + c.n_q);
    const attn::FlashResult f = p.flash(options(c.causal, c.block_q, c.block_k, 0, -1, c.scale));
    INFO("batch " << c.batch << " n_q " << c.n_q << " n_k " << c.n_k << " B_r " << c.block_q << " B_c " << c.block_k
                  << " causal " << c.causal);
    const check::Worst ref = check::normwise(f.output, p.output(c.causal, c.scale));
    INFO("against float64: " << ref.describe());
    CHECK(ref.err < 1e-6);
    attn::AttentionOptions sdpa;
    sdpa.mask.causal = c.causal;
    sdpa.scale = c.scale;
    const attn::AttentionResult e = attn::scaled_dot_product_attention(
        p.q.data(), p.q.size(), p.k.data(), p.k.size(), p.v.data(), p.v.size(), c.batch, c.n_q, c.n_k, c.d_k, c.d_v, sdpa,
        false, attn::kDefaultMemoryBudget);
    const check::Worst w = check::normwise(f.output, e.output);
    INFO("against scaled_dot_product_attention: " << w.describe());
    CHECK(w.err < 1e-6);
    CHECK(f.trace.stats.empty());  // no row traced
    CHECK(f.trace.o.empty());
  }
}

TEST_CASE("every tile of the traced row holds m, l and o of the keys seen so far", "[flash]") {
  for (const Case& c : kCases) {
    const Problem p(c.batch, c.n_q, c.n_k, c.d_k, c.d_v, 5 + c.n_k);
    const int blocks = (c.n_k + std::min(c.block_k, c.n_k) - 1) / std::min(c.block_k, c.n_k);
    for (int b = 0; b < c.batch; ++b)
      for (int i = 0; i < c.n_q; ++i) {
        const attn::FlashResult f = p.flash(options(c.causal, c.block_q, c.block_k, b, i, c.scale));
        INFO("case n_q " << c.n_q << " n_k " << c.n_k << " B_c " << c.block_k << " causal " << c.causal << ", item " << b
                         << " row " << i);
        REQUIRE(attn::flash_tile_count(f.trace) == blocks);
        REQUIRE(f.trace.o.size() == static_cast<std::size_t>(blocks) * c.d_v);
        REQUIRE(static_cast<int>(f.trace.logits.size()) == c.n_k);
        double m_before = -INFINITY;
        for (int t = 0; t < blocks; ++t) {
          const attn::FlashTile tile = attn::flash_tile(f.trace, t, c.d_v);
          const int end = std::min(c.n_k, (t + 1) * std::min(c.block_k, c.n_k));
          CHECK(tile.key_start == t * std::min(c.block_k, c.n_k));
          CHECK(tile.key_end == end);
          const Problem::Prefix want = p.prefix(b, i, end, c.causal, c.scale);
          INFO("tile " << t << ": m " << tile.m << " want " << want.m << ", l " << tile.l << " want " << want.l);
          CHECK(std::isfinite(tile.m));  // key 0 is visible to every row
          CHECK(std::fabs(tile.m - want.m) <= 1e-12 * std::max(1.0, std::fabs(want.m)));
          CHECK(std::fabs(tile.l - want.l) <= 1e-12 * want.l);
          const check::Worst o = check::max_abs(tile.o, want.o);
          INFO("o: " << o.describe());
          CHECK(o.err < 1e-6);
          CHECK(tile.m_prev == m_before);
          const double rescale = m_before == -INFINITY ? 0.0 : std::exp(m_before - tile.m);
          CHECK(std::fabs(tile.rescale - rescale) <= 1e-15);
          int visible = 0;
          for (int j = tile.key_start; j < tile.key_end; ++j) visible += !(c.causal && j > i);
          CHECK(tile.visible == visible);
          CHECK(static_cast<int>(tile.logits.size()) == tile.key_end - tile.key_start);
          m_before = tile.m;
        }
        // The last tile's o is the output row, to the float.
        const float* row = &f.output[(static_cast<std::size_t>(b) * c.n_q + i) * c.d_v];
        const attn::FlashTile last = attn::flash_tile(f.trace, blocks - 1, c.d_v);
        for (int t = 0; t < c.d_v; ++t) CHECK(last.o[t] == row[t]);
        // The logits are the row's, −∞ exactly where the mask hides a key.
        const std::vector<double> want = p.logits(b, i, c.causal, c.scale);
        for (int j = 0; j < c.n_k; ++j) {
          INFO("logit " << j << ": " << f.trace.logits[j] << " want " << want[j]);
          CHECK((want[j] == -INFINITY ? f.trace.logits[j] == -INFINITY : std::fabs(f.trace.logits[j] - want[j]) <= 1e-12));
        }
      }
  }
}

TEST_CASE("causal flash attention lists the blocks past the row, unchanged, and skips whole invisible blocks", "[flash]") {
  const Problem p(1, 10, 10, 4, 3, 3);
  const attn::FlashResult r = p.flash(options(true, 4, 3, 0, 2));  // row 2 in query block [0, 4)
  REQUIRE(attn::flash_tile_count(r.trace) == 4);                   // key blocks [0,3) [3,6) [6,9) [9,10)
  struct {
    std::vector<attn::FlashTile> tiles;
  } f;
  for (int t = 0; t < 4; ++t) f.tiles.push_back(attn::flash_tile(r.trace, t, 3));
  CHECK(f.tiles[0].visible == 3);
  CHECK_FALSE(f.tiles[0].skipped);
  CHECK(f.tiles[1].visible == 0);
  CHECK_FALSE(f.tiles[1].skipped);  // row 3 of the same query block sees key 3: the block is loaded
  CHECK(f.tiles[2].skipped);        // keys 6… are past every row of [0, 4)
  CHECK(f.tiles[3].skipped);
  for (std::size_t t = 1; t < f.tiles.size(); ++t) {
    CHECK(f.tiles[t].m == f.tiles[0].m);
    CHECK(f.tiles[t].l == f.tiles[0].l);
    CHECK(f.tiles[t].rescale == 1.0);
    CHECK(f.tiles[t].block_max == -INFINITY);
    CHECK(f.tiles[t].block_sum == 0.0);
    for (int d = 0; d < 3; ++d) {
      CHECK(f.tiles[t].o[d] == f.tiles[0].o[d]);
      CHECK_FALSE(std::isnan(f.tiles[t].o[d]));
    }
  }
  // 4 query blocks × blocks loaded: [0,4) loads 2, [4,8) loads 3, [8,10) loads 4.
  CHECK(r.io.blocks_loaded == 2 + 3 + 4);
}

TEST_CASE("flash attention's default blocks follow the paper: B_c = ⌊M/4d⌋, B_r = min(B_c, d)", "[flash]") {
  int bq = 0, bk = 0;
  attn::flash_default_blocks(1024, 100, 100, 8, 8, &bq, &bk);
  CHECK(bk == 32);
  CHECK(bq == 8);
  attn::flash_default_blocks(1024, 100, 100, 16, 64, &bq, &bk);  // d = 64: ⌊1024/256⌋ = 4
  CHECK(bk == 4);
  CHECK(bq == 4);
  attn::flash_default_blocks(100000, 6, 9, 4, 4, &bq, &bk);  // clamped to the sequence
  CHECK(bk == 9);
  CHECK(bq == 4);
  const Problem p(1, 40, 40, 8, 8, 9);
  attn::FlashOptions o = options(false, 0, 0);
  o.sram = 256;  // B_c = 8, B_r = 8
  const attn::FlashResult f = p.flash(o);
  CHECK(f.io.block_q == 8);
  CHECK(f.io.block_k == 8);
  CHECK(f.io.sram_needed == 16 * 16);
  CHECK(f.io.fits);
  CHECK(check::normwise(f.output, p.output(false, true)).err < 1e-6);
}

TEST_CASE("flash attention reports the paper's blocks before their cut to the sequence", "[flash]") {
  // Reference: the largest B_c ≥ 1 with 4·d·B_c ≤ M, found by counting up (1 when even one does not fit),
  // B_r = min(B_c, d); the blocks in use are those at most n_q and n_k.
  for (const std::int64_t sram : {64, 256, 1000, 1024, 2048, 4096, 100000}) {
    for (const auto& [d_k, d_v] : {std::pair{16, 16}, std::pair{8, 32}, std::pair{64, 4}}) {
      const std::int64_t d = std::max(d_k, d_v);
      std::int64_t bc = 1;
      while (4 * d * (bc + 1) <= sram) ++bc;
      const std::int64_t br = std::min(bc, d);
      for (const int n : {1, 10, 40, 3000}) {
        INFO("M " << sram << ", d_k " << d_k << ", d_v " << d_v << ", n " << n);
        if (sram < 2 * (d_k + d_v)) continue;  // below one row each of Q, K, V and O the engine refuses M (tested with bad input)
        const attn::FlashIo io = attn::flash_io(1, n, n, d_k, d_v, false, 0, 0, sram);
        CHECK(io.paper_block_k == bc);
        CHECK(io.paper_block_q == br);
        CHECK(io.default_block_k == std::min<std::int64_t>(bc, n));
        CHECK(io.default_block_q == std::min<std::int64_t>(br, n));
        CHECK(io.block_k == io.default_block_k);
      }
    }
  }
  // At n = 10 and d = 16 doubling M from 1,024 to 2,048 doubles the paper's B_c (16 → 32) but not the block in use (10).
  const attn::FlashIo a = attn::flash_io(1, 10, 10, 16, 16, false, 0, 0, 1024), b = attn::flash_io(1, 10, 10, 16, 16, false, 0, 0, 2048);
  CHECK(a.paper_block_k == 16);
  CHECK(b.paper_block_k == 32);
  CHECK(a.block_k == 10);
  CHECK(b.block_k == 10);
}

TEST_CASE("the IO model counts the standard algorithm's and the tiled one's slow-memory traffic", "[flash]") {
  const int batch = 2, n_q = 100, n_k = 90, d_k = 16, d_v = 8;
  const attn::FlashIo io = attn::flash_io(batch, n_q, n_k, d_k, d_v, false, 32, 10, 1024);
  // Standard: Q, K read; S written; S read and P written; P and V read; O written.
  const std::uint64_t standard = batch * (std::uint64_t{n_q} * d_k + n_k * d_k + 4ull * n_q * n_k + n_k * d_v + n_q * d_v);
  CHECK(io.standard.total == standard);
  CHECK(io.standard.read_total + io.standard.write_total == standard);
  CHECK(io.standard.write_total == batch * (2ull * n_q * n_k + n_q * d_v));
  CHECK(io.standard.reads[0] == batch * (std::uint64_t{n_q} + n_k) * d_k);
  CHECK(io.standard.writes[1] == batch * std::uint64_t{n_q} * n_k);
  CHECK(io.standard.reads[3] == batch * (std::uint64_t{n_q} * n_k + std::uint64_t{n_k} * d_v));
  // Tiled: Q once, K and V once per query block (⌈100/32⌉ = 4), O once.
  CHECK(io.query_blocks == 4);
  CHECK(io.key_blocks == 9);
  CHECK(io.tiled.total == batch * (std::uint64_t{n_q} * d_k + 4ull * n_k * (d_k + d_v) + n_q * d_v));
  CHECK(io.tiled.write_total == batch * std::uint64_t{n_q} * d_v);
  CHECK(io.tiled.reads[1] == batch * 4ull * n_k * (d_k + d_v));
  CHECK(io.blocks_loaded == batch * 4ull * 9);
  CHECK(io.sram_needed == (32 + 10) * (16 + 8));
  CHECK(io.fits);  // 1,008 ≤ 1,024
  CHECK_FALSE(attn::flash_io(batch, n_q, n_k, d_k, d_v, false, 33, 10, 1024).fits);  // 1,032 > 1,024
  CHECK(io.ratio == Approx(static_cast<double>(io.standard.total) / io.tiled.total));
  CHECK(io.standard.order_value == Approx(batch * (100.0 * 16 + 100.0 * 100)));
  CHECK(io.tiled.order_value == Approx(batch * 100.0 * 100 * 16 * 16 / 1024));
  std::uint64_t sum = 0;
  for (int t = 0; t < 3; ++t) sum += io.tiled.reads[t] + io.tiled.writes[t];
  CHECK(sum == io.tiled.total);
  // Causal: query block [0, 32) reads keys [0, 40), [32, 64) keys [0, 70), [64, 96) [0, 90), [96, 100) all 90.
  const attn::FlashIo c = attn::flash_io(1, n_q, n_k, d_k, d_v, true, 32, 10, 1024);
  CHECK(c.tiled.total == std::uint64_t{n_q} * d_k + (40ull + 70 + 90 + 90) * (d_k + d_v) + n_q * d_v);
  CHECK(c.blocks_loaded == 4 + 7 + 9 + 9);
}

TEST_CASE("flash attention names the field of bad input", "[flash]") {
  const Problem p(1, 6, 6, 4, 4, 2);
  auto fails_with = [&](const attn::FlashOptions& o, const std::string& needle) {
    try {
      p.flash(o);
      FAIL("no error; expected one naming " << needle);
    } catch (const attn::Error& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(needle) != std::string::npos);
    }
  };
  fails_with(options(false, -1, 2), "block_q");
  fails_with(options(false, 2, -3), "block_k");
  fails_with(options(false, 2, 2, 0, 6), "trace.query_index 6 is out of range 0…5 (n_q = 6)");
  fails_with(options(false, 2, 2, 0, -2), "trace.query_index -2");
  fails_with(options(false, 2, 2, 1, 0), "trace.item 1");
  attn::FlashOptions small = options(false, 2, 2);
  small.sram = 15;  // 2·(4 + 4) = 16 at least
  fails_with(small, "sram");
  CHECK_THROWS_WITH(attn::flash_attention(p.q.data(), p.q.size() - 1, p.k.data(), p.k.size(), p.v.data(), p.v.size(), 1,
                                          6, 6, 4, 4, options(false, 2, 2)),
                    Catch::Contains("query"));
  CHECK_THROWS_WITH(attn::flash_attention(p.q.data(), p.q.size(), p.k.data(), p.k.size(), p.v.data(), p.v.size() + 4, 1,
                                          6, 6, 4, 4, options(false, 2, 2)),
                    Catch::Contains("value"));
  CHECK_THROWS_WITH(attn::flash_io(1, 0, 6, 4, 4, false, 2, 2, 1024), Catch::Contains("n_q"));
  Problem bad = p;
  bad.k[5] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(bad.flash(options(false, 2, 2)), Catch::Contains("key contains NaN"));
}

}  // namespace test_flash
