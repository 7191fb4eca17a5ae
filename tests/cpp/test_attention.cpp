// attn::scaled_dot_product_attention against the float64 reference on random problems (masks,
// dropout, cross-attention, batch), its properties, and the streaming path against the materialised one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/attention.h"
#include "core/error.h"
#include "core/rng.h"
#include "check.h"
#include "reference.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_attention {

namespace {

// Tolerances against float64. Output: normwise max|y − y64| / max|y64| ≤ 1e-5, the same bar as
// multi-head attention (float has 24 bits, ~6e-8; the logits, the softmax and the weighted sum
// each add a few ulps times the length of their sums). Weights lie in [0, 1]: max |w − w64| ≤ 1e-5.
constexpr double kOutputTol = 1e-5;
constexpr double kWeightTol = 1e-5;
// Rows of softmax weights sum to 1 within the softmax kernel's 2e-6 relative promise.
constexpr double kRowSumTol = 2.01e-6;

// Mask parts, combined by OR.
constexpr unsigned kNone = 0, kCausal = 1, kPadding = 2, kMatrix = 4;

struct Problem {
  int batch, n_q, n_k, d_k, d_v;
  std::vector<float> q, k, v;
};

Problem make_problem(int batch, int n_q, int n_k, int d_k, int d_v, std::uint64_t seed, float range = 1.5f) {
  check::TestRng rng(seed);
  Problem p{batch, n_q, n_k, d_k, d_v, {}, {}, {}};
  p.q = rng.vec(static_cast<std::size_t>(batch) * n_q * d_k, -range, range);
  p.k = rng.vec(static_cast<std::size_t>(batch) * n_k * d_k, -range, range);
  p.v = rng.vec(static_cast<std::size_t>(batch) * n_k * d_v, -1.0f, 1.0f);
  return p;
}

attn::Mask make_mask(unsigned kind, int batch, int n_q, int n_k, std::uint64_t seed) {
  check::TestRng rng(seed);
  attn::Mask m;
  m.causal = (kind & kCausal) != 0;
  if (kind & kPadding)
    for (int b = 0; b < batch; ++b) m.key_lengths.push_back(std::max(1, n_k - 3 * b - rng.below(std::max(1, n_k / 2))));
  if (kind & kMatrix) {
    m.matrix.resize(static_cast<std::size_t>(n_q) * n_k);
    for (auto& x : m.matrix) x = rng.below(5) == 0 ? 1 : 0;  // about 20% masked
  }
  return m;
}

// need_weights false runs the streaming path on purpose (scratch_logits = 0): at these small
// sizes the default would hold whole rows in scratch, which the materialised runs already cover.
attn::AttentionResult run(const Problem& p, const attn::AttentionOptions& opt, bool need_weights) {
  attn::AttentionOptions o = opt;
  if (!need_weights) o.scratch_logits = 0;
  return attn::scaled_dot_product_attention(p.q.data(), p.q.size(), p.k.data(), p.k.size(), p.v.data(), p.v.size(),
                                            p.batch, p.n_q, p.n_k, p.d_k, p.d_v, o, need_weights,
                                            attn::kDefaultMemoryBudget);
}

// The default path without weights: whole rows in scratch when rows×n_k fits scratch_logits.
attn::AttentionResult run_scratch(const Problem& p, const attn::AttentionOptions& opt) {
  return attn::scaled_dot_product_attention(p.q.data(), p.q.size(), p.k.data(), p.k.size(), p.v.data(), p.v.size(),
                                            p.batch, p.n_q, p.n_k, p.d_k, p.d_v, opt, false,
                                            attn::kDefaultMemoryBudget);
}

reference::AttentionRef run_reference(const Problem& p, const attn::AttentionOptions& opt) {
  return reference::attention(p.q, p.k, p.v, p.batch, p.n_q, p.n_k, p.d_k, p.d_v, opt);
}

std::vector<std::pair<int, int>> rows_of(const std::vector<attn::MaskedRow>& rows) {
  std::vector<std::pair<int, int>> out;
  for (const attn::MaskedRow& r : rows) out.emplace_back(r.b, r.i);
  std::sort(out.begin(), out.end());
  return out;
}

// Number of (b, i, j) the mask hides whose weight is not exactly 0.
int nonzero_masked_weights(const std::vector<float>& w, const Problem& p, const attn::Mask& mask) {
  int bad = 0;
  for (int b = 0; b < p.batch; ++b)
    for (int i = 0; i < p.n_q; ++i)
      for (int j = 0; j < p.n_k; ++j)
        if (reference::is_masked(mask, b, i, j, p.n_k) && w[(static_cast<std::size_t>(b) * p.n_q + i) * p.n_k + j] != 0.0f)
          ++bad;
  return bad;
}

// Largest |Σ_j w_ij − 1| over rows that are not fully masked.
double worst_row_sum(const std::vector<float>& w, const Problem& p, const std::vector<attn::MaskedRow>& masked) {
  const auto skip = rows_of(masked);
  double worst = 0.0;
  for (int b = 0; b < p.batch; ++b)
    for (int i = 0; i < p.n_q; ++i) {
      if (std::binary_search(skip.begin(), skip.end(), std::make_pair(b, i))) continue;
      double sum = 0.0;
      for (int j = 0; j < p.n_k; ++j) sum += w[(static_cast<std::size_t>(b) * p.n_q + i) * p.n_k + j];
      worst = std::max(worst, std::fabs(sum - 1.0));
    }
  return worst;
}

struct Case {
  const char* name;
  int batch, n_q, n_k, d_k, d_v;
  unsigned mask;
  bool scale;
  float dropout;  // in training mode when > 0
};

std::string describe(const Case& c) {
  return std::string(c.name) + " [batch " + std::to_string(c.batch) + ", n_q " + std::to_string(c.n_q) + ", n_k " +
         std::to_string(c.n_k) + ", d_k " + std::to_string(c.d_k) + ", d_v " + std::to_string(c.d_v) + "]";
}

// Sizes just past the query block and the key tile, whatever the engine's constants are.
const int kQB = attn::kQueryBlock, kKT = attn::kKeyTile;

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"self-attention", 1, 16, 16, 8, 8, kNone, true, 0.0f},
      {"cross-attention, d_k != d_v", 1, 7, 33, 16, 5, kNone, true, 0.0f},
      {"causal, batch 3", 3, 20, 20, 32, 32, kCausal, true, 0.0f},
      {"padding, cross", 2, 9, 17, 8, 12, kPadding, true, 0.0f},
      {"explicit matrix across tiles", 2, kQB + 1, kKT + 1, 16, 8, kMatrix, true, 0.0f},
      {"causal + padding, n_q < n_k", 2, 33, 40, 8, 8, kCausal | kPadding, true, 0.0f},
      {"causal + padding + matrix, n_q > n_k", 1, 70, 50, 24, 16, kCausal | kPadding | kMatrix, true, 0.0f},
      {"unscaled logits, d_k 64", 2, 30, 30, 64, 16, kNone, false, 0.0f},
      {"unscaled, causal", 1, 24, 24, 32, 8, kCausal, false, 0.0f},
      {"dropout 0.2, causal", 2, kQB + 1, kKT + 2, 16, 16, kCausal, true, 0.2f},
      {"dropout 0.5, padding, unscaled", 2, 12, 19, 4, 7, kPadding, false, 0.5f},
      {"long keys: n_k 300", 1, 65, 300, 16, 16, kNone, true, 0.0f},
      {"dropout 0.1, padding + matrix, 3 query blocks", 2, 2 * kQB + 2, kKT + 1, 8, 4, kPadding | kMatrix, true, 0.1f},
      {"single query and key", 2, 1, 1, 3, 2, kNone, true, 0.0f},
  };
  return all;
}

