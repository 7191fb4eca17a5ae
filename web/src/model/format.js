// Number formatting shared by every panel (pure, no DOM): thousands separators, bytes, FLOP counts,
// durations and tensor shapes, always in the same style so figures can be compared at a glance.

// Written out rather than with Intl.NumberFormat: the first formatter a page makes loads the browser's
// locale data: 20-32 ms in a fresh tab, all of it before a cold first view could draw anything (a CPU
// profile put it on the line `new Intl.NumberFormat`). The output is en-US's, digit for digit:
// tests/js/format.test.mjs compares it with Intl.NumberFormat('en-US') over edge cases and random values.

/** Digits of a whole, non-negative decimal string with a comma between thousands: "1048576" → "1,048,576". */
function grouped(digits) {
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let at = out.length; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`;
  return out;
}

/**
 * x (finite) with at most `digits` decimals and a comma between thousands, as en-US writes it: the
 * shortest decimal that reads back as x (what String(x) shows, 1.005 and not 1.00499999…) rounded half
 * away from zero, trailing zeros dropped, "-" before a negative number even when it rounds to 0.
 */
function decimal(x, digits) {
  const negative = x < 0 || Object.is(x, -0);
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e');
  let figures = mantissa.replace('.', ''); // the significant digits, the first one before the point
  let point = Number(exponent) + 1; // how many of them stand before the decimal point
  const keep = point + digits; // significant digits kept
  if (keep < 0) figures = '0';
  else if (keep < figures.length) {
    const up = figures[keep] >= '5';
    figures = figures.slice(0, keep);
    if (up) {
      // Add one in the last place kept: trailing 9s become 0s; all 9s (or none kept) gain a digit in front.
      const last = figures.search(/9*$/) - 1;
      if (last < 0) point += 1;
      figures = `${last < 0 ? '1' : figures.slice(0, last) + (Number(figures[last]) + 1)}${'0'.repeat(figures.length - last - 1)}`;
    }
  }
  const whole = point <= 0 ? '0' : figures.slice(0, point).padEnd(point, '0');
  const fraction = (point < 0 ? '0'.repeat(-point) + figures : figures.slice(point)).slice(0, digits).replace(/0+$/, '');
  return `${negative ? '-' : ''}${grouped(whole)}${fraction ? `.${fraction}` : ''}`;
}

/** Infinity and NaN as en-US writes them. */
function notFinite(x) {
  return Number.isNaN(x) ? 'NaN' : x > 0 ? '∞' : '-∞';
}

/** A whole number with thousands separators: 1048576 → "1,048,576". */
export function int(n) {
  const r = Math.round(n);
  return Number.isFinite(r) ? decimal(r, 0) : notFinite(r);
}

/** A number with at most `digits` decimals and thousands separators. */
export function num(x, digits = 3) {
  if (!Number.isFinite(x)) return String(x);
  return decimal(x, digits);
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
