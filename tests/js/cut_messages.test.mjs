// Messages that quote a typed value cut it on a code-point boundary (schema.js's cutText): cut
// at a fixed UTF-16 position, a value of 19 'y' and an emoji left half the emoji, a lone
// surrogate, in the note or error (which then cannot go into a link or be encoded as UTF-8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { defaults } from '../../web/src/model/schema.js';
import { parseWorkers, validate } from '../../web/src/model/validate.js';
import { parseInteger } from '../../web/src/model/parse.js';
import { parseTraining } from '../../web/src/model/training_settings.js';

const attn = modules.simd;
const EMOJI = '😀'; // two UTF-16 units

/** The index of the first lone surrogate of text, or −1; checked unit by unit, not with isWellFormed. */
function loneSurrogate(text) {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1); // NaN past the end
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

test('the checker finds lone surrogates (a check of the test itself)', () => {
  assert.equal(loneSurrogate(`ab${EMOJI}c`), -1);
  assert.equal(loneSurrogate(`ab${EMOJI}`.slice(0, 3)), 2);
  assert.equal(loneSurrogate(`a${EMOJI.slice(1)}`), 1);
});

/** Every message of a validate result: errors and notes. */
const messages = (check) => [...Object.values(check.errors), ...check.notes.map((n) => n.text)];

test('messages quoting a value hold no half emoji, wherever the value is cut', () => {
  const env = { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget, isa: attn.isa, cores: 4 };
  // A value with the emoji across each cut the messages use (20, 30 and 40 units).
  for (const before of [19, 29, 39]) {
    const value = 'y'.repeat(before) + EMOJI + 'zz';
    const state = { ...defaults(), item: value, head: value, workers: value, mask: value, colors: value, heads: value, source: 'random' };
    const check = validate(state, env);
    const all = messages(check);
    for (const key of ['item', 'head', 'mask', 'colors']) {
      assert.ok(all.some((m) => m.includes(key) && m.includes('yyyyyyyyy')), `a message about ${key} quotes the value (${before} y): ${JSON.stringify(all)}`);
    }
    for (const text of all) assert.equal(loneSurrogate(text), -1, `${JSON.stringify(text)} holds a lone surrogate`);
    const workers = parseWorkers(value, 4).note;
    assert.ok(workers.includes('yyyyyyyyy'), workers);
    assert.equal(loneSurrogate(workers), -1, workers);
    const heads = validate({ ...defaults(), heads: `${value},random` }, env).errors.heads;
    assert.ok(heads && heads.includes('yyyyyyyyy'), heads);
    assert.equal(loneSurrogate(heads), -1, heads);
    const int = parseInteger(value, { name: 'd_model' }).error;
    assert.equal(loneSurrogate(int), -1, int);
    for (const text of Object.values(parseTraining({ ...defaults(), train_d_model: value, train_task: value }).errors)) {
      assert.equal(loneSurrogate(text), -1, text);
    }
  }
});
