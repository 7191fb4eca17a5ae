// The core is the only source of the lesson's rules (issue 22): the JavaScript copies the page
// used to carry are deleted, and this test fails if any comes back, in the sources or in the
// built bundles of dist/: the word hash (FNV-1a), the page's random stream and Box–Muller
// (attn.embedTokens and attn.randomNormal make the inputs), the mask grid (attn.maskGrid), the
// query-head → key/value-head mapping (resolveView's kv_head_of) and validate.js's copies of the
// dimension and n_kv_heads rules (resolveView), the gqa panel's divisors of n_heads and the pool's
// query heads per key/value head; and model/pool.js, whose name was the worker
// pool's, is gone (the heatmap downsampling is model/downsample.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsFiles } from './source_files.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'web/src'), DIST = join(ROOT, 'dist');


// What each deleted helper cannot do without: its constants (hex as written, decimal as a
// minifier prints them) or its formula. Each is a rule the engine owns.
const COPIES = [
  ['the FNV-1a word hash', /0x811c9dc5|0x01000193|2166136261|16777619/i],
  ['the page stream\'s mixing constants', /0x6d2b79f5|1831565813|0x27d4eb2d|668265261|0x85ebca6b|2246822507/i],
  ['Box–Muller', /Math\.sqrt\(\s*-\s*2\s*\*\s*Math\.log\(/],
  ['the mask grid', /function\s+(maskGrid|isMasked)\b|maskGrid\s*\(\s*config\b/],
  ['the query-head → key/value-head mapping', /Math\.floor\(\s*[\w.]+\s*\/\s*\(\s*[\w.]*n_heads\s*\/\s*[\w.]*n_kv_heads\s*\)\s*\)/],
  ['validate.js\'s head-count rules', /divisorsNear|must be a multiple of n_kv_heads|can be at most n_heads/],
  // Which n_kv_heads divide n_heads (the gqa panel had its own loop) and how many query heads
  // share a key/value head (pool_split.js had perKv): the core's resolveView and analyze say.
  ['the n_kv_heads divisor rule', /\bn_(kv_)?heads\s*%|%\s*[\w.]*n_kv_heads\b/],
  ['the query heads per key/value head', /\bn_heads\s*\/\s*\(?\s*[\w.]*n_kv_heads\b|\bperKv\b/],
];

test('no JavaScript copy of a core rule in web/src', () => {
  const files = jsFiles(SRC).map((path) => [path, readFileSync(path, 'utf8')]);
  assert.ok(files.length > 40, `${files.length} source files read`);
  for (const [path, text] of files) {
    for (const [what, pattern] of COPIES) {
      // assert.ok, not doesNotMatch: a failure names the file without printing a whole bundle.
      assert.ok(!pattern.test(text), `${path.slice(ROOT.length)} holds ${what} again: ask the engine (attention.js)`);
    }
  }
  // The panels show the d_k and d_v the engine resolved (the inputs panel had d_model / n_heads for
  // its placeholders); only the training lab's own form still checks its sizes itself.
  for (const [path, text] of files.filter(([p]) => p.includes('/features/'))) {
    assert.ok(!/\bd_model\s*[%/]\s*[\w.]*n_heads\b/.test(text), `${path.slice(ROOT.length)} derives d_k from d_model and n_heads again`);
  }
  // validate.js reads the form; the divisibility of the sizes is the engine's (resolveView).
  const validate = readFileSync(join(SRC, 'model/validate.js'), 'utf8');
  assert.doesNotMatch(validate, /%\s*[\w.]*n_(kv_)?heads\b/, 'validate.js divides by a head count again');
  assert.doesNotMatch(validate, /n_heads\s*>\s*d_model|is larger than d_model/, 'validate.js compares n_heads with d_model again');
  assert.match(validate, /env\.resolveView\(/, 'validate.js asks the engine for the rules');
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
    for (const [what, pattern] of COPIES) assert.ok(!pattern.test(text), `${path.slice(ROOT.length)} holds ${what}`);
  }
});

test('the gqa panel asks the core which n_kv_heads group, and the pool splits by the core\'s kv_head_of', async () => {
  const { variants } = await import('../../web/src/features/gqa/panel.js');
  const asked = [];
  // A core that accepts only 4 of 12 heads' candidates: the panel must take 4, not its own largest divisor.
  const list = variants(12, 12, (n_kv_heads) => { asked.push(n_kv_heads); return n_kv_heads === 4; });
  assert.deepEqual(list, [{ kind: 'MHA', n_kv_heads: 12 }, { kind: 'GQA', n_kv_heads: 4 }, { kind: 'MQA', n_kv_heads: 1 }]);
  assert.deepEqual(asked, [6, 5, 4]);
  assert.deepEqual(variants(7, 7, () => false).map((v) => v.kind), ['MHA', 'MQA']);
  // headGroups follows the mapping it is given, not a division of head counts.
  const { headGroups } = await import('../../web/src/engine/pool_split.js');
  assert.deepEqual(headGroups({ n_kv_heads: 2, kv_head_of: [0, 0, 0, 1] }, 2), [{ h0: 0, h: 3, kv0: 0, n_kv: 1 }, { h0: 3, h: 1, kv0: 1, n_kv: 1 }]);
  assert.throws(() => headGroups({ n_kv_heads: 2, kv_head_of: [0, 1, 0, 1] }, 2), /not contiguous/);
});
