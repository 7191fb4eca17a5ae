// A token label fitted to its room in the heatmap (render/heatmap.js): the whole label when it fits,
// else the longest prefix that fits with "…". The label is capped at LABEL_MAX_CHARS code points first
// (no 12 px font fits more into 110 px) and the prefix found by binary search on its length, so a label
// of 100,000 characters costs about eight measurements of short texts, not one per removed character.

export const LABEL_MAX_CHARS = 64;

/** measure(text) → its width in px (the canvas's measureText(text).width). */
export function fitLabel(measure, label, width) {
  const s = String(label);
  // code points, from a slice long enough for LABEL_MAX_CHARS of them (a surrogate pair is never cut)
  const points = Array.from(s.length > 2 * LABEL_MAX_CHARS ? s.slice(0, 2 * LABEL_MAX_CHARS + 2) : s).slice(0, LABEL_MAX_CHARS + 1);
  const capped = points.length > LABEL_MAX_CHARS;
  if (!capped && measure(s) <= width) return s;
  const prefix = (n) => `${points.slice(0, n).join('')}…`;
  let lo = 1, hi = Math.min(points.length, LABEL_MAX_CHARS); // lo: kept even when nothing fits (as before)
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(prefix(mid)) <= width) lo = mid;
    else hi = mid - 1;
  }
  return prefix(lo);
}
