// The README's API example runs as written, from the repository root, and prints what its
// comments promise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the README example runs and prints the documented values', () => {
  const readme = readFileSync(new URL('README.md', `file://${root}`), 'utf8');
  const section = readme.slice(readme.indexOf('## JavaScript API'));
  const code = section.match(/```js\n([\s\S]*?)```/)[1];
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root }).toString();
  const lines = out.trim().split('\n');
  assert.equal(lines[0], 'wasm-simd128');
  assert.equal(lines[1], '16384');
  assert.equal(lines[2], '4096');
  assert.ok(lines.includes('604,028,928'), out);
  assert.match(out, /Q_i \(split into heads\): 2×8×16×64/);
  assert.match(lines.at(-1), /^d_model \(510\) is not divisible by n_heads \(8\)/);
});

test('dated measurement logs live in bench/results.md: the README holds none outside the bench tables it copies', () => {
  const readme = readFileSync(new URL('README.md', `file://${root}`), 'utf8');
  const outside = readme.replace(/<!-- bench:start -->[\s\S]*?<!-- bench:end -->/, '');
  const dated = outside.split('\n').filter((line) => /\b20\d\d-\d\d-\d\d\b/.test(line));
  assert.deepEqual(dated, [], 'README lines with a date (move the measurement to bench/results.md)');
});
