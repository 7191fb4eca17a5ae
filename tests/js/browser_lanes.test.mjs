// tests/browser/run.mjs runs the browser test files in lanes (tests/browser/lane.mjs: one Node process
// runs file after file). Stand-in test files, which never open a page, show what a lane must still do as
// a process per file did: count each file's tests, make a file that fails outside its tests (an `after`
// that throws, a file that does not load) a counted failure that names it, and when a file ends its lane
// (it exits, or runs past --test-timeout) name that file and run the files after it in a new lane.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let dir;

const FILES = {
  'a_ok.test.mjs': "import { test } from 'node:test';\ntest('a one', () => {});\ntest('a two', () => {});\n",
  'b_after.test.mjs': "import { test, after } from 'node:test';\ntest('b one', () => {});\nafter(() => { throw new Error('b after broke'); });\n",
  'c_noload.test.mjs': "throw new Error('c cannot load');\n",
  'd_exit.test.mjs': "import { test } from 'node:test';\ntest('d exits', () => { process.exit(3); });\n",
  'e_ok.test.mjs': "import { test } from 'node:test';\ntest('e one', () => {});\n",
  'f_hangs.test.mjs': "import { test } from 'node:test';\ntest('f hangs', () => new Promise((r) => setTimeout(r, 60000)));\n",
  'g_ok.test.mjs': "import { test } from 'node:test';\ntest('g one', () => {});\ntest('g two', () => {});\ntest('g three', () => {});\n",
  'h_fails.test.mjs': "import { test } from 'node:test';\ntest('h fails', () => { throw new Error('h is wrong'); });\n",
};
// Files that take a while (0.5 s): two lanes both get some.
const SLOW = Object.fromEntries(['p1', 'p2', 'p3', 'p4'].map((n) => [`${n}.test.mjs`, `import { test } from 'node:test';\ntest('${n}', () => new Promise((r) => setTimeout(r, 500)));\n`]));

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'lanes-'));
  for (const [name, text] of Object.entries({ ...FILES, ...SLOW })) writeFileSync(join(dir, name), text);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** run.mjs on the named stand-ins: { status, out, summaries: [{ pass, fail }], ran: { file: 'ok' | 'not ok' } }. */
function runLanes(names, concurrency) {
  const r = spawnSync(process.execPath, ['tests/browser/run.mjs', `--test-concurrency=${concurrency}`, '--test-timeout=4000', ...names.map((n) => join(dir, n))],
    { cwd: root, encoding: 'utf8', timeout: 120000 });
  const out = `${r.stdout}${r.stderr}`;
  const summaries = [...out.matchAll(/^# pass (\d+)\n# fail (\d+)$/gm)].map((m) => ({ pass: Number(m[1]), fail: Number(m[2]) }));
  const ran = {};
  for (const m of out.matchAll(/^(ok|not ok) \d+ - (.+)$/gm)) (ran[m[2].replace(`${dir}/`, '')] ??= []).push(m[1]);
  return { status: r.status, out, summaries, ran, total: summaries.reduce((t, s) => ({ pass: t.pass + s.pass, fail: t.fail + s.fail }), { pass: 0, fail: 0 }) };
}

test('one lane: every file runs once; a failing after, a file that does not load, an exit and a timeout are named failures, and the files after them run', () => {
  const r = runLanes(Object.keys(FILES), 1);
  assert.equal(r.status, 1, r.out);
  // The lane that d ended carried a, b and c (its TAP has no summary: they count in none); e and f in the
  // next, which f ended; g and h in the last.
  assert.deepEqual(r.ran['a_ok.test.mjs'], ['ok'], r.out);
  assert.deepEqual(r.ran['e_ok.test.mjs'], ['ok'], r.out);
  assert.deepEqual(r.ran['g_ok.test.mjs'], ['ok'], r.out);
  assert.match(r.out, /not ok 1 - \S*d_exit\.test\.mjs\n {2}---\n {2}error: 'ended the lane with status 3'/, 'the file that ended its lane is named');
  assert.match(r.out, /not ok 1 - \S*f_hangs\.test\.mjs\n {2}---\n {2}error: 'timed out after 4000 ms'/, 'the file past the timeout is named');
  assert.match(r.out, /c_noload\.test\.mjs loads/, 'a file that does not load is a failing test named for it');
  assert.match(r.out, /c cannot load/);
  // The last lane (g, h) ends normally: its summary counts g's three and h's failure.
  assert.deepEqual(r.summaries.at(-1), { pass: 3, fail: 1 }, r.out);
  assert.deepEqual(r.ran['h_fails.test.mjs'], ['not ok'], r.out);
  // Every file has its time printed once.
  for (const name of Object.keys(FILES)) assert.equal(r.out.split('\n').filter((l) => l.startsWith(`# run.mjs: ${join(dir, name)} in `)).length, 1, `${name}'s time\n${r.out}`);
});

test('a failing `after` alone (no test fails) is a counted failure naming its file; two lanes run each file once', () => {
  const one = runLanes(['a_ok.test.mjs', 'b_after.test.mjs'], 1);
  assert.equal(one.status, 1, one.out);
  assert.equal(one.total.fail, 1, one.out);
  assert.match(one.out, /not ok 1 - \S*b_after\.test\.mjs\n {2}---\n {2}error: 'ended with status 1, its summary counting no failure'/);
  const two = runLanes(Object.keys(SLOW), 2);
  assert.equal(two.status, 0, two.out);
  assert.deepEqual(two.total, { pass: 4, fail: 0 }, two.out);
  assert.equal(two.summaries.length, 2, `one summary per lane\n${two.out}`);
  assert.deepEqual(Object.keys(two.ran).sort(), Object.keys(SLOW), two.out);
  assert.deepEqual(Object.values(two.ran).map((v) => v.join()), ['ok', 'ok', 'ok', 'ok'], two.out);
});
