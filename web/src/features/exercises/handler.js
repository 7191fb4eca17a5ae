// The compute side of the exercises: every answer is the core's. An exercise (lesson/exercises/
// catalogue.js) names the calls that give it; this runs them, in order, on the engine: a few of the API's
// own functions, the live layer's trace of one query (the layer and inputs the heatmaps show), a layer
// built for one head pattern, and the training lab's model before and after some steps.

/** The API functions an exercise may call as they are (pure: they allocate nothing that outlives the call). */
const ENGINE_CALLS = new Set(['analyze', 'resolveView', 'maskGrid', 'sqrtDkStats', 'sqrtDkGradients', 'positionalProperties', 'positionalEncoding', 'modelPresets',
  'linearAttentionCost', 'decodeCost', 'alibiSlopes']);
/** The calls and ops that run in the labs module (loaded for an exercise that asks for one of them). */
const LAB_CALLS = new Set(['sqrtDkGradients', 'linearAttentionCost', 'decodeCost', 'flashVsStandard', 'trainEval', 'trainedRows']);

const OPS = {
  /** The live layer's trace of query `query_index` (mask: another mask for this one trace). */
  trace({ config, item = 0, head = 0, query_index, mask }, side, post) {
    const { layer, args } = side.prepared(config, post);
    const t = layer.trace({ ...args, ...(mask ? { mask } : {}), item, head, query_index });
    return { weights: Array.from(t.weights), logits: Array.from(t.logits) };
  },

  /**
   * Head 0 of a layer of these sizes built with `pattern` for `words` (self-attention), traced at one query; `fit`:
   * how well the construction could do its job at this width (setHeadPatterns: exact, fit_error, word_dims, matchable_words).
   */
  patternTrace({ d_model, n_heads, d_k, d_v, pattern, words, input_seed = 1, query_index }, side) {
    const { attn } = side;
    const mha = new attn.MultiHeadAttention({ d_model, n_heads, ...(d_k ? { d_k } : {}), ...(d_v ? { d_v } : {}), seed: 1 }); // the live head's sizes when given
    try {
      const [built] = mha.setHeadPatterns({ heads: [{ head: 0, pattern }], query_words: [words], input_seed });
      const query = attn.embedTokens({ words: [words], d_model, seed: input_seed });
      const t = mha.trace({ query, batch: 1, n_q: words.length, item: 0, head: 0, query_index });
      const { exact, fit_error, word_dims, matchable_words } = built ?? {};
      return { weights: Array.from(t.weights), logits: Array.from(t.logits), fit: { exact, fit_error, word_dims, matchable_words, d_k: mha.d_k } };
    } finally {
      mha.delete();
    }
  },

  /**
   * The core's tiled attention (flashAttention, key blocks of `block`) and its plain attention on the same
   * seeded q, k, v: the largest difference between their outputs and the blocks walked.
   */
  flashVsStandard({ n, d_k, block = 4, seed = 1 }, side) {
    const { attn } = side;
    const [q, k, v] = [0, 1, 2].map((i) => attn.randomNormal({ seed: seed * 3 + i, count: n * d_k }));
    const tiled = attn.flashAttention({ q, k, v, n_q: n, n_k: n, d_k, block_q: block, block_k: block });
    const plain = attn.scaledDotProductAttention({ q, k, v, batch: 1, n_q: n, n_k: n, d_k, d_v: d_k });
    let max_difference = 0;
    for (let i = 0; i < plain.output.length; i++) max_difference = Math.max(max_difference, Math.abs(tiled.output[i] - plain.output[i]));
    return { max_difference, key_blocks: tiled.io.key_blocks, query_blocks: tiled.io.query_blocks };
  },

  /**
   * One head's rows for several queries over the same keys (d_k columns each; values unused): the core's
   * scaled dot-product attention weights, n_q × n_k (scale: false leaves out the 1/√d_k). A design
   * exercise runs every record it allows.
   */
  queryRows({ q, k, n_q, n_k, d_k, scale = true }, side) {
    const r = side.attn.scaledDotProductAttention({ q: Float32Array.from(q), k: Float32Array.from(k), v: new Float32Array(n_k), batch: 1, n_q, n_k, d_k, d_v: 1, scale, need_weights: true });
    return { weights: Array.from(r.weights) };
  },

  /** The core's trace of a one-query head (traceAttention): every number a step exercise asks for, as plain arrays. */
  traceRow({ q, k, v, n_k, d_k, d_v }, side) {
    const t = side.attn.traceAttention({ q: Float32Array.from(q), k: Float32Array.from(k), v: Float32Array.from(v), batch: 1, n_q: 1, n_k, d_k, d_v, query_index: 0 });
    return { scores: Array.from(t.scores), scaled: Array.from(t.scaled), max: t.max, exp: Array.from(t.exp), sum: t.sum, weights: Array.from(t.weights), output: Array.from(t.output) };
  },

  /**
   * Head `head` of a layer fed one seeded token at every one of `n` positions (so only position tells the
   * keys apart), traced at query `query_index` with the positional method `positional` and a mask
   * (causal unless given: sliding with `window`, strided with `stride`).
   */
  positionRow({ d_model, n_heads, n, positional = 'none', head = 0, query_index, seed = 1, mask = 'causal', window, stride }, side) {
    const { attn } = side;
    const mha = new attn.MultiHeadAttention({ d_model, n_heads, seed });
    try {
      const token = attn.randomNormal({ seed, count: d_model });
      const query = new Float32Array(n * d_model);
      for (let i = 0; i < n; i++) query.set(token, i * d_model);
      const sparse = { ...(window ? { window } : {}), ...(stride ? { stride } : {}) };
      const t = mha.trace({ query, batch: 1, n_q: n, item: 0, head, query_index, mask, ...sparse, positional });
      return { weights: Array.from(t.weights), logits: Array.from(t.logits) };
    } finally {
      mha.delete();
    }
  },

  /** The lab's model evaluated before and after `steps` steps: { before, after, classes }. */
  trainEval({ task, d_model, n_heads, seq_len, seed, steps = 0, samples = 200 }, side) {
    const trainer = side.attn.createTrainer({ task, d_model, n_heads, seq_len, seed });
    try {
      const before = trainer.evaluate({ samples });
      for (let left = steps; left > 0;) {
        const n = Math.min(left, trainer.max_steps_per_call);
        trainer.step(n);
        left -= n;
      }
      return { before, after: steps ? trainer.evaluate({ samples }) : before, classes: trainer.shape.n_classes };
    } finally {
      trainer.delete();
    }
  },
};

