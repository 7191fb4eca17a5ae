// The analysis code against LESSON.md: every worked-example figure (E1, E2, E3, P1, P4), 64-bit
// counts for GPT-3 and LLaMA-70B, heads vs cost, positional encoding, and the √d_k statistics.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "check.h"
#include "core/dims.h"
#include "core/error.h"
#include "core/model_presets.h"
#include "labs/lesson_examples.h"
#include "core/mha.h"
#include "reference.h"

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_analysis {

namespace {

attn::MhaDims dims(int d_model, int n_heads, bool bias = true, int d_k = 0, int d_v = 0) {
  return attn::resolve_dims(check::mha_config(d_model, n_heads, d_k, d_v, bias));
}

// The dims of the first traced tensor whose name starts with prefix.
std::vector<std::int64_t> traced(const std::vector<attn::TensorInfo>& trace, const std::string& prefix) {
  for (const attn::TensorInfo& t : trace)
    if (t.name.rfind(prefix, 0) == 0) return t.dims;
  FAIL("no tensor named " << prefix << "... in the trace");
  return {};
}

// "128×64": the last two dims, as LESSON.md writes a per-head shape.
std::string last2(const std::vector<std::int64_t>& d) {
  return std::to_string(d[d.size() - 2]) + "×" + std::to_string(d[d.size() - 1]);
}

}  // namespace

TEST_CASE("the scores' names say /√d_k only when the run divides by it", "[analysis]") {
  const attn::MhaDims d = dims(64, 4);
  auto names = [&](bool scale) {
    std::string all;
    for (const attn::TensorInfo& t : attn::tensor_trace(d, 1, 8, 8, true, scale)) all += t.name + "|";
    for (const attn::StageCost& s : attn::flop_counts(d, 1, 8, 8, scale).stages) all += s.stage + "|";
    return all;
  };
  const std::string scaled = names(true), unscaled = names(false);
  INFO("scaled: " << scaled << "\nunscaled: " << unscaled);
  CHECK(scaled.find("S_i = Q_i·K_iᵀ/√d_k|") != std::string::npos);
  CHECK(scaled.find("scores Q_i·K_iᵀ/√d_k|") != std::string::npos);
  CHECK(unscaled.find("S_i = Q_i·K_iᵀ|") != std::string::npos);
  CHECK(unscaled.find("scores Q_i·K_iᵀ|") != std::string::npos);
  CHECK(unscaled.find("√d_k") == std::string::npos);
}

TEST_CASE("E1: shapes through multi-head attention (d_model 768, h 12, n 128)", "[analysis][lesson]") {
  const attn::MhaDims d = dims(768, 12);
  CHECK(d.d_k == 64);
  CHECK(d.d_v == 64);
  const auto trace = attn::tensor_trace(d, 1, 128, 128, true);
  using V = std::vector<std::int64_t>;
  CHECK(traced(trace, "Q_i") == V{1, 12, 128, 64});
  CHECK(traced(trace, "K_i") == V{1, 12, 128, 64});
  CHECK(traced(trace, "V_i") == V{1, 12, 128, 64});
  CHECK(traced(trace, "S_i") == V{1, 12, 128, 128});
  CHECK(traced(trace, "A_i") == V{1, 12, 128, 128});
  CHECK(traced(trace, "head_i") == V{1, 12, 128, 64});
  CHECK(traced(trace, "Concat") == V{1, 128, 768});
  CHECK(traced(trace, "output") == V{1, 128, 768});
  // The lesson's per-head figures are the last two dims.
  CHECK(last2(traced(trace, "Q_i")) == "128×64");
  CHECK(last2(traced(trace, "S_i")) == "128×128");
  CHECK(last2(traced(trace, "Concat")) == "128×768");
  // Every tensor's bytes are 4 per float32 element.
  for (const attn::TensorInfo& t : trace) {
    std::int64_t elements = 1;
    for (std::int64_t x : t.dims) elements *= x;
    INFO(t.name);
    CHECK(t.bytes == 4 * elements);
  }
}

TEST_CASE("layer_tensor_shapes: every exported tensor's shape, against the layer's own arrays", "[analysis][shapes]") {
  using V = std::vector<std::int64_t>;
  // A grouped layer with d_k != d_v and n_q != n_k, so that no two sizes can stand in for each other.
  attn::MhaConfig config = check::mha_config(12, 6, 5, 3);
  config.n_kv_heads = 2;
  const attn::MhaDims d = attn::resolve_dims(config);
  const int batch = 2, n_q = 7, n_k = 4;
  const auto shapes = attn::layer_tensor_shapes(d, batch, n_q, n_k);
  auto shape = [&](const std::string& name) {
    for (const attn::NamedShape& t : shapes)
      if (t.name == name) return V(t.dims, t.dims + t.rank);
    FAIL("no tensor named " << name);
    return V{};
  };
  // Written out by hand for these sizes (the reference: no formula shared with the code).
  CHECK(shape("query") == V{2, 7, 12});
  CHECK(shape("key") == V{2, 4, 12});
  CHECK(shape("value") == V{2, 4, 12});
  CHECK(shape("wq") == V{12, 30});
  CHECK(shape("wk") == V{12, 10});
  CHECK(shape("wv") == V{12, 6});
  CHECK(shape("wo") == V{18, 12});
  CHECK(shape("bq") == V{30});
  CHECK(shape("bk") == V{10});
  CHECK(shape("bv") == V{6});
  CHECK(shape("bo") == V{12});
  CHECK(shape("q") == V{2, 6, 7, 5});
  CHECK(shape("k") == V{2, 2, 4, 5});
  CHECK(shape("v") == V{2, 2, 4, 3});
  CHECK(shape("attention") == V{2, 6, 7, 4});
  CHECK(shape("head_outputs") == V{2, 6, 7, 3});
  CHECK(shape("output") == V{2, 7, 12});
  CHECK(shapes.size() == 17);
  // The parameters' element counts are the layer's own arrays' lengths (a layer made with these sizes).
  attn::MultiHeadAttention layer(config);
  const auto count = [](const V& dims) {
    std::int64_t n = 1;
    for (std::int64_t x : dims) n *= x;
    return n;
  };
  const attn::MhaWeights w = layer.weights();
  CHECK(count(shape("wq")) == static_cast<std::int64_t>(w.wq.size()));
  CHECK(count(shape("wk")) == static_cast<std::int64_t>(w.wk.size()));
  CHECK(count(shape("wv")) == static_cast<std::int64_t>(w.wv.size()));
  CHECK(count(shape("wo")) == static_cast<std::int64_t>(w.wo.size()));
  CHECK(count(shape("bq")) == static_cast<std::int64_t>(w.bq.size()));
  CHECK(count(shape("bo")) == static_cast<std::int64_t>(w.bo.size()));
  // The heads' tensors agree with the forward trace's (Q_i, K_i, V_i, A_i, head_i, output).
  const auto trace = attn::tensor_trace(d, batch, n_q, n_k, true);
  CHECK(traced(trace, "Q_i") == shape("q"));
  CHECK(traced(trace, "K_i") == shape("k"));
  CHECK(traced(trace, "V_i") == shape("v"));
  CHECK(traced(trace, "A_i") == shape("attention"));
  CHECK(traced(trace, "head_i") == shape("head_outputs"));
  CHECK(traced(trace, "output") == shape("output"));
  CHECK_THROWS_WITH(attn::layer_tensor_shapes(d, 0, n_q, n_k), Catch::Contains("batch"));
}

TEST_CASE("E2: parameter count (d_model 512, h 8)", "[analysis][lesson]") {
  const attn::ParameterCounts p = attn::parameter_counts(dims(512, 8, false));
  CHECK(p.per_head_q == 32768);          // 512×64
  CHECK(p.per_head_k == 32768);
  CHECK(p.per_head_v == 32768);
  CHECK(8 * (p.per_head_q + p.per_head_k + p.per_head_v) == 786432);  // 8 heads × 3 × 32,768
  CHECK(p.w_o == 262144);                // 512×512
  CHECK(p.weights == 1048576);           // 786,432 + 262,144
  CHECK(p.weights == 4 * 512 * 512);
  CHECK(p.total == p.weights);           // bias off
  CHECK(p.biases == 4 * 512);
  const attn::ParameterCounts with_bias = attn::parameter_counts(dims(512, 8, true));
  CHECK(with_bias.total == 1048576 + 2048);  // 4·d² + 4·d
  CHECK(attn::group_digits(static_cast<std::uint64_t>(p.weights)) == "1,048,576");
}

TEST_CASE("E3: FLOPs for n 2048, d 4096, h 32, as the lesson counts and exactly", "[analysis][lesson]") {
  const attn::FlopCounts f = attn::flop_counts(dims(4096, 32, false), 1, 2048, 2048, true);
  // Lesson: one projection n·d² = 2048·4096² and scores n²·d = 2048²·4096, a MAC counted once.
  CHECK(f.lesson_projections == 34359738368LL);
  CHECK(f.lesson_scores == 17179869184LL);
  CHECK(f.lesson_weighted_sum == 17179869184LL);
  CHECK(f.lesson_total == 68719476736LL);
  CHECK(attn::format_billions(static_cast<double>(f.lesson_projections)) == "34.4B");
  CHECK(attn::format_billions(static_cast<double>(f.lesson_scores)) == "17.2B");
  CHECK(attn::format_billions(static_cast<double>(f.lesson_weighted_sum)) == "17.2B");
  // The lesson's 68.8B adds the rounded terms; the unrounded sum rounds to 68.7B.
  CHECK(attn::format_billions((34.4 + 17.2 + 17.2) * 1e9) == "68.8B");
  CHECK(attn::format_billions(static_cast<double>(f.lesson_total)) == "68.7B");
  // Exact: four projections 4·n·d² = 137,438,953,472 MACs (274.9B FLOPs); total
  // 4·n·d² + 2·n²·d = 171,798,691,840 MACs, 343,597,383,680 matmul FLOPs.
  REQUIRE(f.stages.size() == 7);
  const std::int64_t proj4 = f.stages[0].macs + f.stages[1].macs + f.stages[2].macs + f.stages[6].macs;
  CHECK(proj4 == 137438953472LL);
  CHECK(attn::format_billions(static_cast<double>(proj4)) == "137.4B");
  CHECK(attn::format_billions(2.0 * proj4) == "274.9B");
  CHECK(f.exact_macs == 171798691840LL);
  CHECK(attn::format_billions(static_cast<double>(f.exact_macs)) == "171.8B");
  CHECK(attn::format_billions(2.0 * f.exact_macs) == "343.6B");
  // Plus the 1/√d_k scale (1 per logit) and softmax (5 per logit) on 32·2048² logits, no biases.
  CHECK(f.exact_flops == 343597383680LL + 6LL * 32 * 2048 * 2048);
  CHECK(f.exact_flops == 344402690048LL);
  CHECK(f.projections_dominate_lesson);
  CHECK(f.projections_dominate_exact);
  CHECK_THAT(f.dominant_reason, Catch::Contains("n = 2,048 < d = 4,096"));
  // The other side: n > d, the attention matrix dominates.
  const attn::FlopCounts g = attn::flop_counts(dims(512, 8), 1, 4096, 4096, true);
  CHECK_FALSE(g.projections_dominate_lesson);
  CHECK_FALSE(g.projections_dominate_exact);
  CHECK_THAT(g.dominant_reason, Catch::Contains("n = 4,096 > d = 512"));
}

TEST_CASE("P1 and P4: head size and the memory of the attention weights", "[analysis][lesson]") {
  const attn::MhaDims p1 = dims(1024, 16);
  CHECK(p1.d_k == 64);
  CHECK(p1.qk_width() == 1024);  // 16·64
  // P4: h·batch = 256 matrices of 128×128 floats: 256·128²·4 = 16,777,216 bytes ≈ 16.8 MB.
  const std::uint64_t bytes = attn::attention_weight_bytes(8, 32, 128, 128);
  CHECK(bytes == 16777216u);
  CHECK(bytes == 256u * 128 * 128 * 4);
  CHECK(std::round(bytes / 1e5) / 10 == Approx(16.8));
  const attn::RunMemory m = attn::run_memory(dims(512, 8), 32, 128, 128, true, true);
  CHECK(m.weights == bytes);
  CHECK(attn::run_memory(dims(512, 8), 32, 128, 128, false, true).weights == 0);
}

TEST_CASE("lesson_examples: every figure matches LESSON.md", "[analysis][lesson]") {
  // LESSON.md's figures in the order the examples list them (empty expected strings are
  // information only and are checked separately below).
  const std::vector<std::pair<std::string, std::vector<std::string>>> lesson = {
      {"E1", {"64", "64", "128×64", "128×64", "128×64", "128×128", "128×128", "128×64", "128×768", "128×768"}},
      {"E2", {"32,768", "786,432", "262,144", "1,048,576", "1,048,576"}},
      {"E3", {"34.4B", "17.2B", "17.2B", "68.8B", "137.4B", "274.9B", "171.8B", "343.6B", "yes"}},
      {"P1", {"64", "1024"}},
      {"P4", {"256", "128×128", "16,777,216", "16.8 MB"}},
  };
  const std::vector<attn::LessonExample> examples = attn::lesson_examples();
  REQUIRE(examples.size() == lesson.size());
  for (std::size_t e = 0; e < examples.size(); ++e) {
    const attn::LessonExample& ex = examples[e];
    INFO("example " << ex.id);
    CHECK(ex.id == lesson[e].first);
    std::vector<std::string> expected;
    for (const attn::LessonFigure& f : ex.figures) {
      INFO(f.label << ": computed " << f.computed << ", lesson " << f.expected);
      CHECK(f.ok);
      if (!f.expected.empty()) {
        CHECK(f.computed == f.expected);
        expected.push_back(f.expected);
      }
    }
    CHECK(expected == lesson[e].second);
  }
  // The figures the lesson does not give, computed: 4·512² + 4·512, the unrounded 68.7B and the
  // exact FLOPs with scale and softmax.
  auto computed = [&](const std::string& id, const std::string& label_prefix) {
    for (const attn::LessonExample& ex : examples)
      if (ex.id == id)
        for (const attn::LessonFigure& f : ex.figures)
          if (f.label.rfind(label_prefix, 0) == 0) return f.computed;
    return std::string("missing");
  };
  CHECK(computed("E2", "total with biases") == "1,050,624");
  CHECK(computed("E3", "total, unrounded") == "68.7B");
  CHECK(computed("E3", "total FLOPs with scale") == "344.4B");
  // The lesson's text prints only E3's one-projection count; LESSON.md's exact figures (137.4B, 274.9B,
  // 171.8B, 343.6B) are our checks, never to be shown as the lesson's: exactly those four are not in_lesson.
  std::vector<std::string> not_printed;
  for (const attn::LessonExample& ex : examples)
    for (const attn::LessonFigure& f : ex.figures)
      if (!f.in_lesson) not_printed.push_back(ex.id + " " + f.expected);
  CHECK(not_printed == std::vector<std::string>{"E3 137.4B", "E3 274.9B", "E3 171.8B", "E3 343.6B"});
}

TEST_CASE("GPT-3 and LLaMA-70B counts are exact in 64 bits", "[analysis][models]") {
  // GPT-3: d_model 12288, 96 heads, d_k = 128. Each matrix is 12288² = 150,994,944 weights;
  // 4·12288² = 603,979,776 (beyond 2^31 once multiplied by 4 bytes: 2,415,919,104).
  const attn::MhaDims gpt3 = dims(12288, 96);
  CHECK(gpt3.d_k == 128);
  const attn::ParameterCounts p = attn::parameter_counts(gpt3);
  CHECK(p.w_q == 150994944LL);
  CHECK(p.per_head_q == 1572864LL);  // 12288·128
  CHECK(p.weights == 603979776LL);
  CHECK(p.biases == 49152LL);        // 4·12288
  CHECK(p.total == 604028928LL);
  // n = 2048: one projection n·d² = 2048·150,994,944 = 309,237,645,312 (past 2^32 = 4,294,967,296);
  // scores n²·d = 4,194,304·12288 = 51,539,607,552; exact MACs 4·n·d² + 2·n²·d.
  const attn::FlopCounts f = attn::flop_counts(gpt3, 1, 2048, 2048, true);
  CHECK(f.lesson_projections == 309237645312LL);
  CHECK(f.lesson_scores == 51539607552LL);
  CHECK(f.exact_macs == 1340029796352LL);
  // FLOPs: 2 per MAC, plus biases (4·n·d = 100,663,296) and scale + softmax (6 per logit on
  // 96·2048² = 402,653,184 logits).
  CHECK(f.exact_flops == 2 * 1340029796352LL + 100663296LL + 6 * 402653184LL);
  CHECK(f.exact_flops == 2682576175104LL);
  // Attention weights: 4·96·2048² = 1,610,612,736 bytes; batch 8 at n = 32768: 3,298,534,883,328.
  CHECK(attn::attention_weight_bytes(96, 1, 2048, 2048) == 1610612736ull);
  CHECK(attn::attention_weight_bytes(96, 8, 32768, 32768) == 3298534883328ull);
  const auto trace = attn::tensor_trace(gpt3, 1, 2048, 2048, true);
  for (const attn::TensorInfo& t : trace)
    if (t.name.rfind("S_i", 0) == 0) CHECK(t.bytes == 1610612736LL);
  const attn::RunMemory m = attn::run_memory(gpt3, 1, 2048, 2048, true, true);
  CHECK(m.parameters == 8ull * 604028928ull);
  CHECK(m.total > attn::kDefaultMemoryBudget);

  // LLaMA-70B: d_model 8192, 64 query heads of 128, 8 key/value heads (grouped-query attention).
  const attn::MhaDims llama = dims(8192, 64, false);
  CHECK(llama.d_k == 128);
  CHECK(attn::parameter_counts(llama).weights == 268435456LL);  // 4·8192² if every head had its own K, V
  // Wq 8192² + Wk 8192·(8·128) + Wv 8192·1024 + Wo 8192² = 67,108,864·2 + 8,388,608·2.
  CHECK(attn::parameter_count_gqa(llama, 8) == 150994944LL);
  CHECK(attn::parameter_count_gqa(dims(8192, 64, true), 8) == 150994944LL + 8192 + 1024 + 1024 + 8192);
  CHECK(attn::parameter_count_gqa(llama, 64) == 268435456LL);  // one K/V head per query head: plain MHA
  CHECK(attn::flop_counts(llama, 1, 4096, 4096, true).lesson_projections == 274877906944LL);  // 4096·8192²
}

TEST_CASE("model presets resolve, with d_k = d_model / n_heads", "[analysis][models]") {
  const auto presets = attn::model_presets();
  REQUIRE(presets.size() == 7);
  for (const attn::ModelPreset& m : presets) {
    INFO(m.name);
    const attn::MhaDims d = dims(m.d_model, m.n_heads);
    CHECK(d.d_k == m.d_k);
    CHECK(attn::parameter_counts(dims(m.d_model, m.n_heads, false)).weights == 4LL * m.d_model * m.d_model);
    CHECK(m.n_heads % m.n_kv_heads == 0);
  }
  CHECK(presets[4].name == "GPT-3");
  CHECK(presets[6].name == "LLaMA-70B");
  CHECK(presets[6].n_kv_heads == 8);
}

TEST_CASE("heads do not change total parameters or matmul FLOPs", "[analysis]") {
  const int d_model = 768, batch = 2, n_q = 100, n_k = 300;
  const std::vector<int> heads = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 768};
  for (bool bias : {false, true})
    for (bool scale : {false, true}) {
      const attn::MhaDims one = dims(d_model, 1, bias);
      const attn::ParameterCounts p1 = attn::parameter_counts(one);
      const attn::FlopCounts f1 = attn::flop_counts(one, batch, n_q, n_k, scale);
      CHECK(p1.weights == 4LL * d_model * d_model);
      CHECK(p1.total == 4LL * d_model * d_model + (bias ? 4LL * d_model : 0));
      for (int h : heads) {
        INFO("n_heads " << h << ", bias " << bias << ", scale " << scale);
        const attn::MhaDims d = dims(d_model, h, bias);
        CHECK(attn::parameter_counts(d).total == p1.total);
        const attn::FlopCounts f = attn::flop_counts(d, batch, n_q, n_k, scale);
        CHECK(f.exact_macs == f1.exact_macs);
        CHECK(f.lesson_total == f1.lesson_total);
        CHECK(f.projection_flops == f1.projection_flops);
        // Only the element-wise work grows with h: each head has its own n_q×n_k logits, each
        // costing 5 softmax operations (and 1 more for the 1/√d_k scale).
        const std::int64_t per_logit = scale ? 6 : 5;
        CHECK(f.exact_flops - per_logit * batch * h * n_q * n_k == f1.exact_flops - per_logit * batch * n_q * n_k);
      }
    }
}

