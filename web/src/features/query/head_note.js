// Plain words for two things a learner sees in a built head's trace and cannot explain alone: why most
// numbers of q are 0 (the construction uses only a few coordinates), and why a previous-token head's
// first rows still put weight somewhere (there is no previous token to find). The facts are the
// engine's: the head's pattern report (setHeadPatterns: pairs, word_dims, k) and the trace's numbers;
// this file only counts and words them.

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/query_stages.js';

/** The engine's report of how head `head` was built, or null (random, custom, trained, imported). */
export const patternOf = (result, head) => result?.patterns?.find((p) => p.head === head && p.pattern !== 'random') ?? null;

/** Why q has zeros, in words (null when it has none worth a word). */
export function zerosNote(pattern, q, head) {
  const d_k = q.length;
  let zeros = 0;
  for (const v of q) if (v === 0) zeros++;
  if (!zeros) return null;
  const who = { head: head + 1, d_k, zeros };
  if (pattern?.pattern === 'uniform' && zeros === d_k) return text('query.zeros.uniform', who);
  const pairs = pattern?.pairs ?? 0, s = pairs === 1 ? '' : 's';
  if ((pattern?.pattern === 'previous' || pattern?.pattern === 'first_token') && zeros === d_k - 2 * pairs) {
    const job = pattern.pattern === 'first_token' ? text('query.job.first') : pattern.k === 1 ? text('query.job.previous_1') : text('query.job.previous', { k: pattern.k });
    return text('query.zeros.positions', { ...who, job, used: 2 * pairs, pairs, s });
  }
  if (pattern?.pattern === 'same_word' && zeros === d_k - 2 * pairs - pattern.word_dims) {
    return text('query.zeros.words', { ...who, pairs, s, pairs2: 2 * pairs, word_dims: pattern.word_dims });
  }
  return text('query.zeros.other', who);
}

/**
 * A previous-token head's row for a query with no token k before it (query < k): what it does instead,
 * with the key that gets the most weight. Null for any other head or row.
 */
export function firstRowNote(pattern, t, { head, query, labels_q, labels_k, causal }) {
  if (pattern?.pattern !== 'previous' || query >= pattern.k || t.masked) return null;
  let best = 0;
  for (let j = 1; j < t.weights.length; j++) if (t.weights[j] > t.weights[best]) best = j;
  const word = (labels, j) => (labels ? ` “${labels[j]}”` : '');
  const values = {
    query, word: word(labels_q, query), none: pattern.k === 1 ? text('query.none_previous') : text('query.none_k', { k: pattern.k }), head: head + 1, pos: `${query - pattern.k}`.replace('-', '−'),
    best, bestWord: word(labels_k, best), weight: fmt.fixed(t.weights[best], 2),
  };
  return causal ? text('query.first_row_causal', values) : text('query.first_row', values);
}