attn::AttentionOptions options_for(const Case& c, std::uint64_t seed) {
  attn::AttentionOptions opt;
  opt.mask = make_mask(c.mask, c.batch, c.n_q, c.n_k, seed);
  opt.scale = c.scale;
  opt.dropout = c.dropout;
  opt.training = c.dropout > 0.0f;
  opt.seed = seed * 7 + 3;
  return opt;
}

}  // namespace

TEST_CASE("attention matches the float64 reference: masks, cross, d_k != d_v, scale, dropout, batch",
          "[attention]") {
  double max_out = 0.0, max_w = 0.0, max_paths = 0.0;
  std::uint64_t seed = 1;
  for (const Case& c : cases()) {
    ++seed;
    const Problem p = make_problem(c.batch, c.n_q, c.n_k, c.d_k, c.d_v, seed);
    const attn::AttentionOptions opt = options_for(c, seed);
    INFO(describe(c) << ", mask " << opt.mask.describe());
    const reference::AttentionRef want = run_reference(p, opt);
    const attn::AttentionResult mat = run(p, opt, true);
    const attn::AttentionResult str = run(p, opt, false);
    REQUIRE(mat.output.size() == want.output.size());
    REQUIRE(mat.weights.size() == want.weights.size());
    CHECK(str.weights.empty());

    const check::Worst wo = check::normwise(mat.output, want.output);
    INFO("materialised output: " << wo.describe());
    CHECK(wo.err <= kOutputTol);
    const check::Worst ws = check::normwise(str.output, want.output);
    INFO("streaming output: " << ws.describe());
    CHECK(ws.err <= kOutputTol);
    const check::Worst ww = check::max_abs(mat.weights, want.weights);
    INFO("weights: " << ww.describe());
    CHECK(ww.err <= kWeightTol);
    // The two paths compute the same thing in different orders (online softmax over key tiles).
    const check::Worst wp = check::normwise(str.output, mat.output);
    INFO("streaming vs materialised: " << wp.describe());
    CHECK(wp.err <= kOutputTol);

    CHECK(nonzero_masked_weights(mat.weights, p, opt.mask) == 0);
    CHECK(rows_of(mat.masked_rows) == rows_of(want.masked_rows));
    CHECK(rows_of(str.masked_rows) == rows_of(want.masked_rows));
    CHECK(check::count_non_finite(mat.output) == 0);
    CHECK(check::count_non_finite(str.output) == 0);
    if (!opt.training) CHECK(worst_row_sum(mat.weights, p, mat.masked_rows) <= kRowSumTol);
    max_out = std::max({max_out, wo.err, ws.err});
    max_w = std::max(max_w, ww.err);
    max_paths = std::max(max_paths, wp.err);
  }
  WARN("attention vs float64: max normwise output error " << max_out << ", max weight error " << max_w
                                                          << ", streaming vs materialised " << max_paths);
}

