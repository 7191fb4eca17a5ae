// The lengths of a layer's forward results, with the shape a wrong `into` is told: the one place the
// engine's JavaScript computes them (attention.js's forward and backward, pool_input.js's record, and the
// pool's weight bytes read them here, so the three cannot drift apart).

/** { output: [length, shape], weights: [length, shape] } of a pass of a layer of d_model, n_heads. */
export function forwardResultSizes({ batch, n_q, n_k, d_model, n_heads }) {
  return {
    output: [batch * n_q * d_model, `[batch, n_q, d_model] = [${batch}, ${n_q}, ${d_model}]`],
    weights: [batch * n_heads * n_q * n_k, `[batch, n_heads, n_q, n_k] = [${batch}, ${n_heads}, ${n_q}, ${n_k}]`],
  };
}

/** { query, key }: the lengths of a pass's inputs, [batch, n_q, d_model] and [batch, n_k, d_model]. */
export function forwardInputLengths({ batch, n_q, n_k, d_model }) {
  return { query: batch * n_q * d_model, key: batch * n_k * d_model };
}
