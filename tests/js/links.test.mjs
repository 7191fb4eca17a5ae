// A link's values are cut at 2,000 UTF-16 units (issue 23, item 5), the sentences (text, text_kv) at
// 2^18, far past their own limits of 64 lines of 256 tokens (a hostile probe: 50 lines of 45 characters
// were cut at 2,000 without a word); the cut never splits an emoji (a surrogate pair), so the next toHash
// cannot throw URIError; and toHash never throws even for a value that already holds a lone surrogate
// (an attribute or setState can pass one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHash, toHash, withChanges, defaults, cutText } from '../../web/src/model/schema.js';

const STRADDLING = `${'a'.repeat(1999)}😀 tail`; // the emoji's halves are units 2,000 and 2,001

test('a link value cut at the limit inside an emoji drops the whole emoji, and the view still writes a link', () => {
  const { state, ignored } = parseHash(`#label=${encodeURIComponent(STRADDLING)}`);
  assert.deepEqual(ignored, []);
  assert.equal(state.label, 'a'.repeat(1999));
  const hash = toHash(withChanges(state, { d_model: '32' }));
  assert.equal(parseHash(hash).state.label, 'a'.repeat(1999));
  assert.equal(parseHash(hash).state.d_model, '32');
});

test('a value set by an attribute or setState is cut the same way (fieldValue)', () => {
  const state = withChanges(defaults(), { label: STRADDLING });
  assert.equal(state.label, 'a'.repeat(1999));
  assert.doesNotThrow(() => toHash(state));
  // An emoji that ends exactly at the limit is kept whole.
  const fits = `${'a'.repeat(1998)}😀 tail`;
  assert.equal(withChanges(defaults(), { label: fits }).label, `${'a'.repeat(1998)}😀`);
});

test('a sentence keeps everything its own limits allow (64 lines of 256 tokens), and is cut only past 2^18 units', () => {
  const lines = Array.from({ length: 64 }, (_, i) => Array.from({ length: 256 }, (_, j) => `w${i}x${j}`).join(' ')).join('\n');
  assert.ok(lines.length > 2000);
  assert.equal(withChanges(defaults(), { text: lines }).text, lines, 'an attribute or setState');
  assert.equal(parseHash(`#text_kv=${encodeURIComponent(lines)}`).state.text_kv, lines, 'a link');
  const straddling = `${'a'.repeat((1 << 18) - 1)}😀 tail`;
  assert.equal(withChanges(defaults(), { text: straddling }).text, 'a'.repeat((1 << 18) - 1));
  assert.equal(parseHash(`#text=${encodeURIComponent(straddling)}`).state.text, 'a'.repeat((1 << 18) - 1));
});

test('cutText counts UTF-16 units and never ends on half a pair', () => {
  assert.equal(cutText('😀😀', 3), '😀');
  assert.equal(cutText('😀😀', 4), '😀😀');
  assert.equal(cutText('ab', 5), 'ab');
  assert.equal(cutText('a😀', 2), 'a');
});

test('toHash writes a lone surrogate as U+FFFD instead of throwing URIError', () => {
  const hash = toHash({ ...defaults(), text: 'x\ud83d' });
  assert.equal(parseHash(hash).state.text, 'x\ufffd');
});
