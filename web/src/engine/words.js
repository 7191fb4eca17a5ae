// Words for the engine: rows of tokens (the page's sentences, one row per batch item) checked
// and written as one Int32Array of Unicode code points, each word ended by −1, because strings
// never cross into C++ (see the binding pattern in cpp/bindings/embind.cpp). Words are
// lower-cased first, as the page's embeddings treat "The" and "the" as one word.
import { describe, plainArray } from './checks.js';
import { Int32ArrayOf, codePointAt, lowerCase } from './intrinsics.js';

/** Strings (already checked) as their code points, each string ended by −1. */
export function codePoints(strings) {
  const codes = [];
  for (let s = 0; s < strings.length; s++) {
    const text = strings[s];
    for (let i = 0; i < text.length;) {
      const cp = codePointAt(text, i);
      codes[codes.length] = cp;
      i += cp > 0xffff ? 2 : 1;
    }
    codes[codes.length] = -1;
  }
  const out = new Int32ArrayOf(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = codes[i];
  return out;
}

/**
 * Checks `value` as rows of words (arrays of strings, every row as long as the first) and
 * returns { rows, n, codes }: the number of rows, the words per row, and the lower-cased
 * words' code points, row after row.
 */
export function wordRows(name, value) {
  const rows = plainArray(name, value, 'rows of words (one array of strings per batch item)');
  if (rows.length === 0) throw new Error(`${name} needs at least one row of words`);
  const words = [];
  let n = 0;
  rows.forEach((row, b) => {
    const copy = plainArray(`${name}[${b}]`, row, 'words (strings)');
    if (b === 0) n = copy.length;
    if (copy.length === 0) throw new Error(`${name}[${b}] has no words`);
    if (copy.length !== n) {
      throw new Error(`${name}[${b}] has ${copy.length} words, ${name}[0] has ${n}: fill short rows with '<pad>'`);
    }
    copy.forEach((w, i) => {
      if (typeof w !== 'string') throw new Error(`${name}[${b}][${i}] must be a string, got ${describe(w)}`);
      words[words.length] = lowerCase(w);
    });
  });
  return { rows: rows.length, n, codes: codePoints(words) };
}
