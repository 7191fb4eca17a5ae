// Reading and grading a sketched attention row (issue 36's `sketch` kind): the learner draws the weights
// they expect for one query over its keys; the session normalises them to sum to 1 and compares them
// with the engine's row by total-variation distance, TV(p, q) = ½·Σ|p_j − q_j| (0: the same row, 1: no
// overlap), against the threshold the prompt states. Pure, no DOM.

/** Total-variation distance between two rows of weights of the same length. */
export function totalVariation(p, q) {
  let sum = 0;
  for (let j = 0; j < p.length; j++) sum += Math.abs(p[j] - q[j]);
  return sum / 2;
}

/**
 * A sketch ([w_0, …, w_{n−1}] or "0.1, 0.7, …": n non-negative finite heights, not all 0) → the row
 * normalised to sum to 1, or throws naming the problem.
 */
export function parseSketch(value, n, id) {
  const list = Array.isArray(value) || ArrayBuffer.isView(value) ? Array.from(value)
    : String(value ?? '').trim().replace(/^[[(]\s*|\s*[\])]$/g, '').split(/\s*[,;]\s*|\s+/).filter(Boolean).map(Number);
  if (list.length !== n) throw new Error(`${id} expects ${n} weights (one per key), got ${list.length}`);
  const bad = list.findIndex((w) => typeof w !== 'number' || !Number.isFinite(w) || w < 0);
  if (bad >= 0) throw new Error(`${id}: weight ${bad} is not a non-negative number (got “${String(list[bad]).slice(0, 20)}”)`);
  const total = list.reduce((s, w) => s + w, 0);
  if (!(total > 0)) throw new Error(`${id}: the weights are all 0; draw at least one bar`);
  return list.map((w) => w / total);
}

/** Whether a normalised sketch is within the instance's threshold of the engine's row (the edge included). */
export const sketchMatches = (instance, given, expected) => totalVariation(given, expected) <= instance.threshold + 1e-12;
