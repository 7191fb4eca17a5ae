// One fuzz input decoded into a call of the core's public API: plain attention, a multi-head
// layer, or one of the analysis/table/matmul calls, with its sizes, options, tensors and weights.
// Two encodings decode to it: libFuzzer's raw bytes (decode_bytes) and the readable text of the
// corpus of past failures in tests/fuzz/corpus/ (decode_text; see its README).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/mha.h"

namespace fuzz {

enum class Api { sdpa, mha, analysis };

struct Case {
  Api api = Api::sdpa;
  // Sizes as given (any int: raw decoding can produce 0, negatives and 2^30).
  int batch = 1, n_q = 1, n_k = 1;
  int d_k = 1, d_v = 1;                         // plain attention; for a layer, 0 = derived
  int d_model = 1, n_heads = 1;                 // layer
  bool bias = false;
  attn::AttentionOptions opt;                   // mask, scale, dropout, training, seed
  bool self = false;                            // layer: query, key and value are one buffer
  bool into = false;                            // layer: forward_into with the output in the query buffer
  std::vector<float> x, y, z;                   // q, k, v (plain) or query, key, value (layer)
  bool default_weights = true;                  // layer: the seeded defaults, else `weights`
  attn::MhaWeights weights;
  // analysis: which call and its integer arguments.
  int analysis_call = 0;
  std::vector<int> args;
};

/// Decodes libFuzzer bytes; always succeeds (missing bytes read as 0).
Case decode_bytes(const std::uint8_t* data, std::size_t size);
/// Decodes a text case ("api sdpa", "sizes ...", "q fill 4.8e18", ...). Returns false when the
/// text is not one (libFuzzer's mutations of a corpus file usually are not), with the reason.
bool decode_text(const std::string& text, Case& out, std::string& error);
/// A one-paragraph description of a case for a finding's report.
std::string describe(const Case& c);

}  // namespace fuzz
