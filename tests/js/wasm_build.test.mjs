// Build checks of the two wasm modules: the SIMD one really contains f32x4 instructions,
// the baseline none at all; sizes are printed (raw and gzip) for the record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const wasmDir = new URL('../../web/wasm/', import.meta.url);
const disassemble = (name) => execFileSync('wasm-objdump', ['-d', new URL(name, wasmDir).pathname],
  { maxBuffer: 256 * 1024 * 1024 }).toString();
const count = (text, re) => (text.match(re) || []).length;

test('the SIMD module contains f32x4 arithmetic', () => {
  const text = disassemble('attention_simd.wasm');
  const f32x4 = count(text, /\bf32x4\.\w+/g);
  console.log(`attention_simd.wasm: ${f32x4} f32x4 instructions, ${count(text, /\bf32x4\.mul\b/g)} f32x4.mul`);
  assert.ok(f32x4 > 100, `only ${f32x4} f32x4 instructions`);
  assert.ok(count(text, /\bf32x4\.(add|mul)\b/g) > 50);
});

test('the baseline module contains no SIMD instruction', () => {
  const text = disassemble('attention_scalar.wasm');
  const simd = count(text, /\b(v128|[fi](8x16|16x8|32x4|64x2))\.\w+/g);
  assert.equal(simd, 0, `baseline module has ${simd} SIMD instructions`);
});

