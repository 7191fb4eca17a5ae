// model/format.js writes numbers without Intl.NumberFormat (whose first use loads the locale data and
// cost a cold first view 15-25 ms); its output must still be en-US's, digit for digit. Reference:
// Intl.NumberFormat('en-US') itself, over the edge cases of rounding (ties, carries through 9s, numbers
// that round to 0, negative zero), huge and tiny magnitudes, and random values at every precision used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fmt from '../../web/src/model/format.js';

const EDGES = [0, -0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.4, 0.6, 999, 999.5, 9999.5, 99999.99999, 1000, -1000, 123456789,
  1e21, 1.5e21, 2 ** 70, -(2 ** 70), 1e300, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, 2 ** 53 + 2,
  4503599627370495.5, 0.49999999999999994, -0.4, 0.125, 0.375, 1.005, -1.005, 2.675, 9.995, -9.995, 0.999, 0.9999,
  9.9999, 0.0001, -0.0001, 0.0005, 0.00049, 0.0006, 0.00006, 1e-7, 0.1 + 0.2, 1e20 + 0.5, 12345.678];

/** A deterministic stream of values of every magnitude, some of them exact ties at `digits` decimals. */
function* samples(digits, count) {
  let state = 12345 + digits;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let k = 0; k < count; k++) {
    let v = (next() - 0.5) * 10 ** (Math.floor(next() * 50) - 25);
    if (k % 3 === 0) v = Math.round(v * 1000) / 1000;
    if (k % 5 === 0) v = Math.round(v);
    if (k % 7 === 0) v = Math.round(v * 10 ** digits) / 10 ** digits + Math.sign(v) * 5 * 10 ** -(digits + 1);
    yield v;
  }
}

/** The first few values where `ours` and Intl differ, as "value: ours ≠ Intl" lines. */
function differences(values, ours, reference) {
  const out = [];
  for (const v of values) {
    const a = ours(v), b = reference(v);
    if (a !== b && out.length < 10) out.push(`${v}: ${a} ≠ ${b}`);
  }
  return out;
}

test('int() writes what Intl.NumberFormat(en-US) writes for the rounded number', () => {
  const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const values = [...EDGES, Infinity, -Infinity, NaN, ...samples(0, 20000)];
  assert.deepEqual(differences(values, fmt.int, (v) => intl.format(Math.round(v))), []);
});

test('num(x, digits) writes what Intl.NumberFormat(en-US, at most `digits` decimals) writes', () => {
  for (let digits = 0; digits <= 12; digits++) {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
    const values = [...EDGES, ...samples(digits, 20000)];
    assert.deepEqual(differences(values, (v) => fmt.num(v, digits), (v) => intl.format(v)), [], `digits ${digits}`);
  }
});

test('the cases a reader sees: separators, ties away from zero, carries, no trailing zeros', () => {
  assert.equal(fmt.int(1048576), '1,048,576');
  assert.equal(fmt.num(-2.5, 0), '-3'); // a tie goes away from zero (int() rounds with Math.round first, as it always did)
  assert.equal(fmt.num(1.005, 2), '1.01'); // the decimal the reader typed, not the double's 1.00499…
  assert.equal(fmt.num(9.995, 2), '10');
  assert.equal(fmt.num(999999.96, 1), '1,000,000');
  assert.equal(fmt.num(0.00049, 3), '0');
  assert.equal(fmt.num(-0.0001, 3), '-0');
  assert.equal(fmt.num(2 ** 70, 0), '1,180,591,620,717,411,300,000');
  assert.equal(fmt.num(NaN), 'NaN');
  assert.equal(fmt.int(Infinity), '∞');
  assert.equal(fmt.bytes(16777216), '16,777,216 B (16.8 MB)');
});
