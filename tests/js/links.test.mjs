// A link's values are cut at 2,000 UTF-16 units (issue 23, item 5): the cut never splits an emoji (a
// surrogate pair), so the next toHash cannot throw URIError; and toHash never throws even for a value
// that already holds a lone surrogate (an attribute or setState can pass one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHash, toHash, withChanges, defaults, cutText } from '../../web/src/model/schema.js';

const STRADDLING = `${'a'.repeat(1999)}😀 tail`; // the emoji's halves are units 2,000 and 2,001

test('a link value cut at the limit inside an emoji drops the whole emoji, and the view still writes a link', () => {
  const { state, ignored } = parseHash(`#text=${encodeURIComponent(STRADDLING)}`);
  assert.deepEqual(ignored, []);
  assert.equal(state.text, 'a'.repeat(1999));
  const hash = toHash(withChanges(state, { d_model: '32' }));
  assert.equal(parseHash(hash).state.text, 'a'.repeat(1999));
  assert.equal(parseHash(hash).state.d_model, '32');
});

test('a value set by an attribute or setState is cut the same way (fieldValue)', () => {
  const state = withChanges(defaults(), { text: STRADDLING });
  assert.equal(state.text, 'a'.repeat(1999));
  assert.doesNotThrow(() => toHash(state));
  // An emoji that ends exactly at the limit is kept whole.
  const fits = `${'a'.repeat(1998)}😀 tail`;
  assert.equal(withChanges(defaults(), { text: fits }).text, `${'a'.repeat(1998)}😀`);
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
