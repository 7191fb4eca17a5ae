// Agreement check between systems: max |a − b| relative to max |reference|, with a hard limit, so a
// timing is never reported for a system that computes something else.

export const TOLERANCE = 1e-4;

function maxAbs(a) {
  let m = 0;
  for (let i = 0; i < a.length; i++) { const v = Math.abs(a[i]); if (v > m) m = v; }
  return m;
}

/** Relative max difference; NaN anywhere counts as a mismatch (NaN comparisons are false). */
export function relativeDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    const x = Math.abs(a[i] - b[i]);
    if (!(x <= d)) d = Number.isNaN(x) ? Infinity : x;
  }
  const scale = Math.max(maxAbs(a), maxAbs(b));
  return scale === 0 ? d : d / scale;
}

/**
 * Every pair of outputs must agree (cheap: n×d_model each). Returns the worst relative diff;
 * throws with the case, the pair and the figure when it is over TOLERANCE.
 */
export function checkOutputsAgree(caseName, outputs /* Map<label, Float32Array> */) {
  const entries = [...outputs];
  let worst = 0;
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const rel = relativeDiff(entries[i][1], entries[j][1]);
      worst = Math.max(worst, rel);
      if (!(rel <= TOLERANCE)) {
        throw new Error(`${caseName}: outputs disagree: ${entries[i][0]} vs ${entries[j][0]}: ` +
          `max |diff| / max |output| = ${rel.toExponential(3)} > ${TOLERANCE}`);
      }
    }
  }
  return worst;
}

/** Attention weights ([batch, n_heads, n_q, n_k], up to 200 MB each) are checked against one reference. */
export function checkWeightsAgree(caseName, refLabel, ref, label, weights) {
  if (!weights) throw new Error(`${caseName}: ${label} returned no attention weights`);
  const rel = relativeDiff(ref, weights);
  if (!(rel <= TOLERANCE)) {
    throw new Error(`${caseName}: attention weights disagree: ${label} vs ${refLabel}: ` +
      `max |diff| / max |weight| = ${rel.toExponential(3)} > ${TOLERANCE}`);
  }
  return rel;
}
