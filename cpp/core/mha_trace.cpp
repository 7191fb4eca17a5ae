// MultiHeadAttention::trace: one query row through the layer, by the forward pass's own calls.
// K and V of the batch item for every key/value head (the Concat row needs every head), this
// query's Q row, each query head's attention row for this query through attend_head, the full
// trace for the chosen head, head_mask, then Concat row·Wᴼ. Work: the K and V projections of one
// batch item and one row of everything else, never the other query rows nor their n_q × n_k
// attention.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "mha.h"
#include "trace.h"

namespace attn {
namespace {

// rows × width values at x with row stride ld, as a contiguous copy (one head's columns).
std::vector<float> columns(const float* x, int ld, int rows, int width) {
  std::vector<float> out(static_cast<std::size_t>(rows) * width);
  for (int r = 0; r < rows; ++r)
    std::copy_n(x + static_cast<std::size_t>(r) * ld, width, out.begin() + static_cast<std::ptrdiff_t>(r) * width);
  return out;
}

}  // namespace

MhaTrace MultiHeadAttention::trace(const MhaInput& in, const ForwardOptions& options, int item, int head,
                                   int query) const {
  // The same checks as a forward pass without weights (the trace never holds n_q × n_k).
  ForwardOptions opt = options;
  opt.need_weights = false;
  validate(in, opt);
  require_index("item", item, in.batch, "batch");
  require_index("head", head, dims_.n_heads, "n_heads");
  require_index("query", query, in.n_q, "n_q");
  const int D = dims_.d_model, dk = dims_.d_k, dv = dims_.d_v, G = dims_.group();
  const int qk = static_cast<int>(dims_.qk_width()), vw = static_cast<int>(dims_.v_width());
  const int kk = static_cast<int>(dims_.kv_k_width()), kvw = static_cast<int>(dims_.kv_v_width());
  const std::size_t NK = in.n_k;
  // Beyond the inputs: K and V of the batch item, this head's copy of them, the rows of the
  // trace (its packed K too), and what attend_head holds for one row with its weights.
  const HeadWorkingFloats work = attend_working_floats(opt, 1, in.n_k, dk, dv, true);
  const std::uint64_t floats = static_cast<std::uint64_t>(NK) * (kk + kvw + dk + dv) + (NK + 8) * dk +
                               6 * static_cast<std::uint64_t>(NK) + 2ull * D + qk + 2ull * vw + work.buffers +
                               work.a_pack;
  const bool self = in.query == in.key && in.key == in.value;
  const std::uint64_t inputs = in.query_len + (self ? 0 : in.key_len + in.value_len);
  require_within_budget("this trace", 4 * (inputs + floats) + NK + opt.mask.bytes(), opt.memory_budget);

  const float* x = in.query + (static_cast<std::size_t>(item) * in.n_q + query) * D;
  MhaTrace t;
  t.x.assign(x, x + D);
  std::vector<float> q_row(qk), k_proj(NK * kk), v_proj(NK * kvw), weights(NK);
  w_q_.apply(1, x, D, q_row.data(), qk);
  w_k_.apply(in.n_k, in.key + static_cast<std::size_t>(item) * NK * D, D, k_proj.data(), kk);
  w_v_.apply(in.n_k, in.value + static_cast<std::size_t>(item) * NK * D, D, v_proj.data(), kvw);
  // RoPE: the trace's q and k are the rotated ones, as the scores use them.
  if (opt.positional == Positional::rope) {
    rope_rotate(q_row.data(), qk, 1, query, dims_.n_heads, dk, rope_base_or_default(opt.rope_base), false);
    rope_rotate(k_proj.data(), kk, in.n_k, 0, dims_.n_kv_heads, dk, rope_base_or_default(opt.rope_base), false);
  }
  const std::vector<float> slopes = head_slopes(opt, dims_.n_heads);
  t.concat.assign(vw, 0.0f);
  t.kv_head = dims_.kv_head(head);
  const float alpha = logit_scale(opt, dk);
  // Query heads g·G … g·G + G − 1 read key/value head g (dims_.kv_head), as in the forward pass.
  for (int g = 0; g < dims_.n_kv_heads; ++g) {
    const float* k_head = k_proj.data() + g * dk;
    const float* v_head = v_proj.data() + g * dv;
    const double k_norm2 = max_row_norm2(k_head, kk, in.n_k, dk), v_norm2 = max_row_norm2(v_head, kvw, in.n_k, dv);
    for (int h = g * G; h < (g + 1) * G; ++h) {
      require_unscaled_logits("its trace", "projection", max_row_norm2(q_row.data() + h * dk, qk, 1, dk), k_norm2, v_norm2, alpha, item, h);
      HeadProblem p{};  // by name, as mha.cpp fills it
      p.q = q_row.data() + h * dk;
      p.ldq = qk;
      p.k = k_head;
      p.ldk = kk;
      p.v = v_head;
      p.ldv = kvw;
      p.out = t.concat.data() + h * dv;
      p.ldo = vw;
      p.weights = weights.data();
      p.rows = 1;
      p.n_k = in.n_k;
      p.d_k = dk;
      p.d_v = dv;
      p.row0 = query;
      p.b = item;
      p.h = h;
      p.v_bound = std::sqrt(v_norm2);
      p.slopes = slopes.empty() ? nullptr : slopes.data() + h;
      if (h != head) {
        attend_head(p, opt, nullptr);
        continue;
      }
      t.head = trace_head_row(p, opt);
      std::copy(t.head.output.begin(), t.head.output.end(), t.concat.begin() + static_cast<std::ptrdiff_t>(h) * dv);
      t.q.assign(q_row.begin() + static_cast<std::ptrdiff_t>(h) * dk, q_row.begin() + static_cast<std::ptrdiff_t>(h + 1) * dk);
      t.k = columns(k_head, kk, in.n_k, dk);
      t.v = columns(v_head, kvw, in.n_k, dv);
    }
  }
  // head_mask scales the heads' columns of the Concat row before Wᴼ, as in the forward pass.
  if (!opt.head_mask.empty()) apply_head_mask(opt.head_mask, 1, dv, t.concat.data(), vw);
  t.output.resize(D);
  w_o_.apply(1, t.concat.data(), vw, t.output.data(), D);
  // As the forward pass: finite inputs and weights can still overflow in the output projection.
  if (first_non_finite(t.output.data(), t.output.size()) != t.output.size())
    throw Error("the output overflowed float32 at batch item " + std::to_string(item) + ", query " +
                std::to_string(query) + ": the inputs or weights are too large, scale them down");
  return t;
}

}  // namespace attn
