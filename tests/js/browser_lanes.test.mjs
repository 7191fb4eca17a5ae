// tests/browser/run.mjs runs the browser test files in lanes (tests/browser/lane.mjs: one Node process
// runs file after file), and the JavaScript API tests with --no-browser. Stand-in test files, which open no
// page (but two, with the harness, to see the lane's browser shared and closed), show what a lane must still
// do as a process per file did: count each file's tests, make a file that fails outside its tests (an
// `after` that throws, a file that does not load) a counted failure that names it, and when a file ends its lane (it exits, runs past --test-timeout, or leaves something
// open) name that file, count the files the lane finished, and run the files after it in a new lane.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// (scripts/test.sh runs this file itself in a lane: tests/browser/run.mjs --no-browser.)
let dir;

const stand = (body) => `import { test, after } from 'node:test';\n${body}\n`;
const FILES = {
  'a_ok.test.mjs': stand("test('a one', () => {});\ntest('a two', () => {});"),
  'b_after.test.mjs': stand("test('b one', () => {});\nafter(() => { throw new Error('b after broke'); });"),
  'c_noload.test.mjs': "throw new Error('c cannot load');\n",
  'd_exit.test.mjs': stand("test('d exits', () => { process.exit(3); });"),
  'e_ok.test.mjs': stand("test('e one', () => {});"),
  'f_hangs.test.mjs': stand("test('f hangs', () => new Promise((r) => setTimeout(r, 60000)));"),
  'g_ok.test.mjs': stand("test('g one', () => {});\ntest('g two', () => {});\ntest('g three', () => {});"),
  'h_fails.test.mjs': stand("test('h fails', () => { throw new Error('h is wrong'); });"),
  // Its tests and hook come after a top-level await (as in sites.test.mjs): still inside its suite.
  'i_await.test.mjs': stand("await new Promise((r) => setTimeout(r, 20));\ntest('i one', () => {});\nafter(() => {});"),
};
// A file that leaves a timer running: its lane cannot end.
const OPEN = { 'j_open.test.mjs': stand("test('j one', () => { setInterval(() => {}, 1000); });") };
// A file that leaves a mark in its process, and one that must run in a process of its own (its marker line).
const OWN = {
  'k_marks.test.mjs': stand("test('k marks its process', () => { globalThis.laneMark = 'k'; });"),
  'l_own.test.mjs': `// Runs in a process of its own\n${stand("test('l sees no mark', () => { if (globalThis.laneMark) throw new Error(`l ran after ${globalThis.laneMark}`); });")}`,
};
// A file whose test prints 4 MB (a pipe takes 64 kB at a time).
const LOUD = { 'm_loud.test.mjs': stand("test('m prints', () => { for (let i = 0; i < 4000; i++) console.log('x'.repeat(1000)); });") };
// Two files that each wait for the other to have started (a marker file), up to 20 s: two lanes must run them side by side.
const PAIRED = Object.fromEntries([['p1', 'p2'], ['p2', 'p1']].map(([me, other]) => [`${me}.test.mjs`, stand(`import { writeFileSync, existsSync } from 'node:fs';
test('${me} runs beside ${other}', async () => {
  writeFileSync(new URL('./${me}.started', import.meta.url), '');
  for (const until = Date.now() + 20000; !existsSync(new URL('./${other}.started', import.meta.url)); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > until) throw new Error('${other} did not start within 20 s');
  }
});`)]));

// Two files that open a page each with the real harness, in one lane: they share the lane's one browser, the
// first file's contexts are closed when it ends, and the lane closes the browser after the last (the lane
// ends by itself, and run.mjs counts the browser's processes, which only the lane could still see).
const harness = JSON.stringify(join(root, 'tests/browser/harness.mjs'));
const PAGES = Object.fromEntries(['q1', 'q2'].map((me, i) => [`${me}.test.mjs`, stand(`import { startHarness, openPage } from ${harness};
let h;
test('${me} opens a page in the browser of its lane', async () => {
  h = await startHarness();
  ${i ? "if (globalThis.laneBrowserSeen !== h.browser) throw new Error('q2 has another browser than q1');\n  if (h.browser.contexts().length) throw new Error(`q1 left ${h.browser.contexts().length} contexts`);" : 'globalThis.laneBrowserSeen = h.browser;'}
  const page = await openPage(h, '#chapter=attention', { waitForResult: false, asIs: true });
  await page.waitForFunction(() => document.title.length > 0);
  await page.closeAll();
});
after(() => h?.close());`)]));

