// The core is the only source of the lesson's rules (issues 22 and 34), checked on the syntax tree
// (core_rules_check.mjs, acorn) rather than on the text: outside web/src/engine/ no arithmetic over the
// lesson's dimension names (d_model / n_heads, n_heads * d_k, d_k % 2, Math.sqrt(d_k), n_heads > d_model),
// with no file excepted: shapes come from resolveView's tensors, and an exercise's other case ("twice this
// d_model") is data read by lesson/exercises/other_case.js, whose calls the checker allows with literals only;
// and nowhere, in the sources or in the built bundles of dist/, a deleted copy of a core rule: the word hash
// (FNV-1a), the page's random stream and Box–Muller (attn.embedTokens and attn.randomNormal make the inputs),
// the mask grid (attn.maskGrid), the query-head → key/value-head mapping (resolveView's kv_head_of),
// validate.js's copies of the dimension and n_kv_heads rules (resolveView), the gqa panel's divisors of
// n_heads and the pool's query heads per key/value head; and model/pool.js, whose name was the worker
// pool's, is gone (the heatmap downsampling is model/downsample.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';
import { full } from 'acorn-walk';
import { jsFiles } from './source_files.mjs';
import { dimensionArithmetic, ruleCopies } from './core_rules_check.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'web/src'), DIST = join(ROOT, 'dist');

/**
 * Arithmetic over dimension names the guard allows by file, each with its reason (a ratchet: each entry must
 * still be found, and nothing else may be). The tensor shapes of the export and the import, the lengths of
 * one head's map, √d_k, the head grid and the passes of compareHeads are the core's or the engine's answers,
 * and the exercises' other cases are data (lesson/exercises/other_case.js, issue 36).
 */
const KNOWN = {
  // The √d_k lab's work per update, d_k · keys · samples ≤ WORK multiply-adds: a budget of the page (how much it
  // asks the core for at once), not a rule of the sizes. Seen since a named number counts as that number.
  'features/sqrtdk/panel.js': ['d_k * MIN_SAMPLES'],
};

const sources = () => jsFiles(SRC).map((path) => [path.slice(SRC.length + 1).replaceAll('\\', '/'), readFileSync(path, 'utf8')]);
// Both checks of every file of web/src, each file parsed once for the two (core_rules_check keeps the last tree):
// [file, its arithmetic over dimension names (null under engine/, where the sizes' rules live), its rule copies].
let checked = null;
const checkedSources = () => (checked ??= sources().map(([file, text]) => [file, file.startsWith('engine/') ? null : dimensionArithmetic(text), ruleCopies(text)]));
const where = (file, f) => `web/src/${file}:${f.line} ${f.rule}: ${f.text}`;

test('the checker fails on planted rules: d_model / n_heads, d.n_heads / kvh, d_k % 2, Math.sqrt(view.d_k), n_heads > d_model', () => {
  const planted = [
    ['const d_k = d_model / n_heads;', 'd_model / n_heads'],
    ['const kvh = d.n_kv_heads ?? d.n_heads; const g = d.n_heads / kvh;', 'n_heads / n_kv_heads'],
    ['if (view.d_k % 2) bad();', '% over d_k'],
    ['const s = Math.sqrt(view.d_k);', 'Math.sqrt over d_k'],
    ['if (n_heads > d_model) bad();', 'n_heads > d_model'],
    ['const w = 4 * config.d_model ** 2;', '** over d_model'],
    ["const p = c['n_heads'] * c.d_k;", 'n_heads * d_k'],
    ['total += d_v * n_heads;', 'd_v * n_heads'],
    // The cases the ratchet held until the core answered them: they fail again if written back.
    ['const wq = [d_model, n_heads * d_k];', 'n_heads * d_k'], ['const rows = batch * n_q;', 'batch * n_q'],
    ['const cells = config.n_q * config.n_k;', 'n_q * n_k'], ['const at = Math.floor(r / n_q) % n_heads;', '% over n_heads'],
    ['const s = fmt.num(Math.sqrt(c.d_k), 3);', 'Math.sqrt over d_k'], ['for (let d = Math.floor(n_heads / 2); d > 1; d--) {}', '/ over n_heads'],
    ['const b = Math.ceil(sizes.n_k / 4);', '/ over n_k'], ['const passes = (config) => config.n_heads + 2;', '+ over n_heads'],
    ['const more = 2 * c.d_model;', '* over d_model'], ['const n_k = c.n_q + 3;', '+ over n_q'],
    // A number given a name is still the number (the flash panel's first key block was n_k / FIRST_KEY_TILES).
    ['const FIRST_KEY_TILES = 4;\nconst b = Math.ceil(sizes.n_k / FIRST_KEY_TILES);', '/ over n_k'],
  ];
  for (const [source, rule] of planted) {
    const found = dimensionArithmetic(source);
    assert.ok(found.some((f) => f.rule === rule), `${source}: expected “${rule}”, found ${JSON.stringify(found.map((f) => f.rule))}`);
  }
  // Not rules: text joined to a size, a loop index into a result, a display cap, one less than a count.
  for (const source of ["const t = 'd_model ' + d_model;", 'const at = (b * n_heads + h) * n_q;', 'const MAX_N = 128; const m = Math.min(n_q, MAX_N);',
    'let k = 4; k = 5; const at = k * n_q;', 'const ONE = 1; const n = n_q * ONE;',
    'const last = batch - 1;', 'if (n_kv_heads !== n_heads) grouped();']) {
    assert.deepEqual(dimensionArithmetic(source), [], source);
  }
});

