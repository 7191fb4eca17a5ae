// MultiHeadAttention::trace: one query row through the layer. Its Q row for every head; each
// head's K and V columns over the n_k keys, one head at a time (the forward pass's projection
// kernel on those columns only, so the same numbers); each head's attention row for this query
// through attend_head; the full trace for the chosen head; then Concat row·Wᴼ. Work: the K and
// V projections of one batch item and one row of everything else, never the n_q × n_k part.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "mha.h"
#include "trace.h"

namespace attn {

MhaTrace MultiHeadAttention::trace(const MhaInput& in, const ForwardOptions& options, int item, int head,
                                   int query) const {
  // The same checks as a forward pass without weights (the trace never holds n_q × n_k).
  ForwardOptions opt = options;
  opt.need_weights = false;
  validate(in, opt);
  require_index("item", item, in.batch, "batch");
  require_index("head", head, dims_.n_heads, "n_heads");
  require_index("query", query, in.n_q, "n_q");
  const int D = dims_.d_model, H = dims_.n_heads, dk = dims_.d_k, dv = dims_.d_v;
  const int qk = static_cast<int>(dims_.qk_width()), vw = static_cast<int>(dims_.v_width());
  const std::size_t NK = in.n_k;
  // Beyond the inputs: this head's K and V twice (scratch and result), the packed columns of
  // Wᴷ and Wⱽ, the rows of the trace, and what attend_head holds for one row with weights.
  const HeadWorkingFloats work = attend_working_floats(opt, 1, in.n_k, dk, dv, true);
  const std::uint64_t floats = 2 * static_cast<std::uint64_t>(NK) * (dk + dv) + (D + 8ull) * (dk + dv) +
                               5 * static_cast<std::uint64_t>(NK) + 2ull * D + qk + 2ull * vw + work.buffers +
                               work.a_pack;
  const bool self = in.query == in.key && in.key == in.value;
  const std::uint64_t inputs = in.query_len + (self ? 0 : in.key_len + in.value_len);
  require_within_budget("this trace", 4 * (inputs + floats) + NK, opt.memory_budget);

  const float* x = in.query + (static_cast<std::size_t>(item) * in.n_q + query) * D;
  const float* keys = in.key + static_cast<std::size_t>(item) * NK * D;
  const float* values = in.value + static_cast<std::size_t>(item) * NK * D;
  MhaTrace t;
  t.x.assign(x, x + D);
  std::vector<float> q_row(qk);
  w_q_.apply(1, x, D, q_row.data(), qk);
  t.concat.assign(vw, 0.0f);
  std::vector<float> k_head(NK * dk), v_head(NK * dv), weights(NK);
  PackedB columns;
  const float alpha = logit_scale(opt, dk);
  for (int h = 0; h < H; ++h) {
    w_k_.apply_columns(h * dk, dk, in.n_k, keys, D, k_head.data(), dk, columns);
    w_v_.apply_columns(h * dv, dv, in.n_k, values, D, v_head.data(), dv, columns);
    const double v_norm2 = max_row_norm2(v_head.data(), dv, in.n_k, dv);
    require_finite_logits(max_row_norm2(q_row.data() + h * dk, qk, 1, dk), max_row_norm2(k_head.data(), dk, in.n_k, dk),
                          v_norm2, alpha, h);
    const HeadProblem p{q_row.data() + h * dk, qk, k_head.data(), dk, v_head.data(), dv, t.concat.data() + h * dv, vw,
                        weights.data(), 1, in.n_k, dk, dv, query, item, h, std::sqrt(v_norm2)};
    if (h != head) {
      attend_head(p, opt, nullptr);
      continue;
    }
    t.head = trace_head_row(p, opt);
    std::copy(t.head.output.begin(), t.head.output.end(), t.concat.begin() + static_cast<std::ptrdiff_t>(h) * dv);
    t.q.assign(q_row.begin() + static_cast<std::ptrdiff_t>(h) * dk, q_row.begin() + static_cast<std::ptrdiff_t>(h + 1) * dk);
    t.k = k_head;
    t.v = v_head;
  }
  t.output.resize(D);
  w_o_.apply(1, t.concat.data(), vw, t.output.data(), D);
  // As the forward pass: finite inputs and weights can still overflow in the output projection.
  if (first_non_finite(t.output.data(), t.output.size()) != t.output.size())
    throw Error("the output overflowed float32 at batch item " + std::to_string(item) + ", query " +
                std::to_string(query) + ": the inputs or weights are too large, scale them down");
  return t;
}

}  // namespace attn
