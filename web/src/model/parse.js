// Readers of one form field as typed (pure: imports only the number format, cutText and the words of
// lesson/panels/validation.js): a whole number or a decimal in a range, { value } or { error }. A leaf
// module, so that validate.js and training.js both use them without importing each other.

import * as fmt from './format.js';
import { cutText } from './schema.js';
import { text } from '../lesson/panels/validation.js';

/** Parses a whole number in [min, max]; returns { value } or { error }. Accepts "1,024" and "1 024". */
export function parseInteger(raw, { min = 1, max = 2 ** 31 - 1, name } = {}) {
  const s = String(raw ?? '').trim().replace(/[,_\s](?=\d{3})/g, '');
  if (s === '') return { error: text('validation.required', { name }) };
  if (!/^[+-]?\d+$/.test(s)) {
    return { error: /^[+-]?\d*\.\d+$/.test(s) ? text('validation.whole_number', { name, typed: s }) : text('validation.whole_number_quoted', { name, typed: cutText(String(raw), 40) }) };
  }
  const value = Number(s);
  if (value < min) return { error: text('validation.at_least', { name, min: fmt.int(min), why: min === 1 && value === 0 ? text('validation.zero_leaves_nothing') : '' }) };
  if (value > max) return { error: text('validation.at_most', { name, max: fmt.int(max) }) };
  return { value };
}

/** Parses a decimal number in [min, maxExclusive). */
export function parseDecimal(raw, { min, maxExclusive, name }) {
  const s = String(raw ?? '').trim();
  if (s === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return { error: text('validation.number', { name, typed: cutText(String(raw), 40) }) };
  const value = Number(s);
  if (value < min || value >= maxExclusive) return { error: text('validation.decimal_range', { name, min, max: maxExclusive, typed: s }) };
  return { value };
}