TEST_CASE("streaming and materialised attention agree across key tiles and query blocks", "[attention]") {
  // kKeyTile keys per streaming tile (128) and kQueryBlock query rows per block: sizes below, at
  // and past each boundary (e.g. n_k 127, 128, 129, 256, 300), with masks that end rows inside a
  // tile and with dropout.
  double worst = 0.0, worst_scratch = 0.0;
  std::uint64_t seed = 100;
  for (int n_k : {1, kKT - 1, kKT, kKT + 1, 2 * kKT, 2 * kKT + 44})
    for (int n_q : {1, kQB - 1, kQB, kQB + 1, 2 * kQB + 2})
      for (unsigned kind : {kNone, kCausal | kPadding, kMatrix}) {
        ++seed;
        const Problem p = make_problem(2, n_q, n_k, 8, 8, seed);
        attn::AttentionOptions opt;
        opt.mask = make_mask(kind, 2, n_q, n_k, seed);
        opt.training = kind == kMatrix;
        opt.dropout = opt.training ? 0.25f : 0.0f;
        opt.seed = seed;
        INFO("n_q " << n_q << ", n_k " << n_k << ", mask " << opt.mask.describe() << ", dropout " << opt.dropout);
        const attn::AttentionResult mat = run(p, opt, true), str = run(p, opt, false);
        const check::Worst w = check::normwise(str.output, mat.output);
        INFO(w.describe());
        CHECK(w.err <= kOutputTol);
        CHECK(rows_of(str.masked_rows) == rows_of(mat.masked_rows));
        worst = std::max(worst, w.err);
        // Whole rows in scratch: the materialised code, but each output row is divided by its
        // softmax sum after P·V instead of normalising the weights first. A third order of the
        // same sums, held to the same bar against float64 and against the materialised path.
        const attn::AttentionResult scr = run_scratch(p, opt);
        const check::Worst ws = check::normwise(scr.output, run_reference(p, opt).output);
        INFO("scratch vs float64: " << ws.describe());
        CHECK(ws.err <= kOutputTol);
        const check::Worst wsm = check::normwise(scr.output, mat.output);
        INFO("scratch vs materialised: " << wsm.describe());
        CHECK(wsm.err <= kOutputTol);
        CHECK(rows_of(scr.masked_rows) == rows_of(mat.masked_rows));
        worst_scratch = std::max(worst_scratch, ws.err);
      }
  WARN("streaming vs materialised across tiles: max normwise difference " << worst
                                                                              << "; scratch vs float64 " << worst_scratch);
}

