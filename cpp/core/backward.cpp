// The backward pass of attention (see backward.h). One head at a time and a few query rows per
// step: the step recomputes its rows of the forward pass (logits, softmax, dropout, P·V), then
// pushes ∂L/∂O back through them, so the n_q×n_k weights never exist whole unless asked for.
#include "backward.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "analysis.h"
#include "buffer.h"
#include "error.h"
#include "kernels.h"

namespace attn {
namespace {

std::uint64_t round8(std::uint64_t x) { return (x + 7) / 8 * 8; }

// Rows of A the matmul packs for `rows` rows of its left operand (its 4-row tile, a 64-row block).
std::uint64_t a_pack_rows(std::uint64_t rows) { return (std::min<std::uint64_t>(rows, 64) + 3) / 4 * 4; }

// a·b·c as a count of floats, refused past 2^53 so that it is exact and the sums made of such
// counts cannot wrap.
std::uint64_t checked_count(const char* what, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 53;
  if ((b != 0 && a > kLimit / b) || (c != 0 && a * b > kLimit / c))
    throw Error(std::string(what) + " would hold more than 2^53 values; reduce the sizes");
  return a * b * c;
}

// A result that overflowed is named ("the gradient of wq"), never handed back as ±∞ or NaN.
void require_finite_result(const char* what, const char* name, const std::vector<float>& x, std::size_t row_length) {
  const std::size_t i = first_non_finite(x.data(), x.size());
  if (i == x.size()) return;
  throw Error(std::string(what) + name + " is not finite (it overflowed float32 at row " + group_digits(i / row_length) + ", column " +
              std::to_string(i % row_length) + "); grad_output, the inputs or the weights are too large: scale them down");
}

// out[c] += Σ_r x[r·ld + c]: the gradient of a bias is the column sum of its output's gradient.
void add_column_sums(const float* x, int rows, int cols, int ld, float* out) {
  for (int r = 0; r < rows; ++r) {
    const float* row = x + static_cast<std::size_t>(r) * ld;
    for (int c = 0; c < cols; ++c) out[c] += row[c];
  }
}

}  // namespace

int backward_rows(int n_k) { return softmax_rows(n_k); }

HeadBackwardFloats head_backward_floats(const AttentionOptions& opt, int n_q, int n_k, int d_k, int d_v,
                                        bool need_weights) {
  const std::uint64_t NK = n_k, dk = d_k, dv = d_v;
  const std::uint64_t R = std::min(backward_rows(n_k), n_q);
  // K packed as Kᵀ (scores) and as K (dQ); V as V (output) and as Vᵀ (dA).
  const std::uint64_t packs = dk * round8(NK) + NK * round8(dk) + NK * round8(dv) + dv * round8(NK);
  // A step's rows of A and of dS (in the caller's buffers when weights are wanted), and of
  // dropout(A) under dropout.
  const std::uint64_t rows = (need_weights ? 0 : 2 * R * NK) + (dropout_active(opt) ? R * NK : 0);
  // The matmul packs a step's rows (up to n_k wide), or for Aᵀ·B up to 64 columns of them.
  const std::uint64_t a_pack = std::max(a_pack_rows(R) * std::max({NK, dk, dv}), a_pack_rows(NK) * R);
  // Aᵀ·B packs its B: a step's rows of dO (dV) or of Q (dK).
  const std::uint64_t b_pack = R * round8(std::max(dk, dv));
  return {packs + rows, a_pack, b_pack};
}

void head_backward(const HeadBackward& p, const AttentionOptions& opt, std::vector<MaskedRow>* masked_rows) {
  thread_local Scratch<PackedB> k_t, k_n, v_n, v_t;
  thread_local Scratch<FloatBuffer> a_rows, p_rows, ds_rows;
  kern::pack_b(p.d_k, p.n_k, p.k, p.ldk, true, k_t);   // Kᵀ: S = α·Q·Kᵀ
  kern::pack_b(p.n_k, p.d_v, p.v, p.ldv, false, v_n);  // V: O = P·V
  kern::pack_b(p.d_v, p.n_k, p.v, p.ldv, true, v_t);   // Vᵀ: dP = dO·Vᵀ
  kern::pack_b(p.n_k, p.d_k, p.k, p.ldk, false, k_n);  // K: dQ = α·dS·K
  const float alpha = logit_scale(opt, p.d_k);
  const bool dropout = dropout_active(opt);
  const int step = backward_rows(p.n_k);
  const std::size_t block = static_cast<std::size_t>(std::min(step, p.n_q)) * p.n_k;
  if (!p.weights) a_rows.resize(block);
  if (!p.score_grads) ds_rows.resize(block);
  if (dropout) p_rows.resize(block);
  for (int r0 = 0; r0 < p.n_q; r0 += step) {
    const int rows = std::min(step, p.n_q - r0);
    const std::size_t at = static_cast<std::size_t>(r0) * p.n_k;
    float* a = p.weights ? p.weights + at : a_rows.data();  // A (P under dropout, see below)
    float* ds = p.score_grads ? p.score_grads + at : ds_rows.data();
    const float* q = p.q + static_cast<std::size_t>(r0) * p.ldq;
    const float* d_out = p.d_out + static_cast<std::size_t>(r0) * p.ld_dout;

    // Forward: A = softmax(α·Q·Kᵀ masked) (a fully masked row stays 0), P = dropout(A), O = P·V.
    kern::gemm_packed(rows, q, p.ldq, k_t, a, p.n_k, alpha, nullptr, false);
    for (int r = 0; r < rows; ++r) {
      float* row = a + static_cast<std::size_t>(r) * p.n_k;
      if (p.slope) add_alibi(row, r0 + r, 0, p.n_k, *p.slope);
      if (opt.mask.any()) mask_logits(row, opt.mask, p.b, r0 + r, 0, p.n_k, p.n_k);
      if (!kern::softmax_row(row, p.n_k) && masked_rows && p.h == 0) masked_rows->push_back({p.b, r0 + r});
    }
    // Under dropout A moves to scratch and P takes its place, so that the caller's weights hold
    // P, as the forward pass returns them.
    const float* dropped = a;
    if (dropout) {
      std::copy_n(a, static_cast<std::size_t>(rows) * p.n_k, p_rows.data());
      for (int r = 0; r < rows; ++r) apply_dropout(a + static_cast<std::size_t>(r) * p.n_k, opt, p.b, p.h, r0 + r, 0, p.n_k);
      a = p_rows.data();
    }
    kern::gemm_packed(rows, dropped, p.n_k, v_n, p.out + static_cast<std::size_t>(r0) * p.ldo, p.ldo, 1.0f, nullptr,
                      false);

    // Backward: dV += Pᵀ·dO; dA = dropout(dO·Vᵀ) (the same factors as P); dS = A ⊙ (dA − rowsum(dA ⊙ A)).
    kern::gemm_tn(p.n_k, p.d_v, rows, dropped, p.n_k, d_out, p.ld_dout, p.dv, p.lddv, 1.0f, true);
    kern::gemm_packed(rows, d_out, p.ld_dout, v_t, ds, p.n_k, 1.0f, nullptr, false);
    for (int r = 0; r < rows; ++r) {
      float* row = ds + static_cast<std::size_t>(r) * p.n_k;
      if (dropout) apply_dropout(row, opt, p.b, p.h, r0 + r, 0, p.n_k);
      kern::softmax_backward_row(a + static_cast<std::size_t>(r) * p.n_k, row, p.n_k);
    }
    // dQ = α·dS·K; dK += α·dSᵀ·Q.
    kern::gemm_packed(rows, ds, p.n_k, k_n, p.dq + static_cast<std::size_t>(r0) * p.lddq, p.lddq, alpha, nullptr,
                      false);
    kern::gemm_tn(p.n_k, p.d_k, rows, ds, p.n_k, q, p.ldq, p.dk, p.lddk, alpha, true);
  }
}

SdpaBackwardResult scaled_dot_product_attention_backward(
    const float* q, std::size_t q_len, const float* k, std::size_t k_len, const float* v, std::size_t v_len,
    const float* grad_output, std::size_t grad_output_len, int batch, int n_q, int n_k, int d_k, int d_v,
    const AttentionOptions& opt, bool need_weights, std::uint64_t memory_budget) {
  require_positive("batch", batch);
  require_positive("n_q", n_q);
  require_positive("n_k", n_k);
  require_positive("d_k", d_k);
  require_positive("d_v", d_v);
  const std::uint64_t B = batch, NQ = n_q, NK = n_k;
  const std::uint64_t q_count = checked_count("q", B, NQ, d_k), k_count = checked_count("k", B, NK, d_k),
                      v_count = checked_count("v", B, NK, d_v), out_count = checked_count("the output", B, NQ, d_v),
                      w_count = need_weights ? checked_count("the attention weights", B, NQ, NK) : 0;
  auto shape = [](const char* dims, std::initializer_list<int> sizes) {
    std::string out = std::string(dims) + " = [";
    for (int s : sizes) out += (out.back() == '[' ? "" : ", ") + std::to_string(s);
    return out + "]";
  };
  require_length("q", q_len, q_count, shape("[batch, n_q, d_k]", {batch, n_q, d_k}));
  require_length("k", k_len, k_count, shape("[batch, n_k, d_k]", {batch, n_k, d_k}));
  require_length("v", v_len, v_count, shape("[batch, n_k, d_v]", {batch, n_k, d_v}));
  require_length("grad_output", grad_output_len, out_count, shape("[batch, n_q, d_v]", {batch, n_q, d_v}));
  opt.validate(batch, n_q, n_k);
  const HeadBackwardFloats work = head_backward_floats(opt, n_q, n_k, d_k, d_v, need_weights);
  // Inputs with grad_output (copied into the heap by callers such as the JS API), the output and
  // the three gradients, weights and dS, working buffers, two row norms (double) per batch item.
  const std::uint64_t needed = 4 * (2 * (q_count + k_count + v_count + out_count) + 2 * w_count + work.buffers +
                                    work.a_pack + work.b_pack + 4 * B);
  require_within_budget("this backward pass", needed + opt.mask.bytes(), memory_budget);
  require_finite("q", q, q_len, d_k);
  require_finite("k", k, k_len, d_k);
  require_finite("v", v, v_len, d_v);
  require_finite("grad_output", grad_output, grad_output_len, d_v);

  SdpaBackwardResult r;
  r.output.resize(out_count);
  r.dq.resize(q_count);
  r.dk.assign(k_count, 0.0f);  // accumulated over query steps
  r.dv.assign(v_count, 0.0f);
  r.weights.resize(w_count);
  r.score_grads.resize(w_count);
  const float alpha = logit_scale(opt, d_k);
  for (int b = 0; b < batch; ++b) {
    const std::size_t qo = b * NQ * d_k, ko = b * NK * d_k, vo = b * NK * d_v, oo = b * NQ * d_v;
    const double v_norm2 = max_row_norm2(v + vo, d_v, n_k, d_v);
    require_unscaled_logits("the backward pass", "input", max_row_norm2(q + qo, d_k, n_q, d_k), max_row_norm2(k + ko, d_k, n_k, d_k), v_norm2, alpha, b, 0);
    HeadBackward p{};  // by name: 26 fields, pointers and strides of one type side by side
    p.q = q + qo;
    p.ldq = d_k;
    p.k = k + ko;
    p.ldk = d_k;
    p.v = v + vo;
    p.ldv = d_v;
    p.d_out = grad_output + oo;
    p.ld_dout = d_v;
    p.out = r.output.data() + oo;
    p.ldo = d_v;
    p.dq = r.dq.data() + qo;
    p.lddq = d_k;
    p.dk = r.dk.data() + ko;
    p.lddk = d_k;
    p.dv = r.dv.data() + vo;
    p.lddv = d_v;
    p.weights = need_weights ? r.weights.data() + b * NQ * NK : nullptr;
    p.score_grads = need_weights ? r.score_grads.data() + b * NQ * NK : nullptr;
    p.n_q = n_q;
    p.n_k = n_k;
    p.d_k = d_k;
    p.d_v = d_v;
    p.b = b;
    p.h = 0;
    head_backward(p, opt, &r.masked_rows);
  }
  require_finite_result("the output", "", r.output, d_v);
  require_finite_result("the gradient of ", "q", r.dq, d_k);
  require_finite_result("the gradient of ", "k", r.dk, d_k);
  require_finite_result("the gradient of ", "v", r.dv, d_v);
  return r;
}

std::uint64_t backward_memory(const MhaDims& d, int batch, int n_q, int n_k, bool need_weights, bool self_attention,
                              const AttentionOptions& opt) {
  const std::uint64_t B = batch, NQ = n_q, NK = n_k, D = d.d_model, QK = d.qk_width(), V = d.v_width(),
                      KK = d.kv_k_width(), KV = d.kv_v_width(), H = d.n_heads;
  const std::uint64_t params = static_cast<std::uint64_t>(parameter_counts(d).total);
  // query (and key, value unless self-attention) and grad_output.
  const std::uint64_t inputs = 2 * B * NQ * D + (self_attention ? 0 : 2 * B * NK * D);
  // output, ∂L/∂query, ∂L/∂key, ∂L/∂value, a gradient per parameter, A and dS of every head.
  const std::uint64_t results = 2 * B * NQ * D + 2 * B * NK * D + params + (need_weights ? 2 * B * H * NQ * NK : 0);
  // One batch item at a time: Q, K, V (n_kv_heads wide), their gradients, Concat and its
  // gradient; the weights packed transposed for the input gradients; what head_backward holds;
  // the two row norms (double) per head of the overflow guard.
  const HeadBackwardFloats head = head_backward_floats(opt, n_q, n_k, d.d_k, d.d_v, need_weights);
  const std::uint64_t per_item = 2 * (NQ * QK + NK * KK + NK * KV + NQ * V);
  const std::uint64_t packed_t = (QK + KK) * round8(D) + KV * round8(D) + D * round8(V);
  // The matmuls' packed A (projections and input gradients: 64 rows up to max(D, QK, V) wide;
  // weight gradients Xᵀ·dY: up to 64 columns of X, n rows long) and Aᵀ·B's packed B (dY, n rows).
  const std::uint64_t widest = std::max({D, QK, V});
  const std::uint64_t a_pack = std::max({head.a_pack, 64 * widest, 64 * std::max(NQ, NK)});
  const std::uint64_t b_pack = std::max(head.b_pack, std::max(NQ, NK) * round8(widest));
  const std::uint64_t working = per_item + packed_t + head.buffers + a_pack + b_pack + 4 * H;
  // The layer's weights and their packed copy, as run_memory counts them.
  return 4 * (inputs + results + working) + 8 * params;
}

namespace {

// One input projection on the way back: X (rows × d_model), its projection's gradient
// dP (rows × width), W packed transposed, and where ∂L/∂W, ∂L/∂b and ∂L/∂X go.
struct ProjectionBackward {
  const float* x;
  const float* d_proj;
  int rows, width;
  const PackedB* w_t;
  float* d_w;
  float* d_b;  // nullptr when bias is off
  float* d_x;
};

// ∂L/∂W += Xᵀ·dP; ∂L/∂b += column sums of dP; ∂L/∂X = dP·Wᵀ.
void project_back(const ProjectionBackward& p, int d_model) {
  kern::gemm_tn(d_model, p.width, p.rows, p.x, d_model, p.d_proj, p.width, p.d_w, p.width, 1.0f, true);
  if (p.d_b) add_column_sums(p.d_proj, p.rows, p.width, p.width, p.d_b);
  kern::gemm_packed(p.rows, p.d_proj, p.width, *p.w_t, p.d_x, d_model, 1.0f, nullptr, false);
}

// The passes over batch items, into r's buffers (sized and zeroed by the caller). Its scratch is
// freed on return, before the results are checked.
void backward_items(const MultiHeadAttention& layer, const MhaInput& in, const float* grad_output,
                    const ForwardOptions& opt, MhaBackwardResult& r) {
  const MhaDims& d = layer.dims();
  const int D = d.d_model, H = d.n_heads, dk = d.d_k, dv = d.d_v;
  const int QK = static_cast<int>(d.qk_width()), V = static_cast<int>(d.v_width());
  // K and V have n_kv_heads heads: query head h reads key/value head d.kv_head(h).
  const int KK = static_cast<int>(d.kv_k_width()), KV = static_cast<int>(d.kv_v_width());
  const std::size_t B = in.batch, NQ = in.n_q, NK = in.n_k;
  const MultiHeadAttention::Projections w = layer.projections();
  // The weights transposed, for the input gradients dX = dP·Wᵀ and dConcat = dY·Woᵀ.
  PackedB wq_t, wk_t, wv_t, wo_t;
  kern::pack_b(QK, D, w.q.weight().data(), QK, true, wq_t);
  kern::pack_b(KK, D, w.k.weight().data(), KK, true, wk_t);
  kern::pack_b(KV, D, w.v.weight().data(), KV, true, wv_t);
  kern::pack_b(D, V, w.o.weight().data(), D, true, wo_t);
  // Scratch of one batch item; every element is written before it is read, but dK and dV, which
  // add up over query steps and over the query heads that share a key/value head.
  FloatBuffer q_proj, k_proj, v_proj, dq_proj, dk_proj, dv_proj, concat, d_concat;
  q_proj.resize(NQ * QK);
  dq_proj.resize(NQ * QK);
  k_proj.resize(NK * KK);
  dk_proj.resize(NK * KK);
  v_proj.resize(NK * KV);
  dv_proj.resize(NK * KV);
  concat.resize(NQ * V);
  d_concat.resize(NQ * V);
  std::vector<double> k_norm2(d.n_kv_heads), v_norm2(d.n_kv_heads);
  const float alpha = logit_scale(opt, dk);
  const bool rope = opt.positional == Positional::rope;
  const std::vector<float> slopes = head_slopes(opt, H);

  for (std::size_t b = 0; b < B; ++b) {
    const float* x_q = in.query + b * NQ * D;
    const float* x_k = in.key + b * NK * D;
    const float* x_v = in.value + b * NK * D;
    const float* dy = grad_output + b * NQ * D;
    w.q.apply(in.n_q, x_q, D, q_proj.data(), QK);
    w.k.apply(in.n_k, x_k, D, k_proj.data(), KK);
    w.v.apply(in.n_k, x_v, D, v_proj.data(), KV);
    // RoPE: the heads see rotated q and k (R_i·q, R_j·k); their gradients go back through Rᵀ below.
    if (rope) {
      rope_rotate(q_proj.data(), QK, in.n_q, 0, H, dk, rope_base_or_default(opt.rope_base), false);
      rope_rotate(k_proj.data(), KK, in.n_k, 0, d.n_kv_heads, dk, rope_base_or_default(opt.rope_base), false);
    }
    // dConcat = dY·Woᵀ, then through head_mask (Concat·Wᴼ reads each head scaled by its entry).
    kern::gemm_packed(in.n_q, dy, D, wo_t, d_concat.data(), V, 1.0f, nullptr, false);
    if (!opt.head_mask.empty()) apply_head_mask(opt.head_mask, in.n_q, dv, d_concat.data(), V);
    std::fill_n(dk_proj.data(), NK * KK, 0.0f);
    std::fill_n(dv_proj.data(), NK * KV, 0.0f);
    for (int g = 0; g < d.n_kv_heads; ++g) {
      k_norm2[g] = max_row_norm2(k_proj.data() + g * dk, KK, in.n_k, dk);
      v_norm2[g] = max_row_norm2(v_proj.data() + g * dv, KV, in.n_k, dv);
    }
    for (int h = 0; h < H; ++h) {
      const int kv = d.kv_head(h);  // dK and dV of a key/value head add up over its query heads
      require_unscaled_logits("the backward pass", "projection", max_row_norm2(q_proj.data() + h * dk, QK, in.n_q, dk), k_norm2[kv], v_norm2[kv], alpha, b, h);
      const std::size_t head_at = (b * H + h) * NQ * NK;
      HeadBackward p{};  // by name, as above
      p.q = q_proj.data() + h * dk;
      p.ldq = QK;
      p.k = k_proj.data() + kv * dk;
      p.ldk = KK;
      p.v = v_proj.data() + kv * dv;
      p.ldv = KV;
      p.d_out = d_concat.data() + h * dv;
      p.ld_dout = V;
      p.out = concat.data() + h * dv;
      p.ldo = V;
      p.dq = dq_proj.data() + h * dk;
      p.lddq = QK;
      p.dk = dk_proj.data() + kv * dk;
      p.lddk = KK;
      p.dv = dv_proj.data() + kv * dv;
      p.lddv = KV;
      p.weights = opt.need_weights ? r.weights.data() + head_at : nullptr;
      p.score_grads = opt.need_weights ? r.score_grads.data() + head_at : nullptr;
      p.n_q = in.n_q;
      p.n_k = in.n_k;
      p.d_k = dk;
      p.d_v = dv;
      p.b = static_cast<int>(b);
      p.h = h;
      p.slope = slopes.empty() ? nullptr : slopes.data() + h;
      head_backward(p, opt, &r.masked_rows);
    }
    if (rope) {
      rope_rotate(dq_proj.data(), QK, in.n_q, 0, H, dk, rope_base_or_default(opt.rope_base), true);
      rope_rotate(dk_proj.data(), KK, in.n_k, 0, d.n_kv_heads, dk, rope_base_or_default(opt.rope_base), true);
    }
    if (!opt.head_mask.empty()) apply_head_mask(opt.head_mask, in.n_q, dv, concat.data(), V);
    w.o.apply(in.n_q, concat.data(), V, r.output.data() + b * NQ * D, D);
    // ∂L/∂Wo += Concatᵀ·dY, ∂L/∂bo += column sums of dY.
    kern::gemm_tn(V, D, in.n_q, concat.data(), V, dy, D, r.grads.wo.data(), D, 1.0f, true);
    if (d.bias) add_column_sums(dy, in.n_q, D, D, r.grads.bo.data());
    const ProjectionBackward paths[] = {
        {x_q, dq_proj.data(), in.n_q, QK, &wq_t, r.grads.wq.data(), d.bias ? r.grads.bq.data() : nullptr,
         r.query.data() + b * NQ * D},
        {x_k, dk_proj.data(), in.n_k, KK, &wk_t, r.grads.wk.data(), d.bias ? r.grads.bk.data() : nullptr,
         r.key.data() + b * NK * D},
        {x_v, dv_proj.data(), in.n_k, KV, &wv_t, r.grads.wv.data(), d.bias ? r.grads.bv.data() : nullptr,
         r.value.data() + b * NK * D}};
    for (const ProjectionBackward& path : paths) project_back(path, D);
  }
}

}  // namespace

MhaBackwardResult multi_head_attention_backward(const MultiHeadAttention& layer, const MhaInput& in,
                                                const float* grad_output, std::size_t grad_output_len,
                                                const ForwardOptions& opt) {
  // Sizes, mask and finiteness as for forward; the budget is this pass's own, counted below.
  ForwardOptions checks = opt;
  checks.need_weights = false;
  checks.memory_budget = ~std::uint64_t{0};
  layer.validate(in, checks);
  const MhaDims& d = layer.dims();
  const int D = d.d_model, H = d.n_heads;
  const int QK = static_cast<int>(d.qk_width());
  const int KK = static_cast<int>(d.kv_k_width()), KV = static_cast<int>(d.kv_v_width());
  const std::size_t B = in.batch, NQ = in.n_q, NK = in.n_k;
  require_length("grad_output", grad_output_len, B * NQ * D,
                 "[batch, n_q, d_model] = [" + std::to_string(B) + ", " + std::to_string(NQ) + ", " + std::to_string(D) + "]");
  const bool self = in.query == in.key && in.key == in.value;
  require_within_budget("this backward pass", backward_memory(d, in.batch, in.n_q, in.n_k, opt.need_weights, self, opt) + opt.mask.bytes(),
                        opt.memory_budget);
  require_finite("grad_output", grad_output, grad_output_len, D);

  MhaBackwardResult r;
  const MultiHeadAttention::Projections w = layer.projections();
  r.output.resize(B * NQ * D);
  r.grads.wq.assign(w.q.weight().size(), 0.0f);  // weight gradients add up over batch items
  r.grads.wk.assign(w.k.weight().size(), 0.0f);
  r.grads.wv.assign(w.v.weight().size(), 0.0f);
  r.grads.wo.assign(w.o.weight().size(), 0.0f);
  if (d.bias) {
    r.grads.bq.assign(w.q.bias().size(), 0.0f);
    r.grads.bk.assign(w.k.bias().size(), 0.0f);
    r.grads.bv.assign(w.v.bias().size(), 0.0f);
    r.grads.bo.assign(D, 0.0f);
  }
  r.query.resize(B * NQ * D);
  r.key.resize(B * NK * D);
  r.value.resize(B * NK * D);
  if (opt.need_weights) {
    r.weights.resize(B * H * NQ * NK);
    r.score_grads.resize(B * H * NQ * NK);
  }
  backward_items(layer, in, grad_output, opt, r);

  require_finite_result("the output", "", r.output, D);
  // Each with its row length, for the message.
  const std::tuple<const char*, const std::vector<float>*, std::size_t> results[] = {
      {"wq", &r.grads.wq, QK}, {"wk", &r.grads.wk, KK}, {"wv", &r.grads.wv, KV}, {"wo", &r.grads.wo, D},
      {"bq", &r.grads.bq, QK}, {"bk", &r.grads.bk, KK}, {"bv", &r.grads.bv, KV}, {"bo", &r.grads.bo, D},
      {"query", &r.query, D},  {"key", &r.key, D},     {"value", &r.value, D}};
  for (const auto& [name, values, row] : results)
    require_finite_result("the gradient of ", name, *values, row);
  return r;
}

}  // namespace attn
