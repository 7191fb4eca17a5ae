// Number formatting shared by every panel (pure, no DOM): thousands separators, bytes, FLOP counts,
// durations and tensor shapes, always in the same style so figures can be compared at a glance.

const EN = 'en-US';
// One Intl.NumberFormat per style, made once: toLocaleString(locale, options) builds a new formatter
// on every call, which cost the first view tens of milliseconds across the panels' numbers.
const INTEGER = new Intl.NumberFormat(EN, { maximumFractionDigits: 0 });
const DECIMALS = new Map(); // digits → formatter

/** A whole number with thousands separators: 1048576 → "1,048,576". */
export function int(n) {
  return INTEGER.format(Math.round(n));
}

/** A number with at most `digits` decimals and thousands separators. */
export function num(x, digits = 3) {
  if (!Number.isFinite(x)) return String(x);
  let formatter = DECIMALS.get(digits);
  if (!formatter) DECIMALS.set(digits, formatter = new Intl.NumberFormat(EN, { maximumFractionDigits: digits, minimumFractionDigits: 0 }));
  return formatter.format(x);
}

/** A value with a fixed number of decimals (for weights and outputs, so columns line up). */
export function fixed(x, digits = 4) {
  if (!Number.isFinite(x)) return String(x);
  const s = x.toFixed(digits);
  return s === `-${(0).toFixed(digits)}` ? (0).toFixed(digits) : s;
}

const SI = [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'k']];

/** The lesson's short style for big counts: 34359738368 → "34.4B" (B = billion). */
export function short(n) {
  for (const [size, suffix] of SI) {
    if (Math.abs(n) >= size) return `${num(n / size, 1)}${suffix}`;
  }
  return num(n, 1);
}

/** Bytes in decimal units, as the lesson writes them: 16777216 → "16.8 MB". */
export function bytesShort(n) {
  const units = [[1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'kB']];
  for (const [size, unit] of units) if (n >= size) return `${num(n / size, 1)} ${unit}`;
  return `${int(n)} B`;
}

/** Bytes in binary units (the memory budget is a power of two): 1073741824 → "1 GiB". */
export function bytesBinary(n) {
  const units = [[2 ** 40, 'TiB'], [2 ** 30, 'GiB'], [2 ** 20, 'MiB'], [2 ** 10, 'KiB']];
  for (const [size, unit] of units) if (n >= size) return `${num(n / size, 2)} ${unit}`;
  return `${int(n)} B`;
}

/** Exact bytes and the short form: "16,777,216 B (16.8 MB)". */
export function bytes(n) {
  return n >= 1000 ? `${int(n)} B (${bytesShort(n)})` : `${int(n)} B`;
}

/** A tensor shape: [1, 8, 64] → "1 × 8 × 64". */
export function dims(list) {
  return list.map(int).join(' × ');
}

/** A duration given in milliseconds: "3.2 µs", "0.42 ms", "12.3 ms", "1.24 s" (never a bare "0 ms" for a real time). */
export function duration(ms) {
  if (!Number.isFinite(ms)) return '—';
  if (ms > 0 && ms < 0.1) return `${num(ms * 1000, 1)} µs`;
  if (ms < 1) return `${num(ms, 2)} ms`;
  if (ms < 1000) return `${num(ms, 1)} ms`;
  return `${num(ms / 1000, 2)} s`;
}

/** A rate in GFLOP/s from FLOPs and milliseconds. */
export function gflops(flops, ms) {
  return ms > 0 ? flops / ms / 1e6 : NaN;
}

/** A percentage: 0.1234 → "12.3 %". */
export function percent(fraction) {
  if (!Number.isFinite(fraction)) return '—';
  if (fraction > 0 && fraction < 0.0005) return '< 0.1 %'; // "0 %" would read as nothing at all
  return `${num(fraction * 100, 1)} %`;
}

/** A share of the peak: "87 %"; above 100 % it says why (the peak was measured while the CPU was busy). */
export function percentOfPeak(fraction) {
  if (!Number.isFinite(fraction) || fraction <= 0) return '—';
  if (fraction > 1) return `${percent(fraction)}: above the peak measured here, so that measurement was too low (the CPU was busy)`;
  return percent(fraction);
}

/**
 * A rate given in GFLOP/s, in the unit that keeps three significant digits ("12.3 GFLOP/s", "84.1 MFLOP/s",
 * "950 kFLOP/s"), or a sentence when the time was too short to measure (never "NaN", never a false "0").
 */
export function rate(gflopsPerSecond) {
  if (!(Number.isFinite(gflopsPerSecond) && gflopsPerSecond > 0)) return 'too fast to time';
  const units = [[1, 'GFLOP/s'], [1e-3, 'MFLOP/s'], [1e-6, 'kFLOP/s'], [1e-9, 'FLOP/s']];
  const [size, unit] = units.find(([u]) => gflopsPerSecond >= u) ?? units[units.length - 1];
  const value = gflopsPerSecond / size;
  return `${num(value, value >= 100 ? 0 : value >= 10 ? 1 : 2)} ${unit}`;
}