TEST_CASE("positional encoding matches the double formula and has the lesson's properties", "[analysis][pe]") {
  for (int d_model : {64, 7}) {  // even, and odd (the last sine has no cosine partner)
    const int n = 200;
    INFO("d_model " << d_model);
    const std::vector<float> pe = attn::positional_encoding(n, d_model);
    const std::vector<double> want = reference::positional_encoding(n, d_model);
    REQUIRE(pe.size() == want.size());
    // Computed in double and stored as float: off by at most half a float ulp of a value in
    // [−1, 1], 2^-25 ≈ 3e-8; allow 2^-24.
    double worst = 0.0, max_abs = 0.0;
    for (std::size_t x = 0; x < pe.size(); ++x) {
      worst = std::max(worst, std::fabs(pe[x] - want[x]));
      max_abs = std::max(max_abs, static_cast<double>(std::fabs(pe[x])));
    }
    CHECK(worst <= 1.0 / 16777216.0);
    CHECK(max_abs <= 1.0);
    // Row 0 is (sin 0, cos 0, ...) = (0, 1, 0, 1, ...).
    for (int c = 0; c < d_model; ++c) CHECK(pe[static_cast<std::size_t>(c)] == (c % 2 == 0 ? 0.0f : 1.0f));
  }

  const int n = 128, d_model = 64, k = 5;
  const attn::PositionalProperties props = attn::positional_properties(n, d_model, k);
  CHECK(props.max_abs <= 1.0);
  CHECK(props.offset_k == k);
  // Distinct positions: the smallest distance, recomputed from the double table, is clearly > 0.
  const std::vector<double> table = reference::positional_encoding(n, d_model);
  double min_d = INFINITY;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      double sq = 0.0;
      for (int c = 0; c < d_model; ++c) {
        const double diff = table[static_cast<std::size_t>(a) * d_model + c] - table[static_cast<std::size_t>(b) * d_model + c];
        sq += diff * diff;
      }
      min_d = std::min(min_d, std::sqrt(sq));
    }
  INFO("min distance " << props.min_distance << " between " << props.closest_a << " and " << props.closest_b);
  CHECK(props.min_distance > 0.1);
  CHECK(props.min_distance == Approx(min_d).epsilon(1e-5));
  CHECK(props.closest_a < props.closest_b);
  // Rotation: PE(pos + k) = R_k·PE(pos). On the float table the error is a few float roundings.
  CHECK(props.rotation_max_error <= 1e-6);
  // In double the identity holds to rounding: sin(a + b) = sin a cos b + cos a sin b.
  double rot = 0.0;
  for (int pos = 0; pos + k < n; ++pos)
    for (int c = 0; c + 1 < d_model; c += 2) {
      const double omega = std::exp(-(static_cast<double>(c) / d_model) * std::log(10000.0));
      const double* now = table.data() + static_cast<std::size_t>(pos) * d_model;
      const double* later = table.data() + static_cast<std::size_t>(pos + k) * d_model;
      const double s = now[c] * std::cos(k * omega) + now[c + 1] * std::sin(k * omega);
      const double co = now[c + 1] * std::cos(k * omega) - now[c] * std::sin(k * omega);
      rot = std::max({rot, std::fabs(s - later[c]), std::fabs(co - later[c + 1])});
    }
  CHECK(rot <= 1e-12);
}