TEST_CASE("dropout is deterministic, follows dropout_keep, and scales kept weights by 1/(1-p)", "[attention][dropout]") {
  const Problem p = make_problem(2, 65, 130, 16, 16, 77);  // two key tiles
  attn::AttentionOptions opt;
  opt.training = true;
  opt.dropout = 0.2f;
  opt.seed = 12345;
  const attn::AttentionResult a = run(p, opt, true), b = run(p, opt, true);
  const attn::AttentionResult sa = run(p, opt, false), sb = run(p, opt, false);
  // Same seed, same run: bit-identical, in both paths.
  CHECK(a.output == b.output);
  CHECK(a.weights == b.weights);
  CHECK(sa.output == sb.output);

  attn::AttentionOptions no_dropout;
  const attn::AttentionResult plain = run(p, no_dropout, true);
  const double keep_scale = 1.0 / (1.0 - 0.2);
  int wrong_pattern = 0, wrong_scale = 0, dropped = 0;
  for (int bb = 0; bb < p.batch; ++bb)
    for (int i = 0; i < p.n_q; ++i)
      for (int j = 0; j < p.n_k; ++j) {
        const std::size_t at = (static_cast<std::size_t>(bb) * p.n_q + i) * p.n_k + j;
        const bool keep = attn::dropout_keep(opt.seed, bb, 0, i, j, opt.dropout);
        if (!keep) {
          ++dropped;
          wrong_pattern += a.weights[at] == 0.0f ? 0 : 1;
        } else if (std::fabs(a.weights[at] - plain.weights[at] * keep_scale) > 2.5e-7 * plain.weights[at] * keep_scale) {
          ++wrong_scale;
        }
      }
  CHECK(wrong_pattern == 0);
  CHECK(wrong_scale == 0);
  // The fraction dropped is p, up to sampling noise: 2·65·130 = 16,900 weights give a standard
  // deviation of √(p(1−p)/N) ≈ 0.0031; allow 5 of them.
  const double fraction = static_cast<double>(dropped) / (p.batch * p.n_q * p.n_k);
  INFO("fraction dropped " << fraction);
  CHECK(std::fabs(fraction - 0.2) <= 5 * std::sqrt(0.2 * 0.8 / (p.batch * p.n_q * p.n_k)));

  // Another seed drops other weights; inference ignores dropout altogether.
  attn::AttentionOptions other = opt;
  other.seed = 54321;
  CHECK(run(p, other, true).output != a.output);
  attn::AttentionOptions inference = opt;
  inference.training = false;
  CHECK(run(p, inference, true).output == plain.output);
  CHECK(run(p, inference, false).output == run(p, no_dropout, false).output);
  // Materialised and streaming outputs agree under dropout (same (seed, b, h, i, j) pattern).
  const check::Worst w = check::normwise(sa.output, a.output);
  INFO(w.describe());
  CHECK(w.err <= kOutputTol);
}