// Budget, gzipped (level 9): each core module (wasm + its .mjs loader) under 145 KiB, and what a
// course page downloads for the element (dist/attention-playground.js, which bundles the API and the
// SIMD loader, plus the SIMD wasm) at most 200 kB (issue 10). They were raised to 152 KiB and 220 kB
// while the teaching labs (training, the √d_k gradients, FlashAttention tiles, linear attention, the
// KV cache) were in the core module; since issue 34 the labs are a module of their own
// (attention_labs_*, cpp/labs/), loaded by the chapters and panels that use them, never by the first
// view: the old budgets hold again. The labs modules' sizes are printed for the record.
test('module sizes (raw and gzip: .wasm plus its .mjs loader; the element with the SIMD module)', () => {
  const gzip = (f) => gzipSync(f, { level: 9 }).length;
  const api = ['attention.js', 'layer.js', 'sdpa.js', 'analysis.js', 'inputs_api.js', 'options.js', 'load.js', 'checks.js', 'intrinsics.js',
    'native.js', 'probe.js', 'words.js'].map((f) => readFileSync(new URL(`../src/engine/${f}`, wasmDir)));
  const labsApi = ['labs.js', 'labs_session.js', 'trainer_api.js', 'efficient.js', 'kv_cache.js', 'kv_step.js'].map((f) => readFileSync(new URL(`../src/engine/${f}`, wasmDir)));
  console.log(`API sources: core ${api.reduce((s, f) => s + f.length, 0)} B raw, ${api.reduce((s, f) => s + gzip(f), 0)} B gzip; ` +
    `labs ${labsApi.reduce((s, f) => s + f.length, 0)} B raw, ${labsApi.reduce((s, f) => s + gzip(f), 0)} B gzip`);
  for (const name of ['attention_simd', 'attention_scalar', 'attention_labs_simd', 'attention_labs_scalar']) {
    const files = [readFileSync(new URL(`${name}.wasm`, wasmDir)), readFileSync(new URL(`${name}.mjs`, wasmDir))];
    const raw = files.reduce((s, f) => s + f.length, 0);
    const gz = files.reduce((s, f) => s + gzip(f), 0);
    console.log(`${name}: wasm ${files[0].length} B, with loader ${raw} B raw, ${gz} B gzip`);
    if (!name.includes('labs')) assert.ok(gz <= 145 * 1024, `${name} is ${gz} B gzipped with its loader, over 145 KiB`);
  }
  const dist = new URL('../../dist/', import.meta.url);
  const bundle = readFileSync(new URL('attention-playground.js', dist));
  // The SIMD module's loader is inside the element's bundle (engine/bundled_loader.js): a course page
  // fetches the bundle and the wasm, nothing else, before the first result. The labs' loaders are not.
  assert.ok(bundle.includes('wasm-instantiate'), 'the SIMD loader is not inside attention-playground.js');
  assert.ok(!bundle.includes('createAttentionLabsModule'), 'a labs loader is inside attention-playground.js');
  // Nor is the labs' JavaScript (engine/labs_session.js: the trainer, efficient attention and KV cache calls):
  // it is dist/wasm/labs_session.js, loaded with the labs' wasm. Its calls name the labs module's bindings.
  const labsCode = readFileSync(new URL('wasm/labs_session.js', dist), 'utf8');
  for (const first of ['attention-playground.js', 'page.js']) {
    const code = readFileSync(new URL(first, dist), 'utf8');
    for (const binding of ['trainerCreate', 'efficientCall', 'kvCacheCreate', 'kvCacheDelete']) {
      assert.ok(!code.includes(binding), `${first} carries the labs' code (it calls ${binding})`);
    }
  }
  assert.ok(['trainerCreate', 'efficientCall'].every((b) => labsCode.includes(b)), 'wasm/labs_session.js lacks the labs\' calls');
  const element = [gzip(bundle), gzip(readFileSync(new URL('wasm/attention_simd.wasm', dist)))];
  const total = element[0] + element[1];
  console.log(`element: attention-playground.js (with the SIMD loader) ${element[0]} B + SIMD wasm ${element[1]} B = ${total} B gzip`);
  // Nor what only a later view needs, found by a sentence each carries (issue 34's cuts): the exercises'
  // posing and grading (lesson/exercises/grading.js, answers.js; the session keeps ids, kinds and progress),
  // the training lab's side (model/training_side.js), the check of a view with imported tensors
  // (import/import_view.js) and the author's lock on imports (import/import_lock.js). They travel in
  // panels.js; the worker carries the training side too.
  const panelsCode = readFileSync(new URL('panels.js', dist), 'utf8');
  for (const [what, sentence] of [['the exercises\' grading', 'expects a shape such as'], ['the training side', 'steps must be a whole number from 0 to'],
    ['the imports\' check', 'but the view now needs'], ['the lock on imports', 'importing tensors is locked on this page']]) {
    assert.ok(panelsCode.includes(sentence), `panels.js lacks ${what} (“${sentence}”)`);
    assert.ok(!bundle.includes(sentence), `attention-playground.js carries ${what} (“${sentence}”)`);
  }
  // Issue 34's budget: the element's first download ≤ 200 kB gzipped. The chapters told in steps (issue 37)
  // took it to 208 kB; the other chapters' words went to panels.js (lesson/chapters/words.js), then the
  // exercises' posing and grading (lesson/exercises/lazy_session.js loads grading.js with the catalogue),
  // the training lab's side and the imports' checks: 198.7 kB. Move first-view code that only a later view
  // needs behind panels.js (or into the labs module) rather than raise this.
  const HELD_AT = 200_000;
  assert.ok(total <= HELD_AT, `the element's first download is ${total} B gzipped (module ${element[0]} + wasm ${element[1]}), ` +
    `over the ${HELD_AT} B budget: move first-view code to a lazy panel or to the labs module, or shrink the module`);
});

test('the labs live in their own module: the core module binds none of them', () => {
  const core = readFileSync(new URL('attention_simd.mjs', wasmDir), 'utf8') + readFileSync(new URL('attention_simd.wasm', wasmDir)).toString('latin1');
  const labs = readFileSync(new URL('attention_labs_simd.wasm', wasmDir)).toString('latin1');
  for (const binding of ['trainerCreate', 'trainCost', 'sqrtDkGradients', 'kvCache', 'efficientCall']) {
    assert.ok(!core.includes(binding), `the core module still binds ${binding}`);
    assert.ok(labs.includes(binding), `the labs module does not bind ${binding}`);
  }
  assert.ok(core.includes('mhaForward') && !labs.includes('mhaForward'), 'mhaForward belongs to the core module only');
});

test('the labs SIMD module contains f32x4 arithmetic, its baseline none', () => {
  assert.ok(count(disassemble('attention_labs_simd.wasm'), /\bf32x4\.\w+/g) > 100);
  assert.equal(count(disassemble('attention_labs_scalar.wasm'), /\b(v128|[fi](8x16|16x8|32x4|64x2))\.\w+/g), 0);
});
