// The previous-token head's first row, in numbers: the first query has no token before it, yet its row of
// weights must sum to 1, so it lands somewhere; this finds where (the largest weight of that row, read off
// the engine's map), for the sentence under the map (heatmaps' list of jobs, the derivation's head maps).

/**
 * { first, word, weight } for head `head` of `result` (its drawn item) when that head was built to look at
 * the previous token and its first row reads more than one key; null otherwise (a causal mask leaves the
 * first query one key, a downsampled map has no single first query, words are needed to say it).
 */
export function firstRowOfPrevious(result, head) {
  const item = result?.item, config = result?.config;
  if (!item || config?.heads?.[head] !== 'previous' || item.rowStep !== 1 || item.colStep !== 1 || !item.labels_k || !item.labels_q) return null;
  const cols = item.cols, row = item.data.subarray(head * item.rows * cols, head * item.rows * cols + cols);
  let open = 0, best = 0;
  for (let j = 0; j < cols; j++) {
    if (item.masked[j]) continue;
    open += 1;
    if (row[j] > row[best] || item.masked[best]) best = j;
  }
  if (open < 2) return null;
  return { first: item.labels_q[0], word: item.labels_k[best], weight: row[best], key: best };
}