TEST_CASE("a fully masked row gives zero weights and output, is reported, never NaN", "[attention][mask]") {
  const int batch = 2, n_q = 6, n_k = 140;  // n_k past one key tile for the streaming path
  const Problem p = make_problem(batch, n_q, n_k, 8, 4, 5);
  SECTION("padding length 0 masks every row of a batch item") {
    attn::AttentionOptions opt;
    opt.mask.key_lengths = {0, n_k};
    for (bool need_weights : {true, false}) {
      INFO("need_weights " << need_weights);
      const attn::AttentionResult r = run(p, opt, need_weights);
      CHECK(check::count_non_finite(r.output) == 0);
      std::vector<std::pair<int, int>> want;
      for (int i = 0; i < n_q; ++i) want.emplace_back(0, i);
      CHECK(rows_of(r.masked_rows) == want);
      int nonzero = 0;
      for (std::size_t x = 0; x < static_cast<std::size_t>(n_q) * p.d_v; ++x) nonzero += r.output[x] != 0.0f;
      CHECK(nonzero == 0);
      if (need_weights) {
        int nonzero_w = 0;
        for (std::size_t x = 0; x < static_cast<std::size_t>(n_q) * n_k; ++x) nonzero_w += r.weights[x] != 0.0f;
        CHECK(nonzero_w == 0);
        CHECK(worst_row_sum(r.weights, p, r.masked_rows) <= kRowSumTol);  // batch item 1 is normal
      }
    }
  }
  SECTION("an explicit matrix row of ones, and causal row 0 with its only key masked") {
    attn::AttentionOptions opt;
    opt.mask.causal = true;
    opt.mask.matrix.assign(static_cast<std::size_t>(n_q) * n_k, 0);
    opt.mask.matrix[0] = 1;  // row 0 may only see key 0 under causal: now it sees nothing
    for (int j = 0; j < n_k; ++j) opt.mask.matrix[static_cast<std::size_t>(3) * n_k + j] = 1;
    opt.training = true;
    opt.dropout = 0.3f;  // dropout must not turn a masked row into NaN either
    const reference::AttentionRef want = run_reference(p, opt);
    for (bool need_weights : {true, false}) {
      INFO("need_weights " << need_weights);
      const attn::AttentionResult r = run(p, opt, need_weights);
      CHECK(check::count_non_finite(r.output) == 0);
      const std::vector<std::pair<int, int>> rows = {{0, 0}, {0, 3}, {1, 0}, {1, 3}};
      CHECK(rows_of(r.masked_rows) == rows);
      for (const auto& [b, i] : rows) {
        for (int c = 0; c < p.d_v; ++c) CHECK(r.output[(static_cast<std::size_t>(b) * n_q + i) * p.d_v + c] == 0.0f);
        if (need_weights)
          for (int j = 0; j < n_k; ++j) CHECK(r.weights[(static_cast<std::size_t>(b) * n_q + i) * n_k + j] == 0.0f);
      }
      const check::Worst w = check::normwise(r.output, want.output);
      INFO(w.describe());
      CHECK(w.err <= kOutputTol);
    }
  }
}

TEST_CASE("huge logits stay finite: rows sum to 1 and outputs stay inside the values' range", "[attention]") {
  // Entries of ±100 without the 1/√d_k scale give logits of order 1e4–1e5: exp of a raw logit
  // would overflow (or underflow to an all-zero row and 0/0); exp(x − max) does not.
  const Problem p = make_problem(2, 70, 140, 8, 6, 9, 100.0f);
  attn::AttentionOptions opt;
  opt.scale = false;
  for (bool need_weights : {true, false}) {
    INFO("need_weights " << need_weights);
    const attn::AttentionResult r = run(p, opt, need_weights);
    REQUIRE(check::count_non_finite(r.output) == 0);
    CHECK(r.masked_rows.empty());
    if (need_weights) {
      CHECK(check::count_non_finite(r.weights) == 0);
      CHECK(worst_row_sum(r.weights, p, r.masked_rows) <= kRowSumTol);
    }
    // Without dropout each output is a convex combination of value rows.
    int outside = 0;
    for (int b = 0; b < p.batch; ++b)
      for (int c = 0; c < p.d_v; ++c) {
        float lo = INFINITY, hi = -INFINITY;
        for (int j = 0; j < p.n_k; ++j) {
          const float x = p.v[(static_cast<std::size_t>(b) * p.n_k + j) * p.d_v + c];
          lo = std::min(lo, x);
          hi = std::max(hi, x);
        }
        for (int i = 0; i < p.n_q; ++i) {
          const float y = r.output[(static_cast<std::size_t>(b) * p.n_q + i) * p.d_v + c];
          outside += (y < lo - 1e-6f || y > hi + 1e-6f) ? 1 : 0;
        }
      }
    CHECK(outside == 0);
  }
}

