// Float64 forward passes with dropout, for checking the engine's gradients by central differences:
// plain loops over Float64Arrays written from the lesson's definitions. Only the dropout rule is
// the engine's (a weight's fate is a hash of seed, b, h, i, j: rng.h), ported with BigInt.
import { maskFunction } from './reference.mjs';

const MASK64 = (1n << 64n) - 1n;

// SplitMix64's finaliser, as rng.h's mix64.
function mix64(z) {
  z = (z + 0x9e3779b97f4a7c15n) & MASK64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

/** True when attention weight (b, h, i, j) is kept under dropout p with this seed (rng.h's dropout_keep). */
export function dropoutKeep(seed, b, h, i, j, p) {
  let z = mix64(BigInt(seed) ^ mix64((BigInt(b) << 32n) | BigInt(h)));
  z = mix64(z ^ ((BigInt(i) << 32n) | BigInt(j)));
  return Number(z >> 40n) / 16777216 >= Math.fround(p); // 24 random bits against p in float32, as the engine
}

// The kept weights of (seed, p, b, h) as an n_q × n_k grid, each worked out once by dropoutKeep: the central
// differences run the same forward pass hundreds of times, and the keep decisions depend on none of its inputs
// (the BigInt hashes were a third of backward.test's reference time).
const keepGrids = new Map();
function keepGrid({ seed, p }, b, h, n_q, n_k) {
  const key = `${seed} ${p} ${b} ${h} ${n_q} ${n_k}`;
  let grid = keepGrids.get(key);
  if (!grid) {
    grid = new Uint8Array(n_q * n_k);
    for (let i = 0; i < n_q; i++) for (let j = 0; j < n_k; j++) grid[i * n_k + j] = dropoutKeep(seed, b, h, i, j, p) ? 1 : 0;
    keepGrids.set(key, grid);
  }
  return grid;
}

/**
 * One (batch item b, head h) of attention, added into out: rows of q (n_q × d_k), k (n_k × d_k),
 * v (n_k × d_v) read at offsets qo, ko, vo with row strides ldq, ldk, ldv; out at oo, stride ldo.
 */
function attentionHead(s, b, h) {
  const { q, k, v, out, qo, ko, vo, oo, ldq, ldk, ldv, ldo, n_q, n_k, d_k, d_v, isMasked, alpha, drop } = s;
  const keep = drop ? keepGrid(drop, b, h, n_q, n_k) : null;
  const logits = new Float64Array(n_k);
  for (let i = 0; i < n_q; i++) {
    let max = -Infinity;
    for (let j = 0; j < n_k; j++) {
      if (isMasked(b, i, j)) { logits[j] = -Infinity; continue; }
      let dot = 0;
      for (let c = 0; c < d_k; c++) dot += q[qo + i * ldq + c] * k[ko + j * ldk + c];
      logits[j] = alpha * dot;
      max = Math.max(max, logits[j]);
    }
    if (max === -Infinity) continue; // a fully masked row: zero weights and output
    let z = 0;
    for (let j = 0; j < n_k; j++) z += (logits[j] = Math.exp(logits[j] - max)); // each exp once, kept for the weights
    for (let j = 0; j < n_k; j++) {
      let p = logits[j] / z;
      if (drop) p = keep[i * n_k + j] ? p / (1 - drop.p) : 0;
      for (let c = 0; c < d_v; c++) out[oo + i * ldo + c] += p * v[vo + j * ldv + c];
    }
  }
}

function dropoutOf({ dropout = 0, training = dropout > 0, seed = 1 }) {
  return training && dropout > 0 ? { p: dropout, seed } : null;
}

/** Scaled dot-product attention in float64: output [batch, n_q, d_v]. */
export function sdpaForward64(o) {
  const { q, k, v, batch, n_q, n_k, d_k, d_v, mask, scale = true } = o;
  const out = new Float64Array(batch * n_q * d_v);
  const shared = { q, k, v, out, ldq: d_k, ldk: d_k, ldv: d_v, ldo: d_v, n_q, n_k, d_k, d_v,
    isMasked: maskFunction(mask, n_k), alpha: scale ? 1 / Math.sqrt(d_k) : 1, drop: dropoutOf(o) };
  for (let b = 0; b < batch; b++) {
    attentionHead({ ...shared, qo: b * n_q * d_k, ko: b * n_k * d_k, vo: b * n_k * d_v, oo: b * n_q * d_v }, b, 0);
  }
  return out;
}

// y = x·W + b for rows of x starting at offset xo.
function linear(x, xo, rows, d_in, w, bias, d_out) {
  const y = new Float64Array(rows * d_out);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < d_out; c++) {
      let s = bias ? bias[c] : 0;
      for (let t = 0; t < d_in; t++) s += x[xo + r * d_in + t] * w[t * d_out + c];
      y[r * d_out + c] = s;
    }
  }
  return y;
}

/**
 * Multi-head attention in float64 from separate query, key and value arrays (so a change to one
 * follows its own path even in self-attention) and weights { wq, wk, wv, wo, bq?, bk?, bv?, bo? }.
 * n_kv_heads: key/value heads, head h reading h / (n_heads / n_kv_heads); head_mask: each head's
 * output multiplied by its entry before Wᴼ.
 */
export function mhaForward64(o) {
  const { query, key, value, weights: w, batch, n_q, n_k, d_model: D, n_heads: H, d_k, d_v, mask, scale = true } = o;
  const KVH = o.n_kv_heads ?? H, group = H / KVH, headMask = o.head_mask ?? null;
  const QK = H * d_k, V = H * d_v, KK = KVH * d_k, KV = KVH * d_v;
  const output = new Float64Array(batch * n_q * D);
  const isMasked = maskFunction(mask, n_k), alpha = scale ? 1 / Math.sqrt(d_k) : 1, drop = dropoutOf(o);
  for (let b = 0; b < batch; b++) {
    const Q = linear(query, b * n_q * D, n_q, D, w.wq, w.bq, QK);
    const K = linear(key, b * n_k * D, n_k, D, w.wk, w.bk, KK);
    const Vp = linear(value, b * n_k * D, n_k, D, w.wv, w.bv, KV);
    const concat = new Float64Array(n_q * V);
    for (let h = 0; h < H; h++) {
      const g = Math.floor(h / group);
      attentionHead({ q: Q, k: K, v: Vp, out: concat, qo: h * d_k, ko: g * d_k, vo: g * d_v, oo: h * d_v,
        ldq: QK, ldk: KK, ldv: KV, ldo: V, n_q, n_k, d_k, d_v, isMasked, alpha, drop }, b, h);
      if (headMask) for (let i = 0; i < n_q; i++) for (let c = 0; c < d_v; c++) concat[i * V + h * d_v + c] *= headMask[h];
    }
    output.set(linear(concat, 0, n_q, V, w.wo, w.bo, D), b * n_q * D);
  }
  return output;
}

/** Σ g·y: the loss whose gradient with respect to y is g. */
export function dot(g, y) {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += g[i] * y[i];
  return s;
}

/** Central differences of loss() with respect to every element of x (changed in place, then restored). */
export function centralDifferences(x, loss, h = 1e-4) {
  const g = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const x0 = x[i];
    x[i] = x0 + h;
    const up = loss();
    x[i] = x0 - h;
    const down = loss();
    x[i] = x0;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}
