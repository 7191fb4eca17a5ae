// The trace of one query row of one head, and of scaled_dot_product_attention. The weights and
// the output come from attend_head itself (run on that one row); the numbers before them from
// the whole-row path's own steps (block_logits, mask_logits) and the softmax kernel's (row_max,
// exp_shift_row), so a change to how the forward pass computes them reaches the trace too.
#include "trace.h"

#include <cmath>
#include <limits>
#include <string>

#include "error.h"
#include "kernels.h"
#include "rng.h"

namespace attn {

HeadRowTrace trace_head_row(const HeadProblem& p, const AttentionOptions& opt) {
  const int n_k = p.n_k, i = p.row0;
  const float neg_inf = -std::numeric_limits<float>::infinity();
  HeadRowTrace t;
  t.logit_scale = logit_scale(opt, p.d_k);
  t.keep_scale = dropout_active(opt) ? 1.0f / (1.0f - opt.dropout) : 1.0f;

  // Scores and logits from K packed as the whole-row path packs it; the scores are the same
  // matmul without α (so logit = α·score up to one rounding, shown as it happens).
  PackedB k_packed;
  kern::pack_b(p.d_k, n_k, p.k, p.ldk, true, k_packed);
  t.scores.resize(n_k);
  kern::gemm_packed(1, p.q, p.ldq, k_packed, t.scores.data(), n_k, 1.0f, nullptr, false);
  if (p.slopes) {
    t.slope = *p.slopes;
    t.bias.assign(n_k, 0.0f);
    add_alibi(t.bias.data(), i, 0, n_k, t.slope);
  }
  t.logits.resize(n_k);
  block_logits(p, opt, k_packed, 0, 1, t.logits.data());
  t.scaled = t.logits;  // the page's "scale" stage: every key's scaled score, before the mask hides some
  if (opt.mask.any()) mask_logits(t.logits.data(), opt.mask, p.b, i, 0, n_k, n_k);

  // The softmax kernel's first two steps, kept: the max, then exp(logit − max) and their sum.
  // (Its third step multiplies by float(1/sum); attend_head below does that for real.)
  t.max = kern::row_max(t.logits.data(), n_k);
  t.masked = t.max == neg_inf;
  t.exp = t.logits;
  if (t.masked) {
    t.exp.assign(n_k, 0.0f);
  } else {
    t.sum = kern::exp_shift_row(t.exp.data(), n_k, t.max);
  }

  // The weights and the head's output: the forward pass's routine, on this one row.
  t.weights.resize(n_k);
  t.output.resize(p.d_v);
  HeadProblem one = p;
  one.rows = 1;
  one.weights = t.weights.data();
  one.out = t.output.data();
  one.ldo = p.d_v;
  attend_head(one, opt, nullptr);

  // Dropout's decisions, by the rule the forward pass applies (a function of (seed, b, h, i, j)).
  t.dropped.assign(n_k, 0);
  if (dropout_active(opt) && !t.masked)
    for (int j = 0; j < n_k; ++j)
      t.dropped[j] = t.logits[j] != neg_inf && !dropout_keep(opt.seed, p.b, p.h, i, j, opt.dropout);
  return t;
}

void require_index(const char* name, int index, int count, const char* count_name) {
  require(index >= 0 && index < count, std::string(name) + " " + std::to_string(index) + " is out of range 0…" +
                                           std::to_string(count - 1) + " (" + count_name + " = " +
                                           std::to_string(count) + ")");
}

AttentionTrace trace_attention(const float* q, std::size_t q_len, const float* k, std::size_t k_len, const float* v,
                               std::size_t v_len, int batch, int n_q, int n_k, int d_k, int d_v,
                               const AttentionOptions& opt, int item, int query, std::uint64_t memory_budget) {
  validate_attention_sizes(q_len, k_len, v_len, batch, n_q, n_k, d_k, d_v, opt);
  require_index("item", item, batch, "batch");
  require_index("query", query, n_q, "n_q");
  const std::uint64_t NK = n_k, dk = d_k, dv = d_v;
  // The inputs, the trace (k and v of the item, n_k-long rows, the packed K of the scores)
  // and what attend_head holds for one row with its weights.
  const HeadWorkingFloats work = attend_working_floats(opt, 1, n_k, d_k, d_v, true);
  const std::uint64_t needed = 4 * (q_len + k_len + v_len + NK * (dk + dv) + (NK + 8) * dk + 5 * NK + dk + dv +
                                    work.buffers + work.a_pack) + NK;
  require_within_budget("this trace", needed + opt.mask.bytes(), memory_budget);
  require_finite_attention_inputs(q, q_len, k, k_len, v, v_len, d_k, d_v);

  const float* q_row = q + (static_cast<std::size_t>(item) * n_q + query) * dk;
  const float* keys = k + static_cast<std::size_t>(item) * NK * dk;
  const float* values = v + static_cast<std::size_t>(item) * NK * dv;
  const double v_norm2 = max_row_norm2(values, d_v, n_k, d_v);
  require_unscaled_logits("its trace", "input", max_row_norm2(q_row, d_k, 1, d_k), max_row_norm2(keys, d_k, n_k, d_k), v_norm2,
                    logit_scale(opt, d_k), item, 0);
  HeadProblem p{};  // by name, as mha.cpp fills it; out: none, the row is traced
  p.q = q_row;
  p.ldq = d_k;
  p.k = keys;
  p.ldk = d_k;
  p.v = values;
  p.ldv = d_v;
  p.ldo = d_v;
  p.rows = 1;
  p.n_k = n_k;
  p.d_k = d_k;
  p.d_v = d_v;
  p.row0 = query;
  p.b = item;
  p.h = 0;
  p.v_bound = std::sqrt(v_norm2);
  AttentionTrace t;
  t.q.assign(q_row, q_row + dk);
  t.k.assign(keys, keys + NK * dk);
  t.v.assign(values, values + NK * dv);
  t.row = trace_head_row(p, opt);
  // As scaled_dot_product_attention: an average of values near float's limit can overflow.
  if (first_non_finite(t.row.output.data(), t.row.output.size()) != t.row.output.size())
    throw Error("the attention output overflowed float32 at batch item " + std::to_string(item) + ", query " +
                std::to_string(query) + ": the values are too large, scale them down");
  return t;
}

}  // namespace attn