test('an exercise\'s other case is data (otherCase with number literals); a computed change is a rule the checker finds', async () => {
  // Allowed: the what-if sizes of issue 36's exercises, as data the helper applies.
  for (const source of ["const w = otherCase(c, { d_model: { times: 2 }, d_k: { times: 2 } });",
    "const { n } = otherCase(c, { n: { from: 'n_q', plus: -2 } });"]) {
    assert.deepEqual(dimensionArithmetic(source), [], source);
  }
  // Planted: a size taken from another size, an expression, a variable, a spread, a `from` that is no dimension.
  for (const source of ["otherCase(c, { d_k: { times: c.n_heads } });", "otherCase(c, { d_k: { times: 1 / heads } });",
    'otherCase(c, { d_model: { times: k } });', 'otherCase(c, { ...more });', "otherCase(c, { n: { from: 'width', times: 2 } });",
    'otherCase(c, changes);', "otherCase(c, { d_k: { from: 'd_model', times: 2, per: 'n_heads' } });"]) {
    const found = dimensionArithmetic(source);
    assert.ok(found.some((f) => f.rule === 'otherCase with a computed change'), `${source}: found ${JSON.stringify(found.map((f) => f.rule))}`);
  }
  // Arithmetic inside a change is still arithmetic.
  assert.ok(dimensionArithmetic("otherCase(c, { d_k: { times: c.d_model / c.n_heads } });").some((f) => f.rule === 'd_model / n_heads'));
  // The helper applies exactly the data, and refuses what is not a whole-number case.
  const { otherCase } = await import('../../web/src/lesson/exercises/other_case.js');
  const c = Object.freeze({ d_model: 12, n_heads: 3, d_k: 4, n_q: 5, get tokens_q() { throw new Error('not a size: never read'); } });
  assert.deepEqual(otherCase(c, { d_model: { times: 2 }, n: { from: 'n_q', plus: 3 }, head: { from: 'n_heads', plus: -2 } }),
    { d_model: 24, n_heads: 3, d_k: 4, n_q: 5, n: 8, head: 1 });
  assert.equal(c.d_model, 12, 'the live case is left as it was');
  assert.throws(() => otherCase(c, { d_k: { times: 0.5, plus: 0.25 } }), /d_k = d_k × 0.5 \+ 0.25 = 2.25 is not a whole number/);
  assert.throws(() => otherCase(c, { d_k: { per: 2 } }), /d_k has per; a change takes from, times and plus/);
  assert.throws(() => otherCase(c, { d_v: { times: 2 } }), /d_v is taken from d_v, which the case does not hold as a number/);
  assert.throws(() => otherCase(c, { d_k: { times: '2' } }), /d_k's times must be a finite number, got 2/);
});

test('the checker finds every copy the old text guard found, in hex or as a minifier prints it', () => {
  const planted = [
    ['const h = 0x811c9dc5;', 'the FNV-1a word hash'], ['const p = 16777619;', 'the FNV-1a word hash'],
    ['let s = x + 0x6d2b79f5;', "the page stream's mixing constants"], ['s ^= 2246822507;', "the page stream's mixing constants"],
    ['const z = Math.sqrt(-2 * Math.log(u)) * c;', 'Box–Muller'],
    ['function maskGrid(config) {}', 'the mask grid'], ['function isMasked(i, j) {}', 'the mask grid'],
    ['const g = maskGrid(config, 1);', 'the mask grid'],
    ['const kv = Math.floor(h / (d.n_heads / d.n_kv_heads));', 'the query heads per key/value head'],
    ['const bad = n_heads % n;', 'the n_kv_heads divisor rule'], ['const bad = h % d.n_kv_heads;', 'the n_kv_heads divisor rule'],
    ['const perKv = 2;', 'the query heads per key/value head'], ['divisorsNear(8);', "validate.js's head-count rules"],
    ["put('n_kv_heads', 'n_heads must be a multiple of n_kv_heads');", "validate.js's head-count rules"],
    ['const m = `${x} is larger than d_model`;', "validate.js's head-count rules"],
  ];
  for (const [source, rule] of planted) {
    const found = ruleCopies(source);
    assert.ok(found.some((f) => f.rule === rule), `${source}: expected “${rule}”, found ${JSON.stringify(found.map((f) => f.rule))}`);
  }
  assert.deepEqual(ruleCopies('const grid = attn.maskGrid({ n_q, n_k }); const isMasked = grid[0] === 1;'), [], 'the engine\'s maskGrid, a local flag');
});

test('no arithmetic over the lesson\'s dimension names in web/src outside engine/ (but the known ones)', () => {
  const files = checkedSources();
  assert.ok(files.length > 40, `${files.length} source files read`);
  const left = Object.fromEntries(Object.entries(KNOWN).map(([file, texts]) => [file, [...texts]]));
  const unexpected = [];
  for (const [file, arithmetic] of files) {
    if (file.startsWith('engine/')) continue;
    for (const f of arithmetic) {
      const i = left[file]?.indexOf(f.text) ?? -1;
      if (i >= 0) left[file].splice(i, 1);
      else unexpected.push(where(file, f));
    }
  }
  assert.deepEqual(unexpected, [], 'a rule of the sizes in JavaScript: ask the core (resolveView, analyze: dims, derived, shapes)');
  const fixed = Object.entries(left).filter(([, texts]) => texts.length);
  assert.deepEqual(fixed, [], 'these known cases are gone: delete them from KNOWN');
});

test('no JavaScript copy of a core rule in web/src', () => {
  const found = checkedSources().flatMap(([file, , copies]) => copies.map((f) => where(file, f)));
  assert.deepEqual(found, [], 'ask the engine (attention.js)');
  // validate.js asks the engine for the rules of the sizes (resolveView, called on env).
  let asks = false;
  full(parse(readFileSync(join(SRC, 'model/validate.js'), 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' }), (node) => {
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && node.callee.object.name === 'env' &&
      node.callee.property.name === 'resolveView') asks = true;
  });
  assert.ok(asks, 'validate.js asks the engine for the rules (env.resolveView)');
});

test('the deleted modules and exports are gone', async () => {
  assert.equal(existsSync(join(SRC, 'model/pool.js')), false, 'model/pool.js is back (the heatmap downsampling is model/downsample.js)');
  const inputs = await import('../../web/src/model/inputs.js');
  for (const name of ['hashString', 'uniformStream', 'fillNormal', 'randomNormal', 'wordEmbedding', 'embedSentences']) {
    assert.equal(name in inputs, false, `model/inputs.js exports ${name} again`);
  }
  const downsample = await import('../../web/src/model/downsample.js');
  assert.deepEqual(Object.keys(downsample).sort(), ['MAX_SIDE', 'blockFor', 'downsampleHeads']);
  const validate = await import('../../web/src/model/validate.js');
  assert.equal('divisorsNear' in validate, false);
  assert.equal(['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'n_q', 'n_k', 'batch'].some((k) => k in validate.LIMITS), false,
    'validate.js has its own size limits again (the engine\'s win)');
});

test('no copy of a core rule in the built bundles of dist/', () => {
  assert.ok(existsSync(DIST), 'dist/ is built (bash scripts/build.sh dist)');
  const bundles = jsFiles(DIST).map((path) => [path, readFileSync(path, 'utf8')]).filter(([path]) => !path.includes('/vendor/') && !path.includes('/wasm/'));
  assert.ok(bundles.some(([path]) => path.endsWith('attention-playground.js')), 'the element bundle is there');
  for (const [path, text] of bundles) {
    // assert.deepEqual of a short list, not the bundle: a failure names the place without printing a whole bundle.
    assert.deepEqual(ruleCopies(text).map((f) => `${path.slice(ROOT.length)}:${f.line}:${f.column} ${f.rule}`), []);
  }
});

test('the gqa panel asks the core which n_kv_heads group, and the pool splits by the core\'s kv_head_of', async () => {
  const { variants } = await import('../../web/src/features/gqa/panel.js');
  const asked = [];
  // A core that accepts only 4 of 12 heads' candidates: the panel must take 4, not its own largest divisor.
  const list = variants(12, 12, (n_kv_heads) => { asked.push(n_kv_heads); return n_kv_heads === 4; });
  assert.deepEqual(list, [{ kind: 'MHA', n_kv_heads: 12 }, { kind: 'GQA', n_kv_heads: 4 }, { kind: 'MQA', n_kv_heads: 1 }]);
  assert.deepEqual(asked, [11, 10, 9, 8, 7, 6, 5, 4]); // every count below n_heads, largest first: no divisor rule of its own
  assert.deepEqual(variants(7, 7, () => false).map((v) => v.kind), ['MHA', 'MQA']);
  // headGroups follows the mapping it is given, not a division of head counts.
  const { headGroups } = await import('../../web/src/engine/pool_split.js');
  assert.deepEqual(headGroups({ n_kv_heads: 2, kv_head_of: [0, 0, 0, 1] }, 2), [{ h0: 0, h: 3, kv0: 0, n_kv: 1 }, { h0: 3, h: 1, kv0: 1, n_kv: 1 }]);
  assert.throws(() => headGroups({ n_kv_heads: 2, kv_head_of: [0, 1, 0, 1] }, 2), /not contiguous/);
});
