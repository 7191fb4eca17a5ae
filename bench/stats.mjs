// Small measuring helpers shared by the benchmark files: a monotonic clock and the median.

/** Milliseconds from a monotonic clock (performance.now is sub-millisecond in Node). */
export const now = () => performance.now();

/** Median: robust to the odd slow run caused by GC or the other process on a 2-core machine. */
export function median(xs) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
