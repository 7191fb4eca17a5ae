// What a multi-head attention layer costs, computed from its sizes alone (nothing is
// allocated, so GPT-3's sizes are as quick as a toy's): the shape of every tensor,
// parameter counts, FLOPs both as the lesson counts them and exactly, and memory.
// All counts are 64-bit integers: GPT-3's figures overflow 32 bits.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dims.h"

namespace attn {

/// Checks that every count of this problem fits in 53 bits (exact as a double, as JavaScript
/// receives it, and far from int64 overflow); throws Error naming the size otherwise.
void require_countable(const MhaDims& d, int batch, int n_q, int n_k);

struct ParameterCounts {
  // Whole matrices, as stored: Wq d_model×(h·d_k); Wk d_model×(n_kv_heads·d_k); Wv
  // d_model×(n_kv_heads·d_v); Wo (h·d_v)×d_model (n_kv_heads = h: multi-head attention).
  std::int64_t w_q, w_k, w_v, w_o;
  // One head's slices: W_iᴽ, W_iᴷ d_model×d_k; W_iⱽ d_model×d_v; its rows of Wᴼ d_v×d_model.
  std::int64_t per_head_q, per_head_k, per_head_v, per_head_o;
  std::int64_t b_q, b_k, b_v, b_o;   // bias lengths (counted whether or not bias is on)
  std::int64_t weights;              // Wq + Wk + Wv + Wo
  std::int64_t biases;               // bq + bk + bv + bo
  std::int64_t total;                // weights, plus biases when bias is on
};
ParameterCounts parameter_counts(const MhaDims& d);
/// The total of parameter_counts for the same sizes with n_kv_heads key/value heads instead.
std::int64_t parameter_count_gqa(const MhaDims& d, int n_kv_heads);

/// The key/value cache of autoregressive decoding: every past token keeps its K and V rows,
/// n_kv_heads·(d_k + d_v) numbers per token and layer (2·n_kv_heads·d_k when d_k = d_v),
/// float32. Grouped-query attention divides it by n_heads / n_kv_heads against multi-head.
struct KVCacheCost {
  int n_heads, n_kv_heads, n_layers;
  std::int64_t numbers_per_token;      // n_kv_heads·(d_k + d_v)·n_layers
  std::int64_t bytes_per_token;        // 4 × numbers_per_token
  std::int64_t tokens;                 // batch × n (the cached keys)
  std::int64_t bytes;                  // bytes_per_token × tokens
  std::int64_t mha_bytes_per_token;    // the same with n_heads key/value heads
  std::int64_t mha_bytes;
  std::int64_t saved_bytes;            // mha_bytes − bytes
  double ratio;                        // mha_bytes / bytes = n_heads / n_kv_heads
};
KVCacheCost kv_cache_cost(const MhaDims& d, int batch, int n, int n_layers = 1);

/// One stage of the forward pass. macs: multiply-adds; flops: 2 per multiply-add plus the
/// element-wise operations of the stage (bias adds, the 1/√d_k scale, softmax's 5 per logit:
/// max, subtract, exp, add, divide).
struct StageCost {
  std::string stage;
  std::int64_t macs;
  std::int64_t flops;
};

struct FlopCounts {
  // The lesson's count (worked example E3): one projection n·d², scores n²·d, weighted sum
  // n²·d, with a multiply-add counted as one operation and heads folded into d = h·d_k.
  std::int64_t lesson_projections, lesson_scores, lesson_weighted_sum, lesson_softmax, lesson_total;
  std::vector<StageCost> stages;  // exact: q, k, v, output projections, scores, softmax, weighted sum
  std::int64_t exact_macs, exact_flops;
  std::int64_t projection_flops, attention_flops;  // exact, four projections vs scores+softmax+weighted sum
  bool projections_dominate_lesson, projections_dominate_exact;
  std::string dominant_reason;  // a sentence: which term dominates and why (n against d)
};
FlopCounts flop_counts(const MhaDims& d, int batch, int n_q, int n_k, bool scale);

/// One tensor of the forward pass, as the lesson's worked example E1 lists them.
struct TensorInfo {
  std::string name;                 // e.g. "Q_i = X_q·W_iᴽ"
  std::vector<std::int64_t> dims;   // e.g. {batch, n_heads, n_q, d_k}
  std::int64_t bytes;               // float32
  std::string note;                 // how the engine holds it (whole, in blocks, a view)
};
/// With scale off the scores are named S_i = Q_i·K_iᵀ: a name that still divided by √d_k would describe
/// a computation the run did not do.
std::vector<TensorInfo> tensor_trace(const MhaDims& d, int batch, int n_q, int n_k, bool need_weights,
                                     bool scale = true);

/// A tensor of a layer's forward pass by the name the API's export and importTensors give it, and its shape.
struct NamedShape {
  const char* name;          // query, key, value, wq, wk, wv, wo, bq, bk, bv, bo, q, k, v, attention, head_outputs, output
  int rank;                  // 1 … 4 axes
  std::int64_t dims[4];      // the shape, outermost axis first (dims[0 … rank−1])
};
/// The tensors of layer_tensor_shapes, in the export's order (a fixed table: no allocation, little code).
constexpr int kLayerTensors = 17;
/// The shapes of every tensor a learner can export or import for a layer over `batch` items of n_q queries and
/// n_k keys: the inputs [batch, n, d_model]; the parameters as y = x·W + b takes them, W [in, out] (wq
/// [d_model, n_heads·d_k], wk [d_model, n_kv_heads·d_k], wv [d_model, n_kv_heads·d_v], wo [n_heads·d_v, d_model])
/// and b [out]; q, k, v split by head ([batch, heads, n, d]); attention [batch, n_heads, n_q, n_k];
/// head_outputs [batch, n_heads, n_q, d_v]; output [batch, n_q, d_model]. The page reads them from resolveView
/// rather than multiplying the sizes itself.
std::array<NamedShape, kLayerTensors> layer_tensor_shapes(const MhaDims& d, int batch, int n_q, int n_k);

/// Bytes one forward call needs in the wasm heap, split by purpose.
struct RunMemory {
  std::uint64_t inputs;      // query (and key, value unless self-attention)
  std::uint64_t outputs;     // output [batch, n_q, d_model]
  std::uint64_t weights;     // attention weights [batch, h, n_q, n_k] when requested
  std::uint64_t working;     // K and V projections of one batch item, query blocks, tiles
  std::uint64_t parameters;  // the layer's weights and their packed copies
  std::uint64_t total;
};
RunMemory run_memory(const MhaDims& d, int batch, int n_q, int n_k, bool need_weights, bool self_attention);

/// Bytes of the attention weights of every head and batch item in float32 (practice problem P4).
std::uint64_t attention_weight_bytes(int n_heads, int batch, int n_q, int n_k);

// Work limits of the measured tables (require_within_work): each keeps a call within about two
// seconds in either wasm module on the development machine (2-core AMD EPYC, Node 20), from rates
// measured there in CPU time through the JS API: √d_k statistics 25 M draws/s, positional
// properties 310 M pair steps/s, positional encoding 48 M values/s (the slower module each time).
/// Values of one positional encoding table (n·d_model): 2^26, 1.4 s.
constexpr std::uint64_t kPositionalValues = std::uint64_t{1} << 26;
/// Steps of positional_properties' pair distances (n·(n − 1)/2·d_model): 1.6 s. The page's
/// largest table (64 positions at d_model 16,384) takes 33 million.
constexpr std::uint64_t kPositionalPairSteps = 500'000'000;
/// N(0, 1) draws of sqrt_dk_stats (d_k·n_k·samples): 2 s.
constexpr std::uint64_t kSqrtDkDraws = 50'000'000;

/// Sinusoidal positional encoding [n, d_model]: PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),
/// PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)). Computed in double, stored as float.
std::vector<float> positional_encoding(int n, int d_model);
/// The wavelength 2π·10000^(2i/d_model) of the encoding's sine/cosine pair i (positions per turn).
double encoding_wavelength(int i, int d_model);

/// Checks of the encoding's properties, measured on the computed table.
struct PositionalProperties {
  double max_abs;              // ≤ 1: every value lies in [−1, 1]
  double min_distance;         // > 0: every position differs from every other
  int closest_a, closest_b;    // the two positions that are closest
  double rotation_max_error;   // max |PE(pos+k) − R_k·PE(pos)| over all pos, one fixed k
  int offset_k;
};
PositionalProperties positional_properties(int n, int d_model, int offset_k);

/// Why √d_k: statistics of q·k for q, k with i.i.d. N(0, 1) components, and of the softmax
/// over n_k such logits with and without the 1/√d_k scale. Seeded, so a view is reproducible.
struct SqrtDkStats {
  int d_k, n_k, samples;
  double dot_mean, dot_variance;        // measured; theory: 0 and d_k
  double scaled_variance;               // of q·k/√d_k; theory: 1
  double entropy_scaled, entropy_unscaled;        // mean softmax entropy in nats (max ln n_k)
  double max_weight_scaled, max_weight_unscaled;  // mean of the largest weight in a row
  double max_entropy;                   // ln n_k, the entropy of uniform weights
};
SqrtDkStats sqrt_dk_stats(int d_k, int n_k, int samples, std::uint64_t seed);

}  // namespace attn
