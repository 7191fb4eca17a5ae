// Every bad input gives an attn::Error whose message a learner can act on: sizes, divisibility,
// buffer lengths, masks, dropout, NaN/Inf, memory budgets, and GPT-3 refused before allocating.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis.h"
#include "check.h"
#include "core/attention.h"
#include "core/backward.h"
#include "core/buffer.h"
#include "core/dims.h"
#include "core/mask.h"
#include "core/error.h"
#include "core/mha.h"

// ---------------------------------------------------------------- allocation probe
// The replaceable global operator new (standard C++) records the largest single request while a
// probe is open, so a test can show that a refused layer never asked for its gigabytes. It also
// keeps the bytes live through it and their peak (each block carries its size and the start of
// its malloc'ed memory in a 16-byte header), so a test can hold a call's real allocations to the
// memory the budget counted. Every form is replaced (array, nothrow, aligned, sized delete): a
// form left to the library (or to AddressSanitizer, which supplies them all) would hand this
// delete a block without the header, or this new's block to another delete, which ASan reports
// as a bad free or an overflow.
namespace alloc_probe {
bool open = false;
std::size_t largest = 0;
std::size_t live = 0, peak = 0;

// size bytes aligned to `align` (at least 16), or nullptr when memory is short.
void* allocate(std::size_t size, std::size_t align) noexcept {
  if (align < 16) align = 16;
  const std::size_t extra = 16 + (align > 16 ? align : 0);
  if (size > SIZE_MAX - extra) return nullptr;
  auto* raw = static_cast<unsigned char*>(std::malloc(size + extra));
  if (!raw) return nullptr;
  auto* user = raw + 16;
  if (align > 16) user = raw + 16 + (align - reinterpret_cast<std::uintptr_t>(raw + 16) % align) % align;
  std::memcpy(user - 16, &size, sizeof size);
  std::memcpy(user - 8, &raw, sizeof raw);
  if (open && size > largest) largest = size;
  live += size;
  peak = std::max(peak, live);
  return user;
}
void* allocate_or_throw(std::size_t size, std::size_t align) {
  if (void* p = allocate(size, align)) return p;
  throw std::bad_alloc();
}
void release(void* p) noexcept {
  if (!p) return;
  auto* user = static_cast<unsigned char*>(p);
  std::size_t size;
  unsigned char* raw;
  std::memcpy(&size, user - 16, sizeof size);
  std::memcpy(&raw, user - 8, sizeof raw);
  live -= size;
  std::free(raw);
}
}  // namespace alloc_probe

