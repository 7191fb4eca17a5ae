// This project's engine (SIMD module and scalar baseline) behind the same small runner interface
// as the ORT and TF.js adapters: create per size, run(x, need_weights), dispose.
import { loadAttention } from '../web/src/engine/attention.js';

/** Loads one module; `simd: false` is the baseline. Checks the module is the one asked for. */
export async function loadOurs({ simd }) {
  let attn;
  try {
    attn = await loadAttention(simd ? {} : { simd: false });
  } catch (e) {
    throw new Error(`cannot load this project's ${simd ? 'SIMD' : 'scalar'} module (${e.message}); ` +
      'build it first: npm run build');
  }
  const want = simd ? 'wasm-simd128' : 'scalar';
  if (attn.isa !== want) throw new Error(`loadAttention(${simd ? '' : '{ simd: false }'}) gave isa ${attn.isa}, expected ${want}`);
  return attn;
}

/**
 * A layer for one size with the shared weights; self-attention passes x as query, key and value.
 * reuse: the results go into arrays allocated once per case (the API's `into`), as a caller that
 * runs repeatedly would do; otherwise every run returns new arrays (the API's default).
 */
export function createOursRunner(attn, { d_model, n_heads, d_k, d_v, batch, n }, weights, { reuse }) {
  const mha = new attn.MultiHeadAttention({ d_model, n_heads, d_k, d_v, bias: true, seed: 1 });
  mha.setWeights(weights);
  let output = null, attnWeights = null;
  return {
    run(x, need_weights) {
      let into;
      if (reuse) {
        output ??= new Float32Array(batch * n * d_model);
        if (need_weights) attnWeights ??= new Float32Array(batch * n_heads * n * n);
        into = need_weights ? { output, weights: attnWeights } : { output };
      }
      const r = mha.forward({ query: x, key: x, value: x, batch, n_q: n, n_k: n, mask: 'none', need_weights, into });
      return { output: r.output, weights: r.weights };
    },
    dispose() { mha.delete(); },
  };
}
