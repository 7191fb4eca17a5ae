// Streaming check: one long self-attention (n = 16384) in a fresh SIMD module with need_weights
// off (the O(n)-memory path), then the same with need_weights on, which must be refused.
import { makeInput, makeWeights } from './data.mjs';
import { mhaFlops } from './flops.mjs';
import { loadOurs } from './ours_mha.mjs';
import { now } from './stats.mjs';

export const HEAP_GOAL_BYTES = 200e6; // "under 200 MB", decimal megabytes as everywhere in the report

export async function streamingCheck({ d_model = 768, n_heads = 12, n = 16384 } = {}) {
  // A module of its own, loaded before anything else runs in it, so its heap size is what this
  // one call needed and not a high-water mark left by the other cases.
  const attn = await loadOurs({ simd: true });
  const d_k = d_model / n_heads, dims = { d_model, n_heads, d_k, d_v: d_k, batch: 1, n };
  const mha = new attn.MultiHeadAttention({ d_model, n_heads, d_k, d_v: d_k, bias: true, seed: 1 });
  try {
    mha.setWeights(makeWeights(dims));
    // Warm-up on a short sequence so the kernels are tiered up before the long call.
    const warm = makeInput({ batch: 1, n: 256, d_model });
    for (let i = 0; i < 3; i++) mha.forward({ query: warm, key: warm, value: warm, batch: 1, n_q: 256, n_k: 256, mask: 'none' });

    const x = makeInput({ batch: 1, n, d_model });
    const t0 = now();
    const r = mha.forward({ query: x, key: x, value: x, batch: 1, n_q: n, n_k: n, mask: 'none', need_weights: false });
    const ms = now() - t0;
    const heapBytes = attn.memoryBytes();
    const finite = r.output.length === n * d_model && r.output.every(Number.isFinite);

    let refusal = null;
    try {
      mha.forward({ query: x, key: x, value: x, batch: 1, n_q: n, n_k: n, mask: 'none', need_weights: true });
    } catch (e) {
      refusal = e.message;
    }
    return {
      dims, ms, gflops: mhaFlops(dims) / (ms / 1000) / 1e9, heapBytes, finite,
      heapOk: heapBytes < HEAP_GOAL_BYTES, refusal,
    };
  } finally {
    mha.delete();
  }
}