/** The lab's model after `steps` steps: every head's row at query `query_index` of held-out sample `sample`, and the heads' focus. */
OPS.trainedRows = ({ task, d_model, n_heads, seq_len, seed, steps, sample = 0, query_index }, side) => {
  const trainer = side.attn.createTrainer({ task, d_model, n_heads, seq_len, seed });
  try {
    for (let left = steps; left > 0; left -= trainer.max_steps_per_call) trainer.step(Math.min(left, trainer.max_steps_per_call));
    const { weights } = trainer.attentionMaps({ sample });
    const rows = Array.from({ length: n_heads }, (_, h) => Array.from(weights.subarray((h * seq_len + query_index) * seq_len, (h * seq_len + query_index + 1) * seq_len)));
    return { rows, focus: trainer.evaluate({ samples: 200 }).focus };
  } finally {
    trainer.delete();
  }
};

export const handlers = {
  /** { calls: [{ op, args }] } → { results }: one result per call, in order. */
  async solve({ calls }, side, post) {
    if (!Array.isArray(calls) || !calls.length) throw new Error('an exercise asks for at least one core call');
    const withLabs = calls.some((call) => LAB_CALLS.has(call?.op)) ? { ...side, attn: await side.labs() } : side;
    const results = calls.map(({ op, args } = {}) => {
      if (ENGINE_CALLS.has(op)) return withLabs.attn[op](args ?? {});
      if (Object.hasOwn(OPS, op)) return OPS[op](args ?? {}, withLabs, post);
      throw new Error(`an exercise asked the core for '${op}', which it does not answer`);
    });
    return { results };
  },
};
