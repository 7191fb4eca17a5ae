// The float64 oracle of the suite: slow, obvious loops in double that follow the lesson's
// formulas directly; see reference.h for the contracts.
#include "reference.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/rng.h"

namespace reference {

std::vector<double> to_double(const float* x, std::size_t n) { return std::vector<double>(x, x + n); }
std::vector<double> to_double(const std::vector<float>& x) { return to_double(x.data(), x.size()); }

void matmul(int M, int N, int K, const double* A, int lda, const double* B, int ldb, double* C, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double sum = 0.0;
      for (int p = 0; p < K; ++p) sum += A[static_cast<std::size_t>(i) * lda + p] * B[static_cast<std::size_t>(p) * ldb + j];
      C[static_cast<std::size_t>(i) * ldc + j] = sum;
    }
}

bool softmax(double* x, int n) {
  double max = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < n; ++j) max = std::fmax(max, x[j]);
  if (max == -std::numeric_limits<double>::infinity()) {
    for (int j = 0; j < n; ++j) x[j] = 0.0;
    return false;
  }
  double sum = 0.0;
  for (int j = 0; j < n; ++j) {
    x[j] = std::exp(x[j] - max);
    sum += x[j];
  }
  for (int j = 0; j < n; ++j) x[j] /= sum;
  return true;
}

bool is_masked(const attn::Mask& mask, int b, int i, int j, int n_k) {
  if (mask.causal && j > i) return true;
  if (!mask.key_lengths.empty() && j >= mask.key_lengths[static_cast<std::size_t>(b)]) return true;
  if (!mask.matrix.empty() && mask.matrix[static_cast<std::size_t>(i) * n_k + j] != 0) return true;
  return false;
}

void attention_head(const double* q, int ldq, const double* k, int ldk, const double* v, int ldv, int n_q, int n_k,
                    int d_k, int d_v, const attn::AttentionOptions& opt, int b, int h, double* out, int ldo,
                    double* weights, std::vector<attn::MaskedRow>* masked_rows) {
  const double factor = opt.scale ? 1.0 / std::sqrt(static_cast<double>(d_k)) : 1.0;
  const bool dropout = opt.training && opt.dropout > 0.0f;
  const double keep_scale = 1.0 / (1.0 - static_cast<double>(opt.dropout));
  for (int i = 0; i < n_q; ++i) {
    double* w = weights + static_cast<std::size_t>(i) * n_k;
    for (int j = 0; j < n_k; ++j) {
      if (is_masked(opt.mask, b, i, j, n_k)) {
        w[j] = -std::numeric_limits<double>::infinity();
        continue;
      }
      double dot = 0.0;
      for (int c = 0; c < d_k; ++c)
        dot += q[static_cast<std::size_t>(i) * ldq + c] * k[static_cast<std::size_t>(j) * ldk + c];
      w[j] = dot * factor;
    }
    if (!softmax(w, n_k)) {
      if (masked_rows) masked_rows->push_back({b, i});
    } else if (dropout) {
      for (int j = 0; j < n_k; ++j)
        w[j] = attn::dropout_keep(opt.seed, b, h, i, j, opt.dropout) ? w[j] * keep_scale : 0.0;
    }
    for (int c = 0; c < d_v; ++c) {
      double sum = 0.0;
      for (int j = 0; j < n_k; ++j) sum += w[j] * v[static_cast<std::size_t>(j) * ldv + c];
      out[static_cast<std::size_t>(i) * ldo + c] = sum;
    }
  }
}

AttentionRef attention(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                       int batch, int n_q, int n_k, int d_k, int d_v, const attn::AttentionOptions& opt) {
  const std::vector<double> qd = to_double(q), kd = to_double(k), vd = to_double(v);
  AttentionRef r;
  r.output.assign(static_cast<std::size_t>(batch) * n_q * d_v, 0.0);
  r.weights.assign(static_cast<std::size_t>(batch) * n_q * n_k, 0.0);
  for (int b = 0; b < batch; ++b)
    attention_head(qd.data() + static_cast<std::size_t>(b) * n_q * d_k, d_k,
                   kd.data() + static_cast<std::size_t>(b) * n_k * d_k, d_k,
                   vd.data() + static_cast<std::size_t>(b) * n_k * d_v, d_v, n_q, n_k, d_k, d_v, opt, b, 0,
                   r.output.data() + static_cast<std::size_t>(b) * n_q * d_v, d_v,
                   r.weights.data() + static_cast<std::size_t>(b) * n_q * n_k, &r.masked_rows);
  return r;
}

