// The README is a user's page (issue 34): at most 200 lines, its links lead to files that exist, its short
// API example runs as written, and it copies no measurement. The full API example, which moved to
// docs/API.md, runs as written from the repository root and prints what its comments promise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

/** The first ```js block after `heading` in `text`, run with node from the repository root; its output lines. */
function runExample(text, heading) {
  assert.ok(text.includes(heading), `the section ${heading} exists`);
  const code = text.slice(text.indexOf(heading)).match(/```js\n([\s\S]*?)```/)[1];
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root }).toString();
}

test('docs/API.md\'s example runs and prints the documented values', () => {
  const out = runExample(read('docs/API.md'), '## Loading the engine, and every call');
  const lines = out.trim().split('\n');
  assert.equal(lines[0], 'wasm-simd128');
  assert.equal(lines[1], '16384');
  assert.equal(lines[2], '4096');
  assert.ok(lines.includes('604,028,928'), out);
  assert.match(out, /Q_i \(split into heads\): 2×8×16×64/);
  assert.match(lines.at(-1), /^d_model \(510\) is not divisible by n_heads \(8\)/);
});

test('the README\'s short example runs and prints what its comment says', () => {
  const out = runExample(readme, '## The JavaScript API in brief');
  assert.equal(out.trim(), '640 400');
});

test('the README has at most 200 lines', () => {
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 200, `README.md has ${lines} lines; move detail to docs/`);
});

test('every file the README and the docs link to exists, and the README links the four docs', () => {
  for (const page of ['README.md', ...docs]) {
    const text = read(page);
    const links = [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1]).filter((href) => !/^[a-z]+:/.test(href));
    for (const href of links) {
      assert.ok(existsSync(join(root, dirname(page), href)), `${page} links to ${href}, which does not exist`);
    }
  }
  const linked = [...readme.matchAll(/\]\(([^)#\s]+)/g)].map((m) => m[1]);
  for (const doc of ['docs/API.md', 'web/EMBED.md', 'bench/results.md', 'docs/ARCHITECTURE.md']) {
    assert.ok(linked.includes(doc), `README.md links to ${doc}`);
  }
  // The screenshot is a picture a person can open, small enough for a page.
  const shot = readFileSync(join(root, 'docs/screenshot.png'));
  assert.deepEqual([...shot.subarray(1, 4)], [...Buffer.from('PNG')], 'docs/screenshot.png is a PNG');
  assert.ok(shot.length < 512 * 1024, `docs/screenshot.png is ${shot.length} B, over 512 KiB`);
});

test('dated measurement logs live in bench/results.md: neither the README nor docs/ holds one', () => {
  for (const page of ['README.md', ...docs]) {
    const dated = read(page).split('\n').filter((line) => /\b20\d\d-\d\d-\d\d\b/.test(line));
    assert.deepEqual(dated, [], `${page} lines with a date (move the measurement to bench/results.md)`);
  }
});

test('the README copies no figures from bench/results.md: none of its table rows, no copied section', () => {
  assert.doesNotMatch(readme, /<!-- bench:(start|end) -->/);
  const rows = read('bench/results.md').split('\n').filter((line) => /^\|.*\d.*\|$/.test(line));
  assert.ok(rows.length > 20, 'bench/results.md has its tables');
  const copied = rows.filter((row) => readme.includes(row));
  assert.deepEqual(copied, [], 'README.md lines copied from bench/results.md');
  assert.doesNotMatch(readme, /GFLOP\/s|\d ms\b/, 'the README quotes no speed: bench/results.md has them');
});
