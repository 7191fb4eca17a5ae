// Inputs of a run (pure, no DOM; the page's worker and the Node tests share it): seeded random
// tensors, and sentences turned into tokens, each a seeded word embedding plus the sinusoidal
// positional encoding, so the heatmap axes can carry the words.

/** The token that fills a short sentence up to the longest one in the batch. */
export const PAD = '<pad>';

/** Splits a sentence into tokens: words (letters, digits, apostrophes, hyphens) and single punctuation marks. */
export function tokenize(line) {
  return String(line).match(/[\p{L}\p{N}'’-]+|[^\s\p{L}\p{N}]/gu) ?? [];
}

/** One token list per non-empty line: each line is one batch item. */
export function sentences(text) {
  return String(text).split(/\r?\n/).map(tokenize).filter((tokens) => tokens.length > 0);
}

/** 32-bit FNV-1a hash of a string: a word's identity, independent of where it appears. */
export function hashString(s) {
  let h = 0x811c9dc5;
  for (const ch of s) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A small seeded generator of uniform numbers in [0, 1): a 32-bit counter passed through an
 * integer mixer, so every seed gives an independent, reproducible stream in browsers and Node alike.
 */
export function uniformStream(seed) {
  let state = (Math.floor(Number(seed)) ^ 0x9e3779b9) >>> 0;
  state = (state + Math.imul((Number(seed) / 2 ** 32) >>> 0, 0x85ebca6b)) >>> 0; // seeds above 2^32 still differ
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fills `out` with N(0, 1) samples from `uniform` (Box–Muller, both values of each pair used). */
export function fillNormal(out, uniform) {
  for (let i = 0; i < out.length; i += 2) {
    const u1 = 1 - uniform(); // in (0, 1]: log stays finite
    const r = Math.sqrt(-2 * Math.log(u1));
    const t = 2 * Math.PI * uniform();
    out[i] = r * Math.cos(t);
    if (i + 1 < out.length) out[i + 1] = r * Math.sin(t);
  }
  return out;
}

/** A Float32Array of `count` N(0, 1) values from `seed`. */
export function randomNormal(seed, count) {
  return fillNormal(new Float32Array(count), uniformStream(seed));
}

/**
 * The embedding of a word: d_model N(0, 1) values seeded by (word, seed). Case is ignored so
 * "The" and "the" are the same token, as they would be after a lower-casing tokenizer.
 */
export function wordEmbedding(word, d_model, seed) {
  const key = hashString(word.toLowerCase());
  return randomNormal((key ^ Math.imul(Math.floor(Number(seed)) >>> 0, 0x27d4eb2d)) >>> 0, d_model);
}

/**
 * Embeds a batch of sentences as [batch, n, d_model]: word embedding + positional encoding.
 * Sentences shorter than n are filled with PAD tokens (embedded like any word). `pe` is the
 * positional encoding [n, d_model] (attn.positionalEncoding in the page).
 */
export function embedSentences(batchTokens, n, d_model, seed, pe) {
  if (pe.length !== n * d_model) throw new Error(`positional encoding has ${pe.length} values, expected n×d_model = ${n}×${d_model}`);
  const out = new Float32Array(batchTokens.length * n * d_model);
  const cache = new Map();
  batchTokens.forEach((tokens, b) => {
    for (let pos = 0; pos < n; pos++) {
      const word = pos < tokens.length ? tokens[pos] : PAD;
      const lower = word.toLowerCase();
      if (!cache.has(lower)) cache.set(lower, wordEmbedding(word, d_model, seed));
      const e = cache.get(lower);
      const row = (b * n + pos) * d_model;
      for (let c = 0; c < d_model; c++) out[row + c] = e[c] + pe[pos * d_model + c];
    }
  });
  return out;
}

/** Token labels of one batch item, PAD-filled to n. */
export function labelsFor(tokens, n) {
  return Array.from({ length: n }, (_, i) => (i < tokens.length ? tokens[i] : PAD));
}

/**
 * Builds the tensors of a run from a validated config (see validate.js):
 * { query [batch, n_q, d_model], memory [batch, n_k, d_model] or null for self-attention,
 *   labels_q, labels_k (per batch item, or null for random inputs) }.
 * Cross-attention uses one encoder `memory` as both key and value, as a decoder does.
 * `positionalEncoding({ n, d_model })` is only called for sentences.
 */
export function buildInputs(config, positionalEncoding) {
  const { batch, n_q, n_k, d_model, cross, source, input_seed } = config;
  if (source === 'text') {
    const query = embedSentences(config.tokens_q, n_q, d_model, input_seed, positionalEncoding({ n: n_q, d_model }));
    const memory = cross
      ? embedSentences(config.tokens_kv, n_k, d_model, input_seed, positionalEncoding({ n: n_k, d_model }))
      : null;
    return {
      query, memory,
      labels_q: config.tokens_q.map((t) => labelsFor(t, n_q)),
      labels_k: (cross ? config.tokens_kv : config.tokens_q).map((t) => labelsFor(t, n_k)),
    };
  }
  // Separate streams for the decoder-side query and the encoder-side memory.
  const query = randomNormal(input_seed * 2, batch * n_q * d_model);
  const memory = cross ? randomNormal(input_seed * 2 + 1, batch * n_k * d_model) : null;
  return { query, memory, labels_q: null, labels_k: null };
}

/** The mask argument of mha.forward for a validated config. */
export function maskArgument(config) {
  const causal = config.mask === 'causal' || config.mask === 'causal+padding';
  const padding = config.mask === 'padding' || config.mask === 'causal+padding';
  if (!padding) return causal ? 'causal' : 'none';
  return causal ? { causal: true, padding: config.padding.slice() } : { padding: config.padding.slice() };
}