TEST_CASE("sqrt_dk_stats: q·k has variance d_k, scaling restores 1, unscaled softmax saturates", "[analysis][sqrt_dk]") {
  // Statistical tolerance. The S·N logits share one q per sample, so they are not independent:
  // given q, q·k ~ N(0, |q|²), and |q|² ~ χ²(d_k). The estimate V̂ of Var(q·k) = d_k then has
  // relative standard deviation σ = √((2/d_k + 2/N·(1 + 2/d_k)) / S), and the mean of q·k has
  // standard deviation √(d_k / (S·N)). The runs are seeded (deterministic); 5σ keeps the check
  // valid for any seed while still catching a wrong scale (1/√d_k vs 1/d_k is off by a factor d_k).
  struct Run {
    int d_k, n_k, samples;
  };
  for (const Run r : {Run{64, 64, 400}, Run{512, 64, 100}, Run{16, 128, 300}}) {
    const attn::SqrtDkStats s = attn::sqrt_dk_stats(r.d_k, r.n_k, r.samples, 2024);
    const double sigma = std::sqrt((2.0 / r.d_k + 2.0 / r.n_k * (1 + 2.0 / r.d_k)) / r.samples);
    INFO("d_k " << r.d_k << ": mean " << s.dot_mean << ", variance " << s.dot_variance << " (theory " << r.d_k
                << "), scaled variance " << s.scaled_variance << ", relative σ " << sigma);
    CHECK(s.d_k == r.d_k);
    CHECK(std::fabs(s.dot_variance / r.d_k - 1.0) <= 5 * sigma);
    CHECK(std::fabs(s.scaled_variance - 1.0) <= 5 * sigma);
    CHECK(s.scaled_variance == Approx(s.dot_variance / r.d_k).epsilon(1e-12));
    CHECK(std::fabs(s.dot_mean) <= 5 * std::sqrt(static_cast<double>(r.d_k) / (static_cast<double>(r.samples) * r.n_k)));
    CHECK(s.max_entropy == Approx(std::log(static_cast<double>(r.n_k))));
    CHECK(s.entropy_scaled >= 0.0);
    CHECK(s.entropy_scaled <= s.max_entropy);
    CHECK(s.entropy_unscaled >= 0.0);
    CHECK(s.entropy_unscaled <= s.max_entropy);
    if (r.d_k == 512) {
      // Logits with standard deviation √512 ≈ 22.6 put nearly all weight on one key.
      CHECK(s.max_weight_unscaled > s.max_weight_scaled);
      CHECK(s.entropy_unscaled < s.entropy_scaled);
      CHECK(s.max_weight_unscaled > 0.5);
      WARN("√d_k, d_k = 512, n_k = 64: max weight " << s.max_weight_scaled << " scaled vs " << s.max_weight_unscaled
                                                    << " unscaled; entropy " << s.entropy_scaled << " vs "
                                                    << s.entropy_unscaled << " nats (uniform " << s.max_entropy << ")");
    }
  }
  // Seeded: the same seed gives the same numbers.
  const attn::SqrtDkStats a = attn::sqrt_dk_stats(32, 16, 20, 5), b = attn::sqrt_dk_stats(32, 16, 20, 5);
  CHECK(a.dot_variance == b.dot_variance);
  CHECK(a.entropy_unscaled == b.entropy_unscaled);
}

}  // namespace test_analysis
