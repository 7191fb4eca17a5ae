// The compute side of the KV cache panel: the current sentence (batch item 0, its queries: decoding is
// self-attention) decoded one token at a time by the core (mha.createKVCache, mha.decodeStep) with
// the layer of the view, and each step's weights compared with the causal forward pass's row.

const MAX_TOKENS = 64; // a view for reading step by step: longer inputs decode their first 64 tokens
const LONG_CONTEXT = 2048; // a long prompt: GPT-3's whole context (its costs stay exact in a double)

/** The fields of decodeCost (attn.decodeCost) the panel shows, for one layer or a whole model. */
const costOf = (c) => ({ cache_bytes: c.cache_bytes, model_cache_bytes: c.model_cache_bytes, mha_model_cache_bytes: c.mha_model_cache_bytes,
  step_flops: c.step_flops, recompute_flops: c.recompute_flops, speedup: c.speedup, total_flops: c.total_flops,
  total_recompute_flops: c.total_recompute_flops, model_step_flops: c.model_step_flops, model_recompute_flops: c.model_recompute_flops });

export const handlers = {
  /**
   * { config } → { n, n_heads, n_kv_heads, labels, bytes, bytes_per_token, positional, steps: [{ t,
   * weights (n_heads × t), bytes_used, max_difference (from the causal forward pass), cost (this layer
   * at step t), models: [the model table's costs at step t] }], models: [{ name, n_layers, n_heads,
   * n_kv_heads, long (the cost at LONG_CONTEXT) }], kv_head_of }: every number the core's.
   */
  async kvDecode({ config }, side, post) {
    const attn = await side.labs(); // the engine with the labs module loaded: the cache is a lab's
    const { layer, inputs, args } = side.prepared(config, post);
    const d = layer.d_model, h = layer.n_heads;
    const n = Math.min(config.n_q, MAX_TOKENS);
    const x = args.query.subarray(0, n * d); // batch item 0
    const positional = args.positional ?? 'none', rope_base = args.rope_base;
    const extra = positional === 'none' ? {} : positional === 'rope' ? { positional, rope_base } : { positional };
    // The rows decoding must reproduce: the forward pass over the same tokens with a causal mask.
    const forward = layer.forward({ query: x.slice(), n_q: n, mask: 'causal', scale: args.scale, need_weights: true, ...extra });
    const sizes = { d_model: d, n_heads: h, n_kv_heads: layer.n_kv_heads, d_k: layer.d_k, d_v: layer.d_v, bias: layer.bias, scale: args.scale };
    const presets = attn.modelPresets().map((m) => ({ name: m.name, n_layers: m.n_layers, n_heads: m.n_heads, n_kv_heads: m.n_kv_heads,
      sizes: { d_model: m.d_model, n_heads: m.n_heads, n_kv_heads: m.n_kv_heads, d_k: m.d_k, d_v: m.d_k, n_layers: m.n_layers } }));
    const models = presets.map(({ sizes: s, ...m }) => ({ ...m, long: costOf(attn.decodeCost({ ...s, t: LONG_CONTEXT })) }));
    const cache = attn.createKVCache(layer, { max_len: n });
    try {
      const steps = [];
      for (let i = 0; i < n; i++) {
        const r = layer.decodeStep({ x: x.slice(i * d, (i + 1) * d), cache, scale: args.scale, ...extra });
        const t = i + 1;
        let max_difference = 0;
        for (let head = 0; head < h; head++) {
          for (let j = 0; j < t; j++) {
            max_difference = Math.max(max_difference, Math.abs(r.weights[head * t + j] - forward.weights[(head * n + i) * n + j]));
          }
        }
        for (let c = 0; c < d; c++) max_difference = Math.max(max_difference, Math.abs(r.output[c] - forward.output[i * d + c]));
        steps.push({ t, weights: r.weights, bytes_used: cache.bytes_used, max_difference, cost: costOf(attn.decodeCost({ ...sizes, t })),
          models: presets.map((m) => costOf(attn.decodeCost({ ...m.sizes, t }))) });
      }
      return { n, n_q: config.n_q, n_heads: h, n_kv_heads: layer.n_kv_heads, d_model: d, d_k: layer.d_k, d_v: layer.d_v, bias: layer.bias,
        labels: inputs.labels_q?.[0]?.slice(0, n) ?? null, bytes: cache.bytes, bytes_per_token: cache.bytes_per_token, steps, positional, models, long_context: LONG_CONTEXT,
        kv_head_of: config.kv_head_of ?? null }; // the core's (resolveView)
    } finally {
      cache.delete();
    }
  },
};