void* operator new(std::size_t size) { return alloc_probe::allocate_or_throw(size, 16); }
void* operator new[](std::size_t size) { return alloc_probe::allocate_or_throw(size, 16); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return alloc_probe::allocate(size, 16); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return alloc_probe::allocate(size, 16); }
void* operator new(std::size_t size, std::align_val_t al) {
  return alloc_probe::allocate_or_throw(size, static_cast<std::size_t>(al));
}
void* operator new[](std::size_t size, std::align_val_t al) {
  return alloc_probe::allocate_or_throw(size, static_cast<std::size_t>(al));
}
void* operator new(std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return alloc_probe::allocate(size, static_cast<std::size_t>(al));
}
void* operator new[](std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return alloc_probe::allocate(size, static_cast<std::size_t>(al));
}
void operator delete(void* p) noexcept { alloc_probe::release(p); }
void operator delete[](void* p) noexcept { alloc_probe::release(p); }
void operator delete(void* p, std::size_t) noexcept { alloc_probe::release(p); }
void operator delete[](void* p, std::size_t) noexcept { alloc_probe::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { alloc_probe::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { alloc_probe::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { alloc_probe::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { alloc_probe::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { alloc_probe::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { alloc_probe::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { alloc_probe::release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { alloc_probe::release(p); }

// This file's helpers and cases in a namespace of their own: the unity build (CMakeLists.txt)
// compiles several test files as one, where their helpers of the same name would clash.
namespace test_errors {

// Both the type and the message: the message is what the page shows.
#define CHECK_ATTN_ERROR(expr, text)      \
  do {                                    \
    CHECK_THROWS_AS(expr, attn::Error);   \
    CHECK_THROWS_WITH(expr, Catch::Contains(text)); \
  } while (0)

namespace {

attn::MhaConfig config(int d_model, int n_heads, int d_k = 0, int d_v = 0, bool bias = true) {
  return check::mha_config(d_model, n_heads, d_k, d_v, bias);
}

// A small problem of plain attention: batch 1, n_q 2, n_k 3, d_k 4, d_v 5.
struct Sdpa {
  int batch = 1, n_q = 2, n_k = 3, d_k = 4, d_v = 5;
  std::vector<float> q = std::vector<float>(8, 0.5f), k = std::vector<float>(12, 0.25f), v = std::vector<float>(15, 1.0f);
  attn::AttentionOptions opt;
  bool need_weights = true;
  std::uint64_t budget = attn::kDefaultMemoryBudget;
  attn::AttentionResult run() const {
    return attn::scaled_dot_product_attention(q.data(), q.size(), k.data(), k.size(), v.data(), v.size(), batch, n_q,
                                              n_k, d_k, d_v, opt, need_weights, budget);
  }
};

// A small multi-head layer (d_model 8, 2 heads) and cross-attention inputs: batch 2, n_q 3, n_k 4.
struct Mha {
  attn::MultiHeadAttention layer{config(8, 2)};
  int batch = 2, n_q = 3, n_k = 4;
  std::vector<float> query = std::vector<float>(48, 0.1f), key = std::vector<float>(64, 0.2f),
                     value = std::vector<float>(64, 0.3f);
  attn::ForwardOptions opt;
  attn::MhaInput input() const {
    return {query.data(), query.size(), key.data(), key.size(), value.data(), value.size(), batch, n_q, n_k};
  }
  attn::MhaResult run() const { return layer.forward(input(), opt); }
};

}  // namespace

TEST_CASE("the valid small problems used below run", "[errors]") {
  // So each failure below is caused by the one thing the test changes.
  CHECK_NOTHROW(Sdpa().run());
  CHECK_NOTHROW(Mha().run());
}

TEST_CASE("zero and negative sizes are refused by name", "[errors][sizes]") {
  CHECK_ATTN_ERROR(attn::resolve_dims(config(0, 8)), "d_model must be a positive integer (got 0)");
  CHECK_ATTN_ERROR(attn::resolve_dims(config(-64, 8)), "d_model must be a positive integer (got -64)");
  CHECK_ATTN_ERROR(attn::resolve_dims(config(64, 0)), "n_heads must be a positive integer (got 0)");
  CHECK_ATTN_ERROR(attn::resolve_dims(config(64, -3)), "n_heads must be a positive integer (got -3)");
  CHECK_ATTN_ERROR(attn::resolve_dims(config(64, 8, -1, 0)), "d_k must be a positive integer, or 0 to derive it");
  CHECK_ATTN_ERROR(attn::resolve_dims(config(64, 8, 0, -2)), "d_v must be a positive integer, or 0 to derive it");
  CHECK_ATTN_ERROR(attn::MultiHeadAttention(config(0, 1)), "d_model must be a positive integer (got 0)");
  CHECK_ATTN_ERROR(attn::resolve_dims(config(8, 16)), "n_heads (16) is larger than d_model (8)");
  // h·d_k past the engine's 2^20 limit (index arithmetic stays in 32 bits).
  CHECK_ATTN_ERROR(attn::resolve_dims(config(8, 2048, 1024, 1)), "h·d_k (2,097,152) is larger than the 1,048,576");

  Sdpa s;
  s.batch = 0;
  CHECK_ATTN_ERROR(s.run(), "batch must be a positive integer (got 0)");
  s = Sdpa();
  s.n_q = -1;
  CHECK_ATTN_ERROR(s.run(), "n_q must be a positive integer (got -1)");
  s = Sdpa();
  s.n_k = 0;
  CHECK_ATTN_ERROR(s.run(), "n_k must be a positive integer (got 0)");
  s = Sdpa();
  s.d_k = 0;
  CHECK_ATTN_ERROR(s.run(), "d_k must be a positive integer (got 0)");
  s = Sdpa();
  s.d_v = -5;
  CHECK_ATTN_ERROR(s.run(), "d_v must be a positive integer (got -5)");

  Mha m;
  m.batch = 0;
  CHECK_ATTN_ERROR(m.run(), "batch must be a positive integer (got 0)");
  m.batch = 2;
  m.n_q = 0;
  CHECK_ATTN_ERROR(m.run(), "n_q must be a positive integer (got 0)");
  m.n_q = 3;
  m.n_k = -4;
  CHECK_ATTN_ERROR(m.run(), "n_k must be a positive integer (got -4)");

  CHECK_ATTN_ERROR(attn::positional_encoding(0, 8), "n must be a positive integer (got 0)");
  CHECK_ATTN_ERROR(attn::positional_encoding(8, -1), "d_model must be a positive integer (got -1)");
  CHECK_ATTN_ERROR(attn::positional_properties(1, 8, 1), "positional properties need 2 ≤ n ≤ 4,096 (got 1)");
  CHECK_ATTN_ERROR(attn::positional_properties(10, 8, 10), "offset k must be in 1..9 (got 10)");
  CHECK_ATTN_ERROR(attn::sqrt_dk_stats(0, 8, 8, 1), "d_k must be a positive integer (got 0)");
  CHECK_ATTN_ERROR(attn::sqrt_dk_stats(1024, 1024, 1024, 1), "d_k·n_k·samples must be at most 50,000,000");
  CHECK_ATTN_ERROR(attn::parameter_count_gqa(attn::resolve_dims(config(8192, 64)), 7),
                   "n_heads (64) is not divisible by n_kv_heads (7)");
}

TEST_CASE("d_model not divisible by n_heads names both numbers", "[errors][sizes]") {
  CHECK_ATTN_ERROR(attn::resolve_dims(config(510, 8)), "d_model (510) is not divisible by n_heads (8)");
  CHECK_ATTN_ERROR(attn::MultiHeadAttention(config(510, 8)), "d_model (510) is not divisible by n_heads (8)");
  // With d_k and d_v given explicitly the split need not be even.
  CHECK_NOTHROW(attn::resolve_dims(config(510, 8, 64, 64)));
}

TEST_CASE("buffer lengths that do not match the sizes are refused with both lengths", "[errors][lengths]") {
  Sdpa s;
  s.q.pop_back();
  CHECK_ATTN_ERROR(s.run(), "q has 7 values but [batch, n_q, d_k] = [1, 2, 4] needs 8");
  s = Sdpa();
  s.k.push_back(0.0f);
  CHECK_ATTN_ERROR(s.run(), "k has 13 values but [batch, n_k, d_k] = [1, 3, 4] needs 12");
  s = Sdpa();
  s.v.resize(10);
  CHECK_ATTN_ERROR(s.run(), "v has 10 values but [batch, n_k, d_v] = [1, 3, 5] needs 15");

  Mha m;
  m.query.pop_back();
  CHECK_ATTN_ERROR(m.run(), "query has 47 values but [batch, n_q, d_model] = [2×3×8] needs 48");
  m = Mha();
  m.key.resize(32);
  CHECK_ATTN_ERROR(m.run(), "key has 32 values but [batch, n_k, d_model] = [2×4×8] needs 64");
  m = Mha();
  m.value.resize(65);
  CHECK_ATTN_ERROR(m.run(), "value has 65 values but [batch, n_k, d_model] = [2×4×8] needs 64");

  // Weights: every matrix and bias is checked against the layer's sizes.
  attn::MultiHeadAttention layer(config(8, 2, 3, 5));  // h·d_k = 6, h·d_v = 10
  const attn::MhaWeights good = layer.weights();
  attn::MhaWeights w = good;
  w.wq.pop_back();
  CHECK_ATTN_ERROR(layer.set_weights(w), "wq has 47 values but d_model×(n_heads·d_k) = 8×6 needs 48");
  w = good;
  w.wk.push_back(1.0f);
  CHECK_ATTN_ERROR(layer.set_weights(w), "wk has 49 values but d_model×(n_heads·d_k) = 8×6 needs 48");
  w = good;
  w.wv.clear();
  CHECK_ATTN_ERROR(layer.set_weights(w), "wv has 0 values but d_model×(n_heads·d_v) = 8×10 needs 80");
  w = good;
  w.wo.resize(79);
  CHECK_ATTN_ERROR(layer.set_weights(w), "wo has 79 values but (n_heads·d_v)×d_model = 10×8 needs 80");
  w = good;
  w.bq.resize(5);
  CHECK_ATTN_ERROR(layer.set_weights(w), "bq has 5 values but n_heads·d_k = 6 needs 6");
  w = good;
  w.bk.clear();
  CHECK_ATTN_ERROR(layer.set_weights(w), "bk has 0 values but n_heads·d_k = 6 needs 6");
  w = good;
  w.bv.resize(11);
  CHECK_ATTN_ERROR(layer.set_weights(w), "bv has 11 values but n_heads·d_v = 10 needs 10");
  w = good;
  w.bo.resize(7);
  CHECK_ATTN_ERROR(layer.set_weights(w), "bo has 7 values but d_model = 8 needs 8");
  attn::MultiHeadAttention no_bias(config(8, 2, 0, 0, false));
  attn::MhaWeights with_bias = no_bias.weights();
  with_bias.bo.assign(8, 0.0f);
  CHECK_ATTN_ERROR(no_bias.set_weights(with_bias), "biases were given but this layer was made with bias off");

  Mha need;
  need.opt.need_weights = true;
  std::vector<float> out(48);
  CHECK_ATTN_ERROR(need.layer.forward_into(need.input(), need.opt, out.data(), nullptr),
                   "need_weights is on but no buffer for the weights was given");
}

TEST_CASE("padding lengths must be one per batch item, each within 0..n_k", "[errors][mask]") {
  Sdpa s;
  s.opt.mask.key_lengths = {1, 2};
  CHECK_ATTN_ERROR(s.run(), "padding mask has 2 key lengths but batch is 1 (one length per batch item)");
  s.opt.mask.key_lengths = {4};
  CHECK_ATTN_ERROR(s.run(), "padding mask: key length of batch item 0 is 4, outside 0..3 (n_k)");
  s.opt.mask.key_lengths = {-1};
  CHECK_ATTN_ERROR(s.run(), "padding mask: key length of batch item 0 is -1, outside 0..3 (n_k)");

  Mha m;
  m.opt.mask.key_lengths = {4};
  CHECK_ATTN_ERROR(m.run(), "padding mask has 1 key lengths but batch is 2 (one length per batch item)");
  m.opt.mask.key_lengths = {4, 5};
  CHECK_ATTN_ERROR(m.run(), "padding mask: key length of batch item 1 is 5, outside 0..4 (n_k)");
  m.opt.mask.key_lengths = {0, 4};  // 0 is allowed: that item's rows are fully masked (zeros)
  CHECK_NOTHROW(m.run());
}

TEST_CASE("a mask matrix must be n_q×n_k", "[errors][mask]") {
  Sdpa s;
  s.opt.mask.matrix.assign(5, 0);
  CHECK_ATTN_ERROR(s.run(), "mask matrix has 5 entries but n_q×n_k = 2×3 = 6");
  s.opt.mask.matrix.assign(9, 0);  // n_k×n_k is a typical slip in cross-attention
  CHECK_ATTN_ERROR(s.run(), "mask matrix has 9 entries but n_q×n_k = 2×3 = 6");
  Mha m;
  m.opt.mask.matrix.assign(16, 1);
  CHECK_ATTN_ERROR(m.run(), "mask matrix has 16 entries but n_q×n_k = 3×4 = 12");
}

TEST_CASE("dropout must be at least 0 and below 1", "[errors][dropout]") {
  Sdpa s;
  s.opt.dropout = 1.0f;  // p = 1 would divide by 1 − p = 0
  CHECK_ATTN_ERROR(s.run(), "dropout must be in [0, 1) (got 1.0");
  s.opt.dropout = -0.1f;
  CHECK_ATTN_ERROR(s.run(), "dropout must be in [0, 1) (got -0.1");
  s.opt.dropout = std::numeric_limits<float>::quiet_NaN();
  CHECK_ATTN_ERROR(s.run(), "dropout must be in [0, 1) (got nan)");
  Mha m;
  m.opt.dropout = 1.5f;
  m.opt.training = true;
  CHECK_ATTN_ERROR(m.run(), "dropout must be in [0, 1) (got 1.5");
  // Even in inference, where dropout is not applied, a nonsense p is reported.
  m.opt.training = false;
  CHECK_ATTN_ERROR(m.run(), "dropout must be in [0, 1) (got 1.5");
}

TEST_CASE("NaN and Inf are refused, naming the tensor and the index", "[errors][finite]") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Sdpa s;
  s.q[6] = nan;  // row 1, column 2 of the 2×4 q
  CHECK_ATTN_ERROR(s.run(), "q contains NaN at index 6 (row 1, column 2)");
  s = Sdpa();
  s.k[11] = inf;
  CHECK_ATTN_ERROR(s.run(), "k contains +Infinity at index 11 (row 2, column 3)");
  s = Sdpa();
  s.v[0] = -inf;
  CHECK_ATTN_ERROR(s.run(), "v contains -Infinity at index 0 (row 0, column 0)");

  Mha m;
  m.query[37] = nan;  // d_model 8: row 4, column 5
  CHECK_ATTN_ERROR(m.run(), "query contains NaN at index 37 (row 4, column 5)");
  CHECK_ATTN_ERROR(m.run(), "every input value must be a finite number");
  m = Mha();
  m.key[63] = inf;
  CHECK_ATTN_ERROR(m.run(), "key contains +Infinity at index 63 (row 7, column 7)");
  m = Mha();
  m.value[9] = -inf;
  CHECK_ATTN_ERROR(m.run(), "value contains -Infinity at index 9 (row 1, column 1)");
  // Self-attention: one buffer, reported as the query.
  m = Mha();
  m.n_k = m.n_q;
  m.query[2] = nan;
  const attn::MhaInput self{m.query.data(), m.query.size(), m.query.data(), m.query.size(),
                            m.query.data(), m.query.size(), 2, 3, 3};
  CHECK_ATTN_ERROR(m.layer.forward(self, m.opt), "query contains NaN at index 2");

  attn::MultiHeadAttention layer(config(8, 2));
  const attn::MhaWeights good = layer.weights();
  attn::MhaWeights w = good;
  w.wq[10] = nan;
  CHECK_ATTN_ERROR(layer.set_weights(w), "wq contains NaN at index 10");
  w = good;
  w.wk[1] = inf;
  CHECK_ATTN_ERROR(layer.set_weights(w), "wk contains +Infinity at index 1");
  w = good;
  w.wv[63] = -inf;
  CHECK_ATTN_ERROR(layer.set_weights(w), "wv contains -Infinity at index 63");
  w = good;
  w.wo[0] = nan;
  CHECK_ATTN_ERROR(layer.set_weights(w), "wo contains NaN at index 0");
  w = good;
  w.bv[3] = inf;
  CHECK_ATTN_ERROR(layer.set_weights(w), "bv contains +Infinity at index 3");
  w = good;
  w.bo[7] = nan;
  CHECK_ATTN_ERROR(layer.set_weights(w), "bo contains NaN at index 7");
}

TEST_CASE("a run over the memory budget is refused with the byte count and the budget", "[errors][budget]") {
  // Plain attention with weights, 4 bytes a float: inputs q, k, v (8 + 12 + 15), output (10),
  // weights (6), packed K_iᵀ (d_k·8 = 32) and V_i (n_k·8 = 24), the row sums (2), and the
  // matmul's packed rows of A, rounded up to its 4-row tile and as wide as the wider of Q
  // (d_k = 4) and the weights (n_k = 3): 4·4 = 16; the overflow guard's two row norms (double,
  // 4 floats' worth) and the block of q (2·4 = 8) it copies when the unscaled logits need a
  // power-of-two prescale. 4·(35 + 10 + 6 + 58 + 16 + 4 + 8) = 548 bytes.
  Sdpa s;
  s.budget = 547;
  CHECK_ATTN_ERROR(s.run(), "this attention needs 548 bytes (548 B), over the memory budget of 547 bytes (547 B)");
  s.budget = 548;
  CHECK_NOTHROW(s.run());

  Mha m;
  m.opt.memory_budget = 1000;
  const attn::RunMemory need = attn::run_memory(m.layer.dims(), 2, 3, 4, false, false);
  REQUIRE(need.total > 1000);
  CHECK_ATTN_ERROR(m.run(), "this forward pass needs " + attn::group_digits(need.total) + " bytes");
  CHECK_ATTN_ERROR(m.run(), "over the memory budget of 1,000 bytes (1000 B)");
  m.opt.memory_budget = need.total;
  CHECK_NOTHROW(m.run());

  // The default budget (1 GiB): 20,000 tokens with weights requested need 4 heads × 20,000² floats
  // = 6.4 GB of weights alone. Refused before any of it is allocated.
  attn::MultiHeadAttention layer(config(64, 4));
  const int n = 20000;
  const std::vector<float> x(static_cast<std::size_t>(n) * 64, 0.5f);
  attn::ForwardOptions opt;
  opt.need_weights = true;
  const attn::MhaInput big{x.data(), x.size(), x.data(), x.size(), x.data(), x.size(), 1, n, n};
  const attn::RunMemory big_need = attn::run_memory(layer.dims(), 1, n, n, true, true);
  CHECK(big_need.weights == 6400000000ull);
  alloc_probe::largest = 0;
  alloc_probe::open = true;
  CHECK_ATTN_ERROR(layer.forward(big, opt), "this forward pass needs " + attn::group_digits(big_need.total) + " bytes");
  alloc_probe::open = false;
  CHECK(alloc_probe::largest < (1u << 20));
  CHECK_ATTN_ERROR(layer.forward(big, opt), "over the memory budget of 1,073,741,824 bytes (1.00 GiB)");
  // The same pass streaming (no weights) fits.
  CHECK(attn::run_memory(layer.dims(), 1, n, n, false, true).total < attn::kDefaultMemoryBudget);
}

TEST_CASE("a GPT-3 sized layer is refused before its weights are allocated", "[errors][budget]") {
  // The probe itself works: a 2 MiB vector is seen (else the checks below would pass vacuously).
  alloc_probe::largest = 0;
  alloc_probe::open = true;
  { const std::vector<float> two_mib(1u << 19); }
  alloc_probe::open = false;
  REQUIRE(alloc_probe::largest >= (2u << 20));

  // GPT-3: 4·12288² + 4·12288 = 604,028,928 parameters; with their packed copy 8 bytes each:
  // 4,832,231,424 bytes (4.50 GiB), over the default 1 GiB budget.
  alloc_probe::largest = 0;
  alloc_probe::open = true;
  CHECK_ATTN_ERROR(attn::MultiHeadAttention(config(12288, 96)), "needs 4,832,231,424 bytes (4.50 GiB)");
  alloc_probe::open = false;
  // Nothing near the 2.4 GB of float weights was requested: only the message strings.
  INFO("largest allocation while refusing: " << alloc_probe::largest << " bytes");
  CHECK(alloc_probe::largest < (1u << 20));
  CHECK_ATTN_ERROR(attn::MultiHeadAttention(config(12288, 96)),
                   "over the memory budget of 1,073,741,824 bytes (1.00 GiB)");
  // LLaMA-70B's layer without biases is exactly 4·8192² floats = 1 GiB; with the packed copy it
  // is 2 GiB, so it is refused too (it could never run a forward pass within the budget).
  alloc_probe::largest = 0;
  alloc_probe::open = true;
  CHECK_ATTN_ERROR(attn::MultiHeadAttention(config(8192, 64, 0, 0, false)), "needs 2,147,483,648 bytes (2.00 GiB)");
  alloc_probe::open = false;
  CHECK(alloc_probe::largest < (1u << 20));
  // Analysis of the same sizes still works: nothing is allocated there.
  CHECK(attn::parameter_counts(attn::resolve_dims(config(12288, 96))).total == 604028928LL);
}

TEST_CASE("finite inputs whose scores or output overflow float32 are refused, never NaN", "[errors][finite]") {
  // q·k = 1e20·1e20·4 = 4e40 > 3.4e38: every input is finite, the scores would not be.
  Sdpa s;
  std::fill(s.q.begin(), s.q.end(), 1e20f);
  std::fill(s.k.begin(), s.k.end(), 1e20f);
  for (bool need_weights : {true, false}) {
    s.need_weights = need_weights;
    REQUIRE_THROWS_WITH(s.run(), Catch::Contains("the attention scores can overflow float32"));
  }
  // Large but safe scores still run: 1e9·1e9·4/√4 = 2e18.
  std::fill(s.q.begin(), s.q.end(), 1e9f);
  std::fill(s.k.begin(), s.k.end(), 1e9f);
  REQUIRE_NOTHROW(s.run());

  // An output projection that overflows names the place instead of returning ±∞.
  Mha m;
  attn::MhaWeights w = m.layer.weights();
  std::fill(w.wo.begin(), w.wo.end(), 3e38f);
  m.layer.set_weights(w);
  std::fill(m.query.begin(), m.query.end(), 1.0f);
  std::fill(m.key.begin(), m.key.end(), 1.0f);
  std::fill(m.value.begin(), m.value.end(), 1.0f);
  REQUIRE_THROWS_WITH(m.run(), Catch::Contains("the output overflowed float32 at batch item 0, query 0"));
}

TEST_CASE("sizes whose counts would pass 2^53 are refused by the analysis guard", "[errors][sizes]") {
  const attn::MhaDims d = attn::resolve_dims(config(1024, 16));
  REQUIRE_NOTHROW(attn::require_countable(d, 1, 2048, 2048));
  REQUIRE_THROWS_WITH(attn::require_countable(d, 1 << 20, 1 << 20, 1 << 20),
                      Catch::Contains("too large to count exactly"));
  REQUIRE_THROWS_WITH(attn::require_countable(d, 1, (1 << 20) + 1, 4), Catch::Contains("at most 1,048,576"));
}

TEST_CASE("a call allocates no more than the memory its budget check counted", "[errors][budget]") {
  // The peak of the bytes a call allocates, over what was live before it, against the count the
  // budget check used (minus the inputs, which the caller allocated). Buffers the engine keeps
  // between calls only grow, so the first call in this process that needs a size pays for it;
  // the cases run largest-buffers-first where it matters.
  struct Case {
    int n_q, n_k, d_k, d_v;
    bool need_weights;
    std::size_t scratch_logits;
  };
  const Case cases[] = {
      {513, 5000, 64, 64, false, std::size_t{1} << 21},  // full block streams, the 1-row last block takes whole rows
      {700, 300, 40, 24, false, std::size_t{1} << 21},   // whole rows, sub-blocks, two query blocks
      {70, 130, 96, 8, false, 0},                        // streaming, d_k wider than a key tile
      {33, 2100, 16, 16, true, std::size_t{1} << 21},    // weights requested
  };
  for (const Case& c : cases) {
    INFO("n_q " << c.n_q << ", n_k " << c.n_k << ", d_k " << c.d_k << ", d_v " << c.d_v << ", need_weights "
                << c.need_weights << ", scratch_logits " << c.scratch_logits);
    Sdpa s;
    s.n_q = c.n_q;
    s.n_k = c.n_k;
    s.d_k = c.d_k;
    s.d_v = c.d_v;
    s.q.assign(static_cast<std::size_t>(c.n_q) * c.d_k, 0.5f);
    s.k.assign(static_cast<std::size_t>(c.n_k) * c.d_k, 0.25f);
    s.v.assign(static_cast<std::size_t>(c.n_k) * c.d_v, 1.0f);
    s.need_weights = c.need_weights;
    s.opt.scratch_logits = c.scratch_logits;
    // The count the check uses is in its message: run once with a budget of 1 byte to read it.
    s.budget = 1;
    std::uint64_t counted = 0;
    try {
      s.run();
    } catch (const attn::Error& e) {
      std::string digits;
      for (const char* p = std::strstr(e.what(), "needs ") + 6; *p != ' '; ++p)
        if (*p != ',') digits += *p;
      counted = std::stoull(digits);
    }
    REQUIRE(counted > 0);
    const std::uint64_t inputs = 4 * (s.q.size() + s.k.size() + s.v.size());
    s.budget = attn::kDefaultMemoryBudget;
    // Nothing but the call inside the measured stretch (Catch's own reporting allocates too).
    const std::size_t before = alloc_probe::live;
    alloc_probe::peak = before;
    std::size_t output_size = s.run().output.size();
    const std::uint64_t allocated = alloc_probe::peak - before;
    CHECK(output_size == static_cast<std::size_t>(c.n_q) * c.d_v);
    INFO("allocated at peak " << allocated << " bytes; counted " << counted - inputs << " bytes besides the inputs");
    CHECK(allocated <= counted - inputs);
  }

  // The same for a whole multi-head forward pass against run_memory (cross-attention: the
  // inputs are the query, key and value the caller holds).
  attn::MultiHeadAttention layer(config(48, 4));
  for (const auto& [n_q, n_k, need_weights] : {std::tuple{600, 700, false}, std::tuple{20, 4500, false}, std::tuple{50, 60, true}}) {
    INFO("forward n_q " << n_q << ", n_k " << n_k << ", need_weights " << need_weights);
    const std::vector<float> query(static_cast<std::size_t>(n_q) * 48, 0.1f), kv(static_cast<std::size_t>(n_k) * 48, 0.2f);
    attn::ForwardOptions opt;
    opt.need_weights = need_weights;
    const attn::MhaInput in{query.data(), query.size(), kv.data(), kv.size(), kv.data(), kv.size(), 1, n_q, n_k};
    const attn::RunMemory counted = attn::run_memory(layer.dims(), 1, n_q, n_k, need_weights, false);
    const std::size_t before = alloc_probe::live;
    alloc_probe::peak = before;
    std::size_t output_size = layer.forward(in, opt).output.size();
    const std::uint64_t allocated = alloc_probe::peak - before;
    CHECK(output_size == query.size());
    INFO("allocated at peak " << allocated << " bytes; run_memory less inputs and parameters "
                              << counted.total - counted.inputs - counted.parameters);
    CHECK(allocated <= counted.total - counted.inputs - counted.parameters);
  }
}

// The smallest budget a call is accepted with (the budget check runs before any work; a refusal is an attn::Error).
template <class Call>
std::uint64_t smallest_budget(Call&& call) {
  std::uint64_t lo = 0, hi = std::uint64_t(1) << 32;  // refused at lo, accepted at hi
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    bool ok = true;
    try { call(mid); } catch (const attn::Error&) { ok = false; }
    (ok ? hi : lo) = mid;
  }
  return hi;
}

TEST_CASE("an explicit mask and key lengths count in a call's memory budget, to the byte", "[errors][budget]") {
  // The JS API refuses inputs and a mask over the budget before it copies them (checks.js inputsWithinBudget);
  // the core must count the mask too, or the two disagree (a call the core would take refused by the guard).
  Sdpa plain;
  plain.batch = 2, plain.n_q = 24, plain.n_k = 40, plain.d_k = 4, plain.d_v = 4, plain.need_weights = false;
  plain.q.assign(2 * 24 * 4, 0.5f), plain.k.assign(2 * 40 * 4, 0.25f), plain.v.assign(2 * 40 * 4, 1.0f);
  Sdpa masked = plain;
  masked.opt.mask.matrix.assign(24 * 40, 0);
  masked.opt.mask.key_lengths = {40, 31};
  const auto need = [](Sdpa s) { return smallest_budget([&](std::uint64_t b) { s.budget = b; s.run(); }); };
  CHECK(need(masked) - need(plain) == 24 * 40 + 2 * sizeof(int));
  // A layer's forward pass and its trace count it the same way.
  Mha m;
  attn::ForwardOptions with = m.opt;
  with.mask.matrix.assign(3 * 4, 0);
  const auto forward = [&](attn::ForwardOptions o) {
    return smallest_budget([&](std::uint64_t b) { o.memory_budget = b; m.layer.forward(m.input(), o); });
  };
  CHECK(forward(with) - forward(m.opt) == 12);
}

TEST_CASE("release_scratch gives back every byte the kernels keep between calls", "[errors][scratch]") {
  // Issue 23, item 9: the kernels' thread_local buffers (packed K and V, the matmul's packs, rows
  // of logits) grew to the largest call and kept that size for good. Each is now a Scratch<...>
  // on this thread's list: after a call, every byte still held over what was live before is on
  // that list, and release_scratch() (which the bindings run as each call returns) frees it all.
  attn::MultiHeadAttention layer(config(64, 4));
  const int n = 600;  // above a query block (512): the streaming and the whole-row paths both run
  check::TestRng rng(23);
  const std::vector<float> query = rng.vec(static_cast<std::size_t>(n) * 64, -1.0f, 1.0f);
  const std::vector<float> grad = rng.vec(query.size(), -0.1f, 0.1f);
  const attn::MhaInput in{query.data(), query.size(), query.data(), query.size(), query.data(), query.size(), 1, n, n};
  attn::ForwardOptions plain, weights;
  weights.need_weights = true;
  weights.mask.causal = true;
  attn::release_scratch();
  // Nothing but the calls inside the measured stretch (Catch's own reporting allocates too).
  const std::size_t before = alloc_probe::live;
  std::vector<float> first_output;
  {
    first_output = layer.forward(in, plain).output;
    layer.forward(in, weights);
    attn::multi_head_attention_backward(layer, in, grad.data(), grad.size(), plain);
    attn::multi_head_attention_backward(layer, in, grad.data(), grad.size(), weights);
  }
  const std::size_t kept = alloc_probe::live - before - first_output.size() * sizeof(float);
  const std::size_t listed = attn::scratch_bytes();
  attn::release_scratch();
  const std::size_t after_release = alloc_probe::live - before - first_output.size() * sizeof(float);
  const std::size_t listed_after = attn::scratch_bytes();
  CHECK(kept > 500000);  // about 1 MB of scratch: the test reaches the buffers it is about
  CHECK(kept == listed);  // every byte kept between calls is on the list
  CHECK(after_release == 0);
  CHECK(listed_after == 0);
  // The buffers grow again on the next call, and the numbers are the same as before the release.
  CHECK(layer.forward(in, plain).output == first_output);
  attn::release_scratch();
}

TEST_CASE("mask_grid: a heatmap cell is masked only when every weight in it is", "[errors][mask][grid]") {
  // The rule written out here, independently of Mask::masked and row_limit.
  auto hidden = [](bool causal, const std::vector<int>& lengths, const std::vector<std::uint8_t>& matrix, int b, int i,
                   int j, int n_k) {
    return (causal && j > i) || (!lengths.empty() && j >= lengths[b]) || (!matrix.empty() && matrix[i * n_k + j]);
  };
  for (const bool causal : {false, true}) {
    for (const bool padded : {false, true}) {
      for (const bool with_matrix : {false, true}) {
        const int n_q = 11, n_k = 9;
        attn::Mask m;
        m.causal = causal;
        if (padded) m.key_lengths = {9, 4, 0};
        if (with_matrix) {
          m.matrix.assign(n_q * n_k, 0);
          for (int i = 0; i < n_q; ++i)
            for (int j = 0; j < n_k; ++j) m.matrix[i * n_k + j] = (i + 2 * j) % 3 == 0 || j < 2;
        }
        for (int b = 0; b < 3; ++b)
          for (int row_step : {1, 2, 4, 11})
            for (int col_step : {1, 3, 5}) {
              const std::vector<std::uint8_t> grid = attn::mask_grid(m, b, n_q, n_k, row_step, col_step);
              const int rows = (n_q + row_step - 1) / row_step, cols = (n_k + col_step - 1) / col_step;
              REQUIRE(grid.size() == static_cast<std::size_t>(rows * cols));
              for (int r = 0; r < rows; ++r)
                for (int c = 0; c < cols; ++c) {
                  bool all = true;
                  for (int i = r * row_step; i < std::min(n_q, (r + 1) * row_step); ++i)
                    for (int j = c * col_step; j < std::min(n_k, (c + 1) * col_step); ++j)
                      all = all && hidden(causal, m.key_lengths, m.matrix, b, i, j, n_k);
                  INFO("causal " << causal << " padded " << padded << " matrix " << with_matrix << " b " << b
                                 << " steps " << row_step << "×" << col_step << " cell " << r << "," << c);
                  CHECK(grid[r * cols + c] == (all ? 1 : 0));
                }
            }
      }
    }
  }
  // The grids the page's former JavaScript maskGrid drew (model/pool.js, now deleted).
  attn::Mask both;
  both.causal = true;
  both.key_lengths = {5, 3};
  auto text = [](const std::vector<std::uint8_t>& g) {
    std::string s;
    for (std::uint8_t x : g) s += static_cast<char>('0' + x);
    return s;
  };
  CHECK(text(attn::mask_grid(both, 1, 7, 6, 2, 2)) == "011001001001");
  attn::Mask causal;
  causal.causal = true;
  CHECK(text(attn::mask_grid(causal, 0, 5, 5, 1, 1)) == "0111100111000110000100000");
  CHECK(text(attn::mask_grid(attn::Mask{}, 0, 2, 3, 1, 1)) == "000000");
  CHECK_THROWS_WITH(attn::mask_grid(both, 2, 7, 6, 1, 1), Catch::Contains("item 2 has no key length"));
  CHECK_THROWS_WITH(attn::mask_grid(both, 0, 7, 6, 0, 1), Catch::Contains("row_step must be a positive integer"));
}

#undef CHECK_ATTN_ERROR  // the next file of a unity source does not see it
}  // namespace test_errors