namespace {
// y (rows×d_out) = x (rows×d_in)·W + b, all in double; b may be empty.
std::vector<double> linear(const double* x, int rows, int d_in, const std::vector<float>& w,
                           const std::vector<float>& bias, int d_out) {
  const std::vector<double> wd = to_double(w);
  std::vector<double> y(static_cast<std::size_t>(rows) * d_out);
  matmul(rows, d_out, d_in, x, d_in, wd.data(), d_out, y.data(), d_out);
  if (!bias.empty())
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < d_out; ++c) y[static_cast<std::size_t>(r) * d_out + c] += bias[static_cast<std::size_t>(c)];
  return y;
}
}  // namespace

MhaRef mha(const attn::MhaWeights& w, int d_model, int n_heads, int d_k, int d_v, const float* query,
           const float* key, const float* value, int batch, int n_q, int n_k, const attn::AttentionOptions& opt) {
  const int D = d_model, H = n_heads, QK = H * d_k, V = H * d_v;
  MhaRef r;
  r.output.assign(static_cast<std::size_t>(batch) * n_q * D, 0.0);
  r.weights.assign(static_cast<std::size_t>(batch) * H * n_q * n_k, 0.0);
  for (int b = 0; b < batch; ++b) {
    const std::vector<double> xq = to_double(query + static_cast<std::size_t>(b) * n_q * D, static_cast<std::size_t>(n_q) * D);
    const std::vector<double> xk = to_double(key + static_cast<std::size_t>(b) * n_k * D, static_cast<std::size_t>(n_k) * D);
    const std::vector<double> xv = to_double(value + static_cast<std::size_t>(b) * n_k * D, static_cast<std::size_t>(n_k) * D);
    const std::vector<double> Q = linear(xq.data(), n_q, D, w.wq, w.bq, QK);
    const std::vector<double> K = linear(xk.data(), n_k, D, w.wk, w.bk, QK);
    const std::vector<double> Vp = linear(xv.data(), n_k, D, w.wv, w.bv, V);
    std::vector<double> concat(static_cast<std::size_t>(n_q) * V);
    std::vector<attn::MaskedRow> rows;
    for (int h = 0; h < H; ++h) {
      attention_head(Q.data() + h * d_k, QK, K.data() + h * d_k, QK, Vp.data() + h * d_v, V, n_q, n_k, d_k, d_v,
                     opt, b, h, concat.data() + h * d_v, V,
                     r.weights.data() + (static_cast<std::size_t>(b) * H + h) * n_q * n_k, h == 0 ? &rows : nullptr);
    }
    r.masked_rows.insert(r.masked_rows.end(), rows.begin(), rows.end());
    const std::vector<double> y = linear(concat.data(), n_q, V, w.wo, w.bo, D);
    std::copy(y.begin(), y.end(), r.output.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(b) * n_q * D));
  }
  return r;
}

std::vector<double> positional_encoding(int n, int d_model) {
  std::vector<double> pe(static_cast<std::size_t>(n) * d_model);
  for (int pos = 0; pos < n; ++pos)
    for (int i = 0; 2 * i < d_model; ++i) {
      // 1 / 10000^(2i/d_model) written as exp(−(2i/d_model)·ln 10000).
      const double omega = std::exp(-(2.0 * i / d_model) * std::log(10000.0));
      pe[static_cast<std::size_t>(pos) * d_model + 2 * i] = std::sin(pos * omega);
      if (2 * i + 1 < d_model) pe[static_cast<std::size_t>(pos) * d_model + 2 * i + 1] = std::cos(pos * omega);
    }
  return pe;
}

}  // namespace reference
