// How the worker pool shares one multi-head attention layer: contiguous groups of heads (whole
// key/value groups, so grouped-query attention splits too), the parameter slices each worker holds,
// and how the workers' partial results become the layer's result. Pure functions, no workers.
// (How many FLOPs a pass has is the core's count, analyze().flops, asked for by pool.js.)
import { copyInto, lengthOf } from './intrinsics.js';

/**
 * Splits the heads into at most `parts` contiguous groups, as even as possible (any extra key/value
 * head goes to the first groups). A group is whole key/value heads with the query heads that read
 * them, taken from the core's kv_head_of (query head h reads key/value head kv_head_of[h]; the
 * layer's resolved view). Returns [{ h0, h, kv0, n_kv }]: first query head and count, first
 * key/value head and count.
 */
export function headGroups({ n_kv_heads, kv_head_of }, parts) {
  const n_heads = kv_head_of.length;
  // The split sends each worker one run of query heads: the core's mapping must keep them in order.
  for (let q = 1; q < n_heads; q++) {
    if (kv_head_of[q] < kv_head_of[q - 1]) throw new Error('internal error: the query heads of a key/value head are not contiguous');
  }
  const count = Math.max(1, Math.min(parts, n_kv_heads));
  const base = Math.floor(n_kv_heads / count), extra = n_kv_heads - base * count;
  const groups = [];
  for (let g = 0, kv0 = 0, h0 = 0; g < count; g++) {
    const n_kv = base + (g < extra ? 1 : 0);
    let h = 0;
    while (h0 + h < n_heads && kv_head_of[h0 + h] < kv0 + n_kv) h++;
    groups.push({ h0, h, kv0, n_kv });
    kv0 += n_kv;
    h0 += h;
  }
  return groups;
}

/** Columns c0 … c0+count−1 of a row-major rows×width matrix, as a new rows×count matrix. */
function columns(w, rows, width, c0, count) {
  const out = new Float32Array(rows * count);
  for (let r = 0; r < rows; r++) out.set(w.subarray(r * width + c0, r * width + c0 + count), r * count);
  return out;
}

/**
 * The parameters of the smaller layer a worker holds for `group`: its heads' columns of Wᴽ, Wᴷ, Wⱽ
 * (and of their biases), its heads' rows of Wᴼ. bᴼ is zero there: it is added once, after the
 * partial outputs are summed.
 */
export function groupParams(w, dims, group) {
  const { d_model, d_k, d_v, n_heads, n_kv_heads } = dims;
  const slice = {
    wq: columns(w.wq, d_model, n_heads * d_k, group.h0 * d_k, group.h * d_k),
    wk: columns(w.wk, d_model, n_kv_heads * d_k, group.kv0 * d_k, group.n_kv * d_k),
    wv: columns(w.wv, d_model, n_kv_heads * d_v, group.kv0 * d_v, group.n_kv * d_v),
    wo: w.wo.slice(group.h0 * d_v * d_model, (group.h0 + group.h) * d_v * d_model),
  };
  if (dims.bias) {
    slice.bq = w.bq.slice(group.h0 * d_k, (group.h0 + group.h) * d_k);
    slice.bk = w.bk.slice(group.kv0 * d_k, (group.kv0 + group.n_kv) * d_k);
    slice.bv = w.bv.slice(group.kv0 * d_v, (group.kv0 + group.n_kv) * d_v);
    slice.bo = new Float32Array(d_model);
  }
  return slice;
}

/** The layer config of a worker's smaller layer: its heads, d_model unchanged, explicit d_k and d_v. */
export const groupConfig = (dims, group) =>
  ({ d_model: dims.d_model, n_heads: group.h, n_kv_heads: group.n_kv, d_k: dims.d_k, d_v: dims.d_v, bias: dims.bias });

/**
 * output = Σ partials (+ bᴼ), written into `dst`. Every partial is [rows, d_model]; bo is null
 * when the layer has no bias. One pass over the first two partials (the common case of two
 * workers), one more per further partial.
 */
export function sumPartials(partials, bo, dst) {
  // The typed array's own length: dst may be the caller's array, whose `length` property could lie.
  const n = lengthOf(dst), d = bo ? bo.length : n;
  const [a, b, ...rest] = partials;
  if (bo && b) {
    // The common case without a test per value (~30% faster in V8); the same sums, in the same order.
    for (let r = 0; r < n; r += d) {
      for (let c = 0; c < d; c++) dst[r + c] = bo[c] + a[r + c] + b[r + c];
    }
  } else {
    for (let r = 0; r < n; r += d) {
      for (let c = 0; c < d; c++) {
        const i = r + c;
        dst[i] = (bo ? bo[c] : 0) + a[i] + (b ? b[i] : 0);
      }
    }
  }
  for (const p of rest) {
    for (let i = 0; i < n; i++) dst[i] += p[i];
  }
  return dst;
}

/**
 * Puts each worker's attention weights [batch, group.h, n_q, n_k] at its heads' place in
 * dst [batch, n_heads, n_q, n_k].
 */
export function placeAttention(parts, groups, batch, n_heads, perHead, dst) {
  for (let b = 0; b < batch; b++) {
    groups.forEach((g, w) => {
      const from = b * g.h * perHead;
      // The built-in set: dst may be the caller's array, a subclass with a `set` of its own.
      copyInto(dst, parts[w].subarray(from, from + g.h * perHead), (b * n_heads + g.h0) * perHead);
    });
  }
  return dst;
}

/**
 * The index of the first value of `array` that is not finite, or −1. Partial outputs that are each
 * finite can sum past float32's range: the pool refuses that, as the single-threaded forward does.
 */
export function firstNonFinite(array) {
  const n = lengthOf(array);
  for (let i = 0; i < n; i++) {
    // One comparison per value: false for ±∞ and NaN alike.
    if (!(Math.abs(array[i]) <= 3.4028234663852886e38)) return i;
  }
  return -1;
}