TEST_CASE("permuting keys and values together leaves the output unchanged", "[attention]") {
  for (bool with_matrix : {false, true}) {
    const int n_q = 33, n_k = 150;
    const Problem p = make_problem(1, n_q, n_k, 16, 8, 31);
    std::vector<int> perm(n_k);
    for (int j = 0; j < n_k; ++j) perm[j] = (j * 37 + 11) % n_k;  // 37 is coprime to 150: a permutation
    Problem q = p;
    for (int j = 0; j < n_k; ++j) {
      std::copy_n(p.k.begin() + perm[j] * p.d_k, p.d_k, q.k.begin() + j * p.d_k);
      std::copy_n(p.v.begin() + perm[j] * p.d_v, p.d_v, q.v.begin() + j * p.d_v);
    }
    attn::AttentionOptions opt, opt_perm;
    if (with_matrix) {  // the mask travels with its keys
      opt.mask = make_mask(kMatrix, 1, n_q, n_k, 4);
      opt_perm.mask.matrix.resize(opt.mask.matrix.size());
      for (int i = 0; i < n_q; ++i)
        for (int j = 0; j < n_k; ++j)
          opt_perm.mask.matrix[static_cast<std::size_t>(i) * n_k + j] = opt.mask.matrix[static_cast<std::size_t>(i) * n_k + perm[j]];
    }
    for (bool need_weights : {true, false}) {
      INFO("matrix mask " << with_matrix << ", need_weights " << need_weights);
      const attn::AttentionResult a = run(p, opt, need_weights), b = run(q, opt_perm, need_weights);
      // Only the order of the sums over keys changes.
      const check::Worst w = check::normwise(b.output, a.output);
      INFO(w.describe());
      CHECK(w.err <= 2e-6);
      if (need_weights) {
        std::vector<float> moved(a.weights.size());
        for (int i = 0; i < n_q; ++i)
          for (int j = 0; j < n_k; ++j)
            moved[static_cast<std::size_t>(i) * n_k + j] = a.weights[static_cast<std::size_t>(i) * n_k + perm[j]];
        const check::Worst ww = check::ratio(b.weights.data(), moved.data(), moved.size(), 2.5e-7, 1e-37);
        INFO("weights: " << ww.describe());
        CHECK(ww.err <= 1.0);
      }
    }
  }
}

TEST_CASE("Mask: row_limit and masked agree with the written-out rule", "[attention][mask]") {
  const int batch = 3, n_q = 9, n_k = 7;
  for (unsigned kind = 0; kind < 8; ++kind) {
    const attn::Mask m = make_mask(kind, batch, n_q, n_k, 40 + kind);
    INFO("mask " << m.describe());
    CHECK(m.any() == (kind != 0));
    int wrong = 0, wrong_limit = 0;
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n_q; ++i) {
        for (int j = 0; j < n_k; ++j) wrong += m.masked(b, i, j, n_k) != reference::is_masked(m, b, i, j, n_k);
        // Every key at or past row_limit is masked (the streaming path skips them).
        for (int j = m.row_limit(b, i, n_k); j < n_k; ++j) wrong_limit += reference::is_masked(m, b, i, j, n_k) ? 0 : 1;
      }
    CHECK(wrong == 0);
    CHECK(wrong_limit == 0);
  }
  attn::Mask m;
  CHECK(m.describe() == "none");
  m.causal = true;
  m.key_lengths = {16, 9};
  m.matrix = {0, 1};
  CHECK(m.describe() == "causal + padding [16, 9] + matrix");
}

