// Every measuring script (scripts/measure_*.mjs, and each bench/*.mjs meant to be run) answers --help with
// its usage and its time limit, exits 0, and starts nothing while doing so (no browser, no build, no worker:
// a preload makes any process or thread it starts fail the run); a new script without it fails here. And
// scripts/cli.mjs, which they share, really stops a script at its limit: with its partial results and
// status 124, or by its watchdog when a long call holds the thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Loaded before the script: starting a process or a thread ends the run with status 99 and says which.
const NOTHING_STARTS = `data:text/javascript,${encodeURIComponent(`
import cp from 'node:child_process';
import wt from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';
const refuse = (what) => function refused() { process.stderr.write('--help started ' + what + '\\n'); process.exit(99); };
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) cp[name] = refuse('a process (' + name + ')');
wt.Worker = refuse('a thread (Worker)');
syncBuiltinESMExports();
`)}`;

/** The files a person runs: every scripts/measure_*.mjs; in bench/, a file that exports nothing or has a main guard (workers, *_worker.mjs, are started by another script). */
function measuringScripts() {
  const inScripts = readdirSync(join(root, 'scripts')).filter((f) => /^measure_.*\.mjs$/.test(f)).map((f) => `scripts/${f}`);
  const inBench = readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.mjs') && !f.endsWith('_worker.mjs')).filter((f) => {
    const source = readFileSync(join(root, 'bench', f), 'utf8');
    return !/^export /m.test(source) || /process\.argv\[1\] === fileURLToPath\(import\.meta\.url\)/.test(source);
  }).map((f) => `bench/${f}`);
  return [...inScripts, ...inBench].sort();
}

test('the measuring scripts are found: the bench entry points and scripts/measure_*.mjs', () => {
  const found = measuringScripts();
  for (const known of ['bench/run.mjs', 'bench/backward.mjs', 'bench/pool_goals.mjs', 'bench/pool_threshold_browser.mjs',
    'scripts/measure_first_view.mjs', 'scripts/measure_latency.mjs', 'scripts/measure_chapters.mjs']) {
    assert.ok(found.includes(known), `${known} is among the measuring scripts (found: ${found.join(', ')})`);
  }
  for (const library of ['bench/report.mjs', 'bench/systems.mjs', 'bench/measure_case.mjs']) {
    assert.ok(!found.includes(library), `${library} is a library, not a script`);
  }
});

for (const script of measuringScripts()) {
  test(`${script} --help prints its usage and time limit, exits 0 and starts nothing`, () => {
    const r = spawnSync(process.execPath, ['--import', NOTHING_STARTS, script, '--help'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.error, undefined, `${script} --help: ${r.error?.message}`);
    assert.equal(r.status, 0, `${script} --help exited ${r.status} (signal ${r.signal}):\n${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^usage: node ${script.replace('.', '\\.')}`, 'm'), `${script} --help prints "usage: node ${script} …":\n${r.stdout}`);
    assert.match(r.stdout, /stops by itself after \d+ s/, `${script} --help states its time limit:\n${r.stdout}`);
    assert.equal(r.stderr, '', `${script} --help wrote to stderr`);
  });
}

/** Runs a script made of `body` after a measuringScript call with `options`; returns spawnSync's result and the time taken. */
function runWithLimit(options, body, args = []) {
  const dir = mkdtempSync(join(tmpdir(), 'script-limit-'));
  try {
    const file = join(dir, 'limited.mjs');
    writeFileSync(file, `import { measuringScript } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/cli.mjs')).href)};\n` +
      `const { onTimeout } = measuringScript(${JSON.stringify({ usage: 'usage: node limited.mjs', ...options })});\n${body}\n`);
    const started = Date.now();
    const r = spawnSync(process.execPath, [file, ...args], { encoding: 'utf8', timeout: 30_000 });
    return { ...r, ms: Date.now() - started };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('at its limit a script prints what it measured, says why it stopped and exits 124; --timeout sets the limit', () => {
  const body = `console.log('row 1: 3.2 ms');
onTimeout(async () => { await new Promise((r) => setTimeout(r, 100)); console.log('so far: 1 row'); });
// A measurement that waits on something the hook closes: its failure is not reported.
await new Promise((resolve, reject) => { setTimeout(resolve, 20000); onTimeout(() => reject(new Error('browser closed'))); });
console.log('never');`;
  const r = runWithLimit({ seconds: 60 }, body, ['--timeout', '1']);
  assert.equal(r.status, 124, `exit status 124 at the limit (got ${r.status}, signal ${r.signal}):\n${r.stderr}`);
  assert.match(r.stdout, /row 1: 3\.2 ms\nso far: 1 row\n$/);
  assert.match(r.stderr, /stopped: its overall time limit of 1 s was reached/);
  assert.doesNotMatch(r.stderr, /browser closed/);
  assert.ok(r.ms < 10_000, `stopped after ${r.ms} ms`);
});

test('a script whose thread is held by one long call is killed by the watchdog, with the message', () => {
  // Atomics.wait holds the thread as one long wasm call does (no timer or hook can run), without spinning a core.
  const r = runWithLimit({ seconds: 1, graceSeconds: 1 }, 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25000);\nconsole.log(\'never\');');
  assert.equal(r.signal, 'SIGKILL', `killed (status ${r.status}, signal ${r.signal}):\n${r.stderr}`);
  assert.match(r.stderr, /its overall time limit of 1 s was reached.*a call still held it 1 s later: killed/);
  assert.ok(r.ms < 15_000, `killed after ${r.ms} ms`);
  assert.doesNotMatch(r.stdout, /never/);
});

test('a bad --timeout is refused with the usage', () => {
  const r = runWithLimit({ seconds: 60 }, 'console.log(\'ran\');', ['--timeout', 'soon']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--timeout needs a number of seconds above 0, got "soon"\nusage: node limited\.mjs/);
  assert.equal(r.stdout, '');
});
