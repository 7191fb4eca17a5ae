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

// Budget, gzipped (level 9): each module (wasm + its .mjs loader) under 152 KiB. Printed for the
// record: the API's sources (they ship minified inside the bundles, not as these files) and what a
// course page downloads for the element (dist/attention-playground.js, which bundles the API and the
// SIMD loader, plus the SIMD wasm), held to 220 kB (asserted).
// Both budgets were 145 KiB and 200 kB (issue 10) until the efficient-attention chapter (issue 26:
// flash and linear attention, the KV cache, sparse masks, RoPE and ALiBi) and the lesson's chapters
// (issue 25) came in: 155.2 kB and 217.6 kB measured, after compiling the cold sources with -flto and
// moving the exercise texts to panels.js. The known way back under the old budgets is a second module
// for the teaching-only functions, loaded with the panels that use them; these limits are deliberately
// tight so that nothing else grows meanwhile.
test('module sizes (raw and gzip: .wasm plus its .mjs loader; the element with the SIMD module)', () => {
  const gzip = (f) => gzipSync(f, { level: 9 }).length;
  const api = ['attention.js', 'checks.js', 'intrinsics.js', 'native.js', 'probe.js', 'training.js', 'words.js']
    .map((f) => readFileSync(new URL(`../src/engine/${f}`, wasmDir)));
  console.log(`API sources: ${api.reduce((s, f) => s + f.length, 0)} B raw, ${api.reduce((s, f) => s + gzip(f), 0)} B gzip`);
  for (const name of ['attention_simd', 'attention_scalar']) {
    const files = [readFileSync(new URL(`${name}.wasm`, wasmDir)), readFileSync(new URL(`${name}.mjs`, wasmDir))];
    const raw = files.reduce((s, f) => s + f.length, 0);
    const gz = files.reduce((s, f) => s + gzip(f), 0);
    console.log(`${name}: wasm ${files[0].length} B, with loader ${raw} B raw, ${gz} B gzip`);
    assert.ok(gz < 152 * 1024, `${name} is ${gz} B gzipped with its loader, over 152 KiB`);
  }
  const dist = new URL('../../dist/', import.meta.url);
  const bundle = readFileSync(new URL('attention-playground.js', dist));
  // The SIMD module's loader is inside the element's bundle (engine/bundled_loader.js): a course page
  // fetches the bundle and the wasm, nothing else, before the first result.
  assert.ok(bundle.includes('wasm-instantiate'), 'the SIMD loader is not inside attention-playground.js');
  const element = [gzip(bundle), gzip(readFileSync(new URL('wasm/attention_simd.wasm', dist)))];
  const total = element[0] + element[1];
  console.log(`element: attention-playground.js (with the SIMD loader) ${element[0]} B + SIMD wasm ${element[1]} B = ${total} B gzip`);
  assert.ok(total <= 220_000, `the element's first download is ${total} B gzipped (module ${element[0]} + wasm ${element[1]}), ` +
    'over 220 kB: move first-view code to a lazy panel or shrink the module');
});
