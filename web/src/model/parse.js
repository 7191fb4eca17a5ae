// Readers of one form field as typed (pure: imports only the number format and cutText): a whole number or a
// decimal in a range, { value } or { error }. A leaf module, so that validate.js and training.js
// both use them without importing each other.

import * as fmt from './format.js';
import { cutText } from './schema.js';

/** Parses a whole number in [min, max]; returns { value } or { error }. Accepts "1,024" and "1 024". */
export function parseInteger(raw, { min = 1, max = 2 ** 31 - 1, name } = {}) {
  const s = String(raw ?? '').trim().replace(/[,_\s](?=\d{3})/g, '');
  if (s === '') return { error: `${name} is required` };
  if (!/^[+-]?\d+$/.test(s)) {
    return { error: /^[+-]?\d*\.\d+$/.test(s) ? `${name} must be a whole number, not ${s}` : `${name} must be a whole number, not “${cutText(String(raw), 40)}”` };
  }
  const value = Number(s);
  if (value < min) return { error: `${name} must be at least ${fmt.int(min)}${min === 1 && value === 0 ? ' (0 would leave nothing to compute)' : ''}` };
  if (value > max) return { error: `${name} can be at most ${fmt.int(max)}` };
  return { value };
}

/** Parses a decimal number in [min, maxExclusive). */
export function parseDecimal(raw, { min, maxExclusive, name }) {
  const s = String(raw ?? '').trim();
  if (s === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return { error: `${name} must be a number, not “${cutText(String(raw), 40)}”` };
  const value = Number(s);
  if (value < min || value >= maxExclusive) return { error: `${name} must be at least ${min} and below ${maxExclusive}, not ${s}` };
  return { value };
}