TEST_CASE("values near float's limit: every path returns their finite average, or says the average overflows", "[attention][overflow]") {
  // q = k = 0: every weight is 1/n_k and the output is the mean of v, here 1e37. The paths that
  // divide by the softmax sum after P·V first add up n_k·1e37 = 6.4e38, beyond float's range:
  // they must notice and keep the sums finite.
  Problem p = make_problem(1, 5, 64, 4, 3, 9);
  std::fill(p.q.begin(), p.q.end(), 0.0f);
  std::fill(p.k.begin(), p.k.end(), 0.0f);
  std::fill(p.v.begin(), p.v.end(), 1e37f);
  for (const bool need_weights : {false, true})
    for (const std::size_t scratch_logits : {std::size_t{0}, std::size_t{1} << 21}) {
      attn::AttentionOptions opt;
      opt.scratch_logits = scratch_logits;
      INFO("need_weights " << need_weights << ", scratch_logits " << scratch_logits);
      const attn::AttentionResult r = attn::scaled_dot_product_attention(
          p.q.data(), p.q.size(), p.k.data(), p.k.size(), p.v.data(), p.v.size(), 1, 5, 64, 4, 3, opt, need_weights,
          attn::kDefaultMemoryBudget);
      const std::vector<double> want(r.output.size(), 1e37);
      const check::Worst w = check::normwise(r.output, want);
      INFO(w.describe());
      CHECK(check::count_non_finite(r.output) == 0);
      CHECK(w.err <= kOutputTol);
    }
  // Dropout p = 0.9 scales kept weights by 10: the average itself can pass 3.4e38. An error
  // that says so, never ±∞.
  std::fill(p.v.begin(), p.v.end(), 3e38f);
  attn::AttentionOptions opt;
  opt.training = true;
  opt.dropout = 0.9f;
  for (const std::size_t scratch_logits : {std::size_t{0}, std::size_t{1} << 21}) {
    opt.scratch_logits = scratch_logits;
    INFO("scratch_logits " << scratch_logits);
    CHECK_THROWS_WITH(attn::scaled_dot_product_attention(p.q.data(), p.q.size(), p.k.data(), p.k.size(), p.v.data(),
                                                         p.v.size(), 1, 5, 64, 4, 3, opt, false, attn::kDefaultMemoryBudget),
                      Catch::Contains("the attention output overflowed float32 at batch item 0, query"));
  }
}

TEST_CASE("the whole-row path in sub-blocks shorter than 64 rows matches float64", "[attention]") {
  // n_k = 3000 gives sub-blocks of softmax_rows(3000) = 40 rows; n_q = 100 is not a multiple of
  // it, d_v = 5 is not a multiple of the 8-column panels; a causal + padding mask and dropout.
  REQUIRE(attn::softmax_rows(3000) == 40);
  const Problem p = make_problem(2, 100, 3000, 8, 5, 31);
  for (const bool dropout : {false, true}) {
    attn::AttentionOptions opt;
    opt.mask = make_mask(kCausal | kPadding, 2, 100, 3000, 31);
    opt.training = dropout;
    opt.dropout = dropout ? 0.3f : 0.0f;
    opt.seed = 5;
    INFO("dropout " << opt.dropout << ", mask " << opt.mask.describe());
    const reference::AttentionRef want = run_reference(p, opt);
    const attn::AttentionResult scr = run_scratch(p, opt), mat = run(p, opt, true);
    const check::Worst ws = check::normwise(scr.output, want.output);
    INFO("scratch vs float64: " << ws.describe());
    CHECK(ws.err <= kOutputTol);
    const check::Worst wm = check::normwise(mat.output, want.output);
    INFO("materialised vs float64: " << wm.describe());
    CHECK(wm.err <= kOutputTol);
    const check::Worst ww = check::max_abs(mat.weights, want.weights);
    INFO("weights: " << ww.describe());
    CHECK(ww.err <= kWeightTol);
    CHECK(rows_of(scr.masked_rows) == rows_of(want.masked_rows));
  }
}

}  // namespace test_attention
