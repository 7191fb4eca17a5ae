// Inputs of a run (no DOM; the page's worker and the Node tests share it): sentences split into
// tokens here, and the numbers from the engine, which owns their rules: each token a seeded
// word embedding plus the sinusoidal positional encoding (attn.embedTokens), random inputs from
// the same seeded generator (attn.randomNormal). The heatmap axes carry the words.

import { forwardInputLengths } from '../engine/result_sizes.js';

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

/** Token labels of one batch item, PAD-filled to n. */
export function labelsFor(tokens, n) {
  return Array.from({ length: n }, (_, i) => (i < tokens.length ? tokens[i] : PAD));
}

/** Each sentence PAD-filled to n tokens: the rows of words attn.embedTokens takes. */
function paddedRows(batchTokens, n) {
  return batchTokens.map((tokens) => labelsFor(tokens, n));
}

/**
 * Builds the tensors of a run from a validated config (see validate.js) with the engine `attn`
 * (loadAttention's API): { query [batch, n_q, d_model], memory [batch, n_k, d_model] or null
 * for self-attention, labels_q, labels_k (per batch item, or null for random inputs) }.
 * Cross-attention uses one encoder `memory` as both key and value, as a decoder does.
 */
export function buildInputs(config, attn) {
  const { batch, n_q, n_k, d_model, cross, source, input_seed } = config;
  if (source === 'text') {
    const labels_q = paddedRows(config.tokens_q, n_q);
    const labels_k = paddedRows(cross ? config.tokens_kv : config.tokens_q, n_k);
    const query = attn.embedTokens({ words: labels_q, d_model, seed: input_seed });
    const memory = cross ? attn.embedTokens({ words: labels_k, d_model, seed: input_seed }) : null;
    return { query, memory, labels_q, labels_k };
  }
  // Separate streams for the decoder-side query and the encoder-side memory.
  const lengths = forwardInputLengths({ batch, n_q, n_k, d_model }); // [batch, n_q or n_k, d_model]: the engine's count
  const query = attn.randomNormal({ seed: input_seed * 2, count: lengths.query });
  const memory = cross ? attn.randomNormal({ seed: input_seed * 2 + 1, count: lengths.key }) : null;
  return { query, memory, labels_q: null, labels_k: null };
}

/** The mask argument of mha.forward for a validated config (with sparseArguments for sliding and strided). */
export function maskArgument(config) {
  if (config.mask === 'sliding' || config.mask === 'strided') return config.mask;
  const causal = config.mask === 'causal' || config.mask === 'causal+padding';
  const padding = config.mask === 'padding' || config.mask === 'causal+padding';
  if (!padding) return causal ? 'causal' : 'none';
  return causal ? { causal: true, padding: config.padding.slice() } : { padding: config.padding.slice() };
}

/** The window or stride that goes with mask 'sliding' or 'strided' ({} for the other masks). */
export function sparseArguments(config) {
  if (config.mask === 'sliding') return { window: config.window };
  if (config.mask === 'strided') return { stride: config.stride };
  return {};
}
