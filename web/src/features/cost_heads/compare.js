// h = 1 against h = 8 at the same d_model (pure, no DOM): each layer counted by the core (attn.analyze),
// d_k = d_v derived by the core (d_model / h), so the figures show what splitting into heads changes:
// neither the weights nor the matmuls' multiply-adds, only the scale and softmax (one n × n map per head).

/** The head counts the cost chapter compares. */
export const HEAD_COUNTS = Object.freeze([1, 8]);

/**
 * For each head count: { h, d_k, params, macs, lesson, softmax_flops, flops, maps } from the core's
 * analysis of { d_model, n_heads: h, bias, n }, or { h, error } when the core refuses that layer (a
 * d_model that 8 heads do not divide). softmax_flops: the scale and softmax stages' FLOPs.
 */
export function compareHeads(analyze, { d_model, bias, n, batch = 1 }, counts = HEAD_COUNTS) {
  return counts.map((h) => {
    let a;
    try {
      a = analyze({ d_model, n_heads: h, bias, batch, n });
    } catch (err) {
      return { h, error: err.message };
    }
    const f = a.flops;
    const softmax = f.stages.filter((s) => s.macs === 0 || s.stage.startsWith('scores'))
      .reduce((sum, s) => sum + (s.flops - 2 * s.macs), 0);
    return { h, d_k: a.dims.d_k, params: a.params.total, macs: f.exact_macs, lesson: f.lesson.total, softmax_flops: softmax, flops: f.exact_flops, maps: a.derived.attention_maps };
  });
}
