// The README promises Chromium 95, Firefox 100 and Safari 15.2 (make_dist targets chrome100,
// firefox100, safari16): the page's code must not need String.prototype.toWellFormed or
// isWellFormed (Chrome 111, Safari 16.4), nor a regex lookbehind, which Safari before 16.4
// cannot even parse, so the whole module holding it fails to load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsFiles } from './source_files.mjs';
import { defaults, parseHash, toHash } from '../../web/src/model/schema.js';
import { pythonString, snippets } from '../../web/src/page/snippets.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs fn with String.prototype.toWellFormed and isWellFormed removed, as in an older browser. */
function withoutWellFormed(fn) {
  const saved = {};
  for (const name of ['toWellFormed', 'isWellFormed']) {
    saved[name] = Object.getOwnPropertyDescriptor(String.prototype, name);
    delete String.prototype[name];
  }
  try {
    return fn();
  } finally {
    for (const [name, descriptor] of Object.entries(saved)) if (descriptor) Object.defineProperty(String.prototype, name, descriptor);
  }
}

test('toHash and the snippets work without String.prototype.toWellFormed', () => {
  const state = { ...defaults(), text: 'a\ud800b😀c\udc00' }; // a lone high, a pair, a lone low
  const { hash, python, all } = withoutWellFormed(() => {
    assert.equal(typeof ''.toWellFormed, 'undefined', 'removed for the test');
    const all = snippets(state, { base: 'https://course.invalid/play/' });
    return { hash: toHash(state), python: pythonString(state.text), all };
  });
  assert.equal(typeof ''.toWellFormed, 'function', 'restored after the test');
  // Lone surrogates become U+FFFD, the pair stays.
  assert.equal(parseHash(hash).state.text, 'a\ufffdb😀c\ufffd');
  assert.equal(python, '"a\\ud800b😀c\\udc00"');
  assert.ok(all.python.includes('"a\\ud800b😀c\\udc00"'), 'the Python snippet holds the text with its lone surrogates escaped');
  assert.ok(all.permalink.includes('a%EF%BF%BDb'), 'the permalink writes the lone surrogate as U+FFFD');
});


// A lookbehind is (?<= or (?<! ; a named group (?<name> is older (Safari 11.1) and allowed.
const TOO_NEW = [['a regex lookbehind', /\(\?<[=!]/], ['String.prototype.toWellFormed / isWellFormed', /\b(to|is)WellFormed\b/]];

test('no regex lookbehind and no toWellFormed in web/src or in the built dist/*.js', () => {
  assert.ok(existsSync(join(ROOT, 'dist')), 'dist/ is built (bash scripts/build.sh dist)');
  const built = jsFiles(join(ROOT, 'dist')).filter((path) => !path.includes('/vendor/'));
  assert.ok(built.some((path) => path.endsWith('attention-playground.js')), 'the element bundle is there');
  for (const path of [...jsFiles(join(ROOT, 'web/src')), ...built]) {
    const text = readFileSync(path, 'utf8');
    for (const [what, pattern] of TOO_NEW) assert.ok(!pattern.test(text), `${path.slice(ROOT.length)} uses ${what}`);
  }
});