// A file that waits on its page for ever: stopped by the timeout (8 s; its browser's launch and page take
// 1–4 s), with its browser (Playwright's own SIGTERM handler would close the browser only, and the lane go on
// to the next file, which SIGKILL then cut short).
PAGES['r_waits.test.mjs'] = stand(`import { startHarness, openPage } from ${harness};
let h;
test('r waits on its page', async () => {
  h = await startHarness();
  const page = await openPage(h, '#chapter=attention', { waitForResult: false, asIs: true });
  await page.waitForFunction(() => false, null, { timeout: 0 });
});
after(() => h?.close());`);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'lanes-'));
  for (const [name, text] of Object.entries({ ...FILES, ...OPEN, ...OWN, ...LOUD, ...PAIRED, ...PAGES })) writeFileSync(join(dir, name), text);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** run.mjs on the named stand-ins: { status, out, total: { pass, fail }, ran: { file: ['ok' | 'not ok', …] } }. */
function runLanes(names, concurrency, extra = [], { browser = false, timeout = 4000, grace = 2000 } = {}) {
  const r = spawnSync(process.execPath, ['tests/browser/run.mjs', ...(browser ? [] : ['--no-browser']), `--test-concurrency=${concurrency}`, `--test-timeout=${timeout}`, ...extra, ...names.map((n) => join(dir, n))], {
    cwd: root, encoding: 'utf8', timeout: 120000, maxBuffer: 64 << 20, env: { ...process.env, ATTN_LANE_END_GRACE_MS: String(grace) },
  });
  const out = `${r.stdout}${r.stderr}`.replaceAll(`${dir}/`, '');
  const summaries = [...out.matchAll(/^# pass (\d+)\n# fail (\d+)$/gm)].map((m) => ({ pass: Number(m[1]), fail: Number(m[2]) }));
  const ran = {};
  for (const m of out.matchAll(/^(ok|not ok) \d+ - (\S+)$/gm)) (ran[m[2]] ??= []).push(m[1]);
  return { status: r.status, out, summaries, ran, total: summaries.reduce((t, s) => ({ pass: t.pass + s.pass, fail: t.fail + s.fail }), { pass: 0, fail: 0 }) };
}

/** The error run.mjs gives for `file` (its own "not ok 1 - file" entry), or null. */
const errorOf = (out, file) => out.match(new RegExp(`^not ok 1 - ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n {2}---\\n {2}error: (.*)$`, 'm'))?.[1] ?? null;

test('one lane: every file counted once; a failing after, a file that does not load, an exit and a timeout are named failures, and the files after them run', () => {
  const r = runLanes(Object.keys(FILES), 1);
  assert.equal(r.status, 1, r.out);
  // Lane 1 runs a, b, c and is ended by d; lane 2 runs e and is stopped in f; lane 3 runs g, h and i.
  // Passed: a 2, b 1, e 1, g 3, i 1. Failed: c (does not load), b's after, d, f, h.
  assert.deepEqual(r.total, { pass: 8, fail: 5 }, r.out);
  assert.equal(errorOf(r.out, 'd_exit.test.mjs'), '"ended its lane with status 3"', r.out);
  assert.equal(errorOf(r.out, 'f_hangs.test.mjs'), '"timed out after 4000 ms"', r.out);
  assert.match(errorOf(r.out, 'b_after.test.mjs') ?? '', /^"failed outside its tests: 'b after broke'"$/, r.out);
  assert.match(r.out, /c_noload\.test\.mjs loads/, 'a file that does not load is a failing test named for it');
  assert.match(r.out, /c cannot load/);
  for (const name of ['a_ok.test.mjs', 'e_ok.test.mjs', 'g_ok.test.mjs', 'i_await.test.mjs']) assert.deepEqual(r.ran[name], ['ok'], `${name}\n${r.out}`);
  assert.match(r.out, /^ {4}ok \d+ - i one$/m, "a test after a top-level await is in its file's suite");
  assert.deepEqual(r.ran['h_fails.test.mjs'], ['not ok'], r.out);
  // Every file has its time printed once.
  for (const name of Object.keys(FILES)) assert.equal(r.out.split('\n').filter((l) => l.startsWith(`# run.mjs: ${name} in `)).length, 1, `${name}'s time\n${r.out}`);
});

test('a failing after beside a failing test is named too; a lane that cannot end is stopped; a lane that cannot start runs nothing and says so', () => {
  const both = runLanes(['b_after.test.mjs', 'h_fails.test.mjs'], 1);
  assert.deepEqual(both.total, { pass: 1, fail: 2 }, both.out);
  assert.match(errorOf(both.out, 'b_after.test.mjs') ?? '', /failed outside its tests/, both.out);

  const open = runLanes(['a_ok.test.mjs', 'j_open.test.mjs'], 1);
  assert.equal(open.status, 1, open.out);
  assert.equal(errorOf(open.out, 'j_open.test.mjs'), '"its lane did not end within 2 s of its last file: something it opened is still open"', open.out);
  assert.deepEqual(open.total, { pass: 3, fail: 1 }, open.out);

  const bad = runLanes(['a_ok.test.mjs', 'e_ok.test.mjs'], 1, ['--no-such-node-option']);
  assert.equal(bad.status, 1, bad.out);
  assert.match(errorOf(bad.out, '(a lane)') ?? '', /before taking a file/, bad.out);
  assert.equal(errorOf(bad.out, 'a_ok.test.mjs'), "'not run: no lane could take it'", bad.out);
  assert.equal(errorOf(bad.out, 'e_ok.test.mjs'), "'not run: no lane could take it'", bad.out);
  assert.equal(bad.summaries.length, 3, `one lane tried, once\n${bad.out}`);
});

test('two lanes run side by side, each file once, each lane with its summary', () => {
  const two = runLanes(Object.keys(PAIRED), 2);
  assert.equal(two.status, 0, two.out);
  assert.deepEqual(two.total, { pass: 2, fail: 0 }, two.out);
  assert.equal(two.summaries.length, 2, `one summary per lane\n${two.out}`);
  assert.deepEqual(two.ran, { 'p1.test.mjs': ['ok'], 'p2.test.mjs': ['ok'] }, two.out);
});

test('a file marked to run in a process of its own does not share one', () => {
  const plain = runLanes(['k_marks.test.mjs', 'l_own.test.mjs'], 1);
  assert.equal(plain.status, 0, plain.out);
  assert.deepEqual(plain.total, { pass: 2, fail: 0 }, plain.out);
  assert.equal(plain.summaries.length, 2, `two lanes: l's own, then k's\n${plain.out}`);
});

test('a lane whose output is megabytes long is printed whole, the runner\'s last lines after it', () => {
  const r = runLanes(['m_loud.test.mjs'], 1);
  assert.equal(r.status, 0, r.out.slice(-2000));
  assert.ok(r.out.includes('x'.repeat(1000)), 'the long lines are there');
  assert.deepEqual(r.total, { pass: 1, fail: 0 }, r.out.slice(-2000));
  assert.match(r.out, /^# run\.mjs: 1 files in [\d.]+ s/m, `the runner's last lines\n${r.out.slice(-2000)}`);
});

test("the files of a lane share its browser, which the lane closes after its last file, its processes' CPU counted", () => {
  // A browser's launch and a page take seconds on a loaded host (4.1 s once in the full command, past the
  // stand-ins' 4 s), and so may the browser's close after the last file.
  const r = runLanes(['q1.test.mjs', 'q2.test.mjs'], 1, [], { browser: true, timeout: 60000, grace: 30000 });
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(r.total, { pass: 2, fail: 0 }, r.out);
  assert.equal(r.summaries.length, 1, `one lane for both\n${r.out}`);
  const kinds = Object.fromEntries([...(r.out.match(/^# run\.mjs: CPU by process: (.*)$/m)?.[1] ?? '').matchAll(/([a-z][\w .()-]*?) ([\d.]+) s/g)].map((m) => [m[1], Number(m[2])]));
  for (const kind of ['renderer', 'browser']) assert.ok(kinds[kind] > 0, `the lane's ${kind} counted: ${JSON.stringify(kinds)}\n${r.out}`);
});

test('a lane stopped while its file waits on the browser ends at once: the next file runs in a new lane, not blamed', () => {
  const r = runLanes(['r_waits.test.mjs', 'a_ok.test.mjs'], 1, [], { browser: true, timeout: 8000, grace: 30000 });
  assert.equal(r.status, 1, r.out);
  assert.equal(errorOf(r.out, 'r_waits.test.mjs'), '"timed out after 8000 ms"', r.out);
  assert.equal(errorOf(r.out, 'a_ok.test.mjs'), null, r.out);
  assert.deepEqual(r.ran['a_ok.test.mjs'], ['ok'], r.out);
});
