// Runs browser test files in lanes (lane.mjs, see runLane): a Node process each, under node:test, that
// runs one file after another, each file a suite with its own harness, contexts and pages, closed by the
// file's `after` before the next file starts. A lane has one Chromium of its own, launched by the first
// file's startHarness() (harness.mjs) in the lane's process and closed when the lane has no file left: the
// files of a lane share the browser process and the lane's Node process, nothing else. A process per file
// cost ~1 CPU-s each in Node and playwright-core loaded again (the stage's 50 files, 2 at a time: its Node
// processes took 57–63 CPU-s instead of 105–110, four runs of the stage on 2026-11-29). A browser in the
// lane's own process, rather than one browser server here that every lane reached over a WebSocket, spares
// each Playwright message a JSON round trip through a third process: on 12 of the files, 2 lanes, 229 and
// 248 CPU-s against 255 and 274 (whole machine, two A/B pairs, 2026-11-30).
//
// A file that says `// Runs alone` at the start of a line (one whose checks lean on the worker pool's
// timing: a deadline measured from a run's cost, a long run to cancel, the SIMD peak) runs first, one
// at a time. The other files then run --test-concurrency at a time (the number of cores if none is
// given), the longest first, so that no long file starts last, alone on one core at the end of the stage
// (in the order of their names visible_effect, 200-300 s then, did). A lane's output is printed in one
// piece when it ends (never interleaved with another's), with its TAP summary and each file's time;
// scripts/test.sh adds the summaries up.
// Usage: node tests/browser/run.mjs [--no-browser] [node --test options] FILE...   (exit status: 0 when
// every file passes; --test-concurrency=N and --test-timeout=MS take the `=` form). --no-browser starts no
// browser: scripts/test.sh runs the JavaScript API tests (tests/js) in lanes too, the same way.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { treeCpu, sum } from './cpu.mjs';

const LANE = join(dirname(fileURLToPath(import.meta.url)), 'lane.mjs');

// The longest files, longest first: their test time in seconds in a clean clone's full run (2 files at a
// time on 2 cores, build/test-logs/browser.log; main of 2026-11-29, 09:49, a slow day). Every other file
// comes after these, in name order; a file missing here only starts later, nothing else changes.
const LONGEST = ['axe_frames' /* 89 */, 'visible_effect' /* 85 */, 'axe' /* 72 */, 'cut_text' /* 48 */, 'steps' /* 47 */,
  'truth' /* 46 */, 'reflow' /* 40 */, 'exercise_kinds' /* 35 */, 'share' /* 32 */, 'export' /* 29 */, 'answers_hidden' /* 27 */,
  'page' /* 27 */, 'training' /* 25 */, 'hostile_links' /* 25 */, 'element' /* 24 */, 'pool' /* 22 */, 'inputs' /* 21 */,
  'embed_snippets' /* 20 */, 'derive' /* 20 */, 'scorm' /* 20 */, 'chapters' /* 19 */, 'sites' /* 16 */, 'modes' /* 15 */,
  'cost' /* 15 */, 'heads' /* 14 */];

const args = process.argv.slice(2);
// Test files end in .js or .mjs; anything else is an option for node:test (`--test-name-pattern x` too).
const isFile = (a) => !a.startsWith('--') && /\.m?js$/.test(a);
const files = args.filter(isFile);
const concurrencyOption = args.find((a) => a.startsWith('--test-concurrency='));
const timeoutOption = args.find((a) => a.startsWith('--test-timeout='));
// Options for node:test in each lane's process; the concurrency and the timeout are this runner's to apply.
const noBrowser = args.includes('--no-browser');
const options = args.filter((a) => !isFile(a) && a !== concurrencyOption && a !== timeoutOption && a !== '--no-browser');
const timeout = Number(timeoutOption?.split('=')[1]) || 0;
const concurrency = Math.max(1, Number(concurrencyOption?.split('=')[1]) || availableParallelism());
if (!files.length) {
  console.error('usage: node tests/browser/run.mjs [--no-browser] [node --test options] FILE...');
  process.exit(2);
}
const alone = files.filter((f) => /^\/\/ Runs alone\b/m.test(readFileSync(f, 'utf8')));
// A file that says `// Runs in a process of its own` (one whose checks need modules no other file has used
// in its process: a wasm module's first memory, its prototypes unpatched) runs in a lane of its own, beside
// the others.
const own = files.filter((f) => !alone.includes(f) && /^\/\/ Runs in a process of its own\b/m.test(readFileSync(f, 'utf8')));
const rank = (f) => { const i = LONGEST.indexOf(basename(f).replace(/\.test\.m?js$/, '')); return i < 0 ? LONGEST.length : i; };
const together = files.filter((f) => !alone.includes(f) && !own.includes(f)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

const children = new Set();
let stopped = false;
// Ctrl-C or a CI cancel reaches the lanes too (each ends at once, its browser with it: lane.mjs).
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => { stopped = true; for (const c of children) c.kill(signal); process.exitCode = 1; });
}

/**
 * Runs test files from `queue` in one lane: a Node process (lane.mjs) that runs them one after another
 * under node:test's TAP reporter, each file a suite named by its path, taking the next from the queue
 * when the last has ended. What `node --test` would do besides is done here: --test-timeout (node:test
 * ignores it outside `node --test`) stops a file after that many ms. A file that stops its lane (an exit, a
 * crash, the timeout) is a failure named for it, the tests of the files the lane finished before it are
 * counted (their summary is printed here, the lane's own never came), and the files after it run in a new
 * lane. A file whose suite failed outside its tests (an `after` or `before` that threw) is a failure named
 * for it too: node:test's summary counts tests, not suites. A lane that does not end once it has no file
 * left (a file left something open) is stopped and its last file named.
 * The lane's output is printed in one piece when it ends (lanes run side by side), then each file's time,
 * and its CPU when `measured` (one lane: all the CPU used meanwhile is that file's).
 * Resolves with the statuses (one per lane process).
 */
async function runLane(queue, measured) {
  const statuses = [];
  while (queue.length && !stopped) {
    const { status, handed } = await laneProcess(queue, measured);
    statuses.push(status);
    if (!handed && status !== 0) break; // it ended before taking a file: another would too (a bad option, lane.mjs broken)
  }
  return statuses;
}

/** How long a lane may take to end after its last file (node:test's summary takes well under a second). */
const END_GRACE_MS = Number(process.env.ATTN_LANE_END_GRACE_MS) || 30000; // shorter in tests/js/browser_lanes.test.mjs

// The lanes' environment: ATTN_BROWSER_LANE (harness.mjs keeps one browser for the lane's files; none with
// --no-browser), and no NODE_TEST_CONTEXT (set when this runner itself runs under `node --test`, as
// tests/js/browser_lanes.test.mjs does): with it a lane would report to a parent test runner in V8's
// serialised form instead of printing the TAP read here.
const laneEnv = { ...process.env };
if (noBrowser) delete laneEnv.ATTN_BROWSER_LANE; else laneEnv.ATTN_BROWSER_LANE = '1';
delete laneEnv.NODE_TEST_CONTEXT;

/**
 * The CPU of the lanes' browsers that cpuSeconds() can no longer see: each lane reports its Chromium's
 * processes (by kind) just before it closes it, and how much of that it then reaped (that part reaches
 * this runner's own count through the lane's, as the lane's children's time).
 */
const closedBrowsers = { byKind: {}, reaped: 0 };

/** One lane process, until the queue is empty or a file stops it (see runLane). Resolves with { status, handed }. */
function laneProcess(queue, measured) {
  const reporter = options.some((o) => o.startsWith('--test-reporter')) ? [] : ['--test-reporter=tap'];
  const child = spawn(process.execPath, [...reporter, ...options, LANE], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: laneEnv,
  });
  children.add(child);
  const out = [];
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => out.push(d));
  const times = []; // lines: each file's time (and CPU)
  let handed = 0; // files given to this lane
  let last = null; // the last file it ran
  let current = null; // { file, started, cpu } while a file runs
  let stoppedWhy = null; // why this runner stopped the lane (the file's timeout, or no end after its last file)
  let timer = null;
  const stop = (why) => {
    stoppedWhy = why;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  };
  child.on('message', (m) => {
    if (m.browserCpu) {
      for (const [kind, seconds] of Object.entries(m.browserCpu.byKind)) closedBrowsers.byKind[kind] = (closedBrowsers.byKind[kind] ?? 0) + seconds;
      closedBrowsers.reaped += m.browserCpu.reaped;
    } else if (m.next) {
      // A lane this runner is stopping gets no more files (it may ask for one as it goes: its last file failed
      // once the browser went), nor a grace timer: its SIGKILL is on the way.
      const file = stopped || stoppedWhy ? null : queue.shift() ?? null;
      if (file) handed++;
      else if (!stoppedWhy) timer = setTimeout(() => stop(`did not end within ${END_GRACE_MS / 1000} s of its last file: something it opened is still open`), END_GRACE_MS);
      child.send({ file });
    } else if (m.started) {
      current = { file: m.started, started: Date.now(), cpu: measured ? cpuSeconds()?.total : undefined };
      if (timeout > 0) timer = setTimeout(() => stop(`timed out after ${timeout} ms`), timeout);
    } else if (m.ended) {
      clearTimeout(timer);
      times.push(fileTime(current));
      last = current.file;
      current = null;
    }
  });
  return new Promise((resolve) => {
    child.on('error', (e) => { out.push(Buffer.from(`run.mjs: a lane's process failed: ${e.message}\n`)); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const text = Buffer.concat(out).toString();
      process.stdout.write(text);
      const ended = signal ? `signal ${signal}` : `status ${code}`;
      const failed = []; // [file, why]
      if (current) { // the file that stopped the lane
        failed.push([current.file, stoppedWhy ?? `ended its lane with ${ended}`]);
        times.push(fileTime(current));
      } else if (stoppedWhy) failed.push([last ?? '(a lane)', `its lane ${stoppedWhy}`]);
      else if (!handed && code !== 0) failed.push(['(a lane)', `ended with ${ended} before taking a file`]);
      // The lane printed no summary of its own: one for the files it finished.
      if (!/\n# tests \d+/.test(text) && handed) process.stdout.write(finishedSummary(text));
      for (const [file, error] of failedSuites(text)) failed.push([file, `failed outside its tests: ${error}`]);
      const status = failed.length ? 1 : code ?? 1;
      if (status !== 0 && !failed.length && !reportsFailure(text)) failed.push(['(a lane)', `ended with ${ended}, its summary counting no failure`]);
      for (const [file, why] of failed) process.stdout.write(`not ok 1 - ${file}\n  ---\n  error: ${JSON.stringify(why)}\n  ...\n1..1\n# tests 1\n# pass 0\n# fail 1\n`);
      for (const line of times) console.log(line);
      resolve({ status, handed });
    });
  });
}

/** The line run.mjs prints for a file that ran from `run.started` until now. */
function fileTime(run) {
  const cpu = run.cpu === undefined ? null : cpuSeconds()?.total - run.cpu;
  return `# run.mjs: ${run.file} in ${((Date.now() - run.started) / 1000).toFixed(1)} s${Number.isFinite(cpu) ? `, ${cpu.toFixed(1)} s of CPU` : ''}`;
}

/**
 * The files whose suite failed other than by a failing test (node:test's failureType is 'subtestsFailed'
 * then), as [file, error]: a hook that threw. Their summary counts tests only, so without this a failing
 * `after` beside a failing test elsewhere in the lane would go unnamed.
 */
function failedSuites(text) {
  return [...text.matchAll(/^not ok \d+ - (.+)\n {2}---\n([\s\S]*?)\n {2}\.\.\.$/gm)]
    .filter((m) => !/^ {2}failureType: 'subtestsFailed'$/m.test(m[2]))
    .map((m) => [m[1], m[2].match(/^ {2}error: (.*)$/m)?.[1] ?? 'see above']);
}

/**
 * A TAP summary of the files a stopped lane finished: their tests (each file's suite holds them at the
 * first level: the browser test files have no suites or subtests of their own) up to its last file's end.
 */
function finishedSummary(text) {
  const ends = [...text.matchAll(/^(?:not )?ok \d+ - .+$/gm)];
  const done = ends.length ? text.slice(0, ends.at(-1).index) : '';
  const results = [...done.matchAll(/^ {4}(not )?ok \d+ - .*$/gm)].filter((m) => !/ # (?:SKIP|TODO)\b/i.test(m[0]));
  const fail = results.filter((m) => m[1]).length;
  return `# tests ${results.length}\n# pass ${results.length - fail}\n# fail ${fail}\n`;
}

/** Whether TAP output ends with a summary that counts at least one failure (a "# fail N" after "# tests N"). */
function reportsFailure(text) {
  const summary = text.slice(text.lastIndexOf('\n# tests '));
  return /\n# fail [1-9]/.test(summary);
}

/**
 * The CPU seconds this runner and everything it started have used so far, by kind of process (null where
 * Linux's /proc cannot be read): its live processes (cpu.mjs), the lanes it has reaped (their Node and what
 * they started), and the browsers lanes have closed as they reported them (not twice: what a lane reaped
 * of its browser is in the lane's count).
 */
function cpuSeconds() {
  const cpu = treeCpu({ rootKind: 'node run.mjs', reapedKind: 'node test files' });
  if (!cpu) return null;
  const byKind = { ...cpu.byKind };
  for (const [kind, seconds] of Object.entries(closedBrowsers.byKind)) byKind[kind] = (byKind[kind] ?? 0) + seconds;
  byKind['node test files'] = (byKind['node test files'] ?? 0) - closedBrowsers.reaped;
  return { total: sum(byKind), byKind };
}

const started = Date.now();
const statuses = [];
for (const file of alone) statuses.push(...await runLane([file], true));
// `concurrency` lanes, each taking the next file of the queue (the longest first) when its last one ends.
// One lane (--test-concurrency=1): each file's CPU is its own, and is printed (to compare two ways per file).
const queue = [...together];
const lanes = Math.min(concurrency, queue.length + own.length);
await Promise.all(Array.from({ length: lanes }, async () => {
  while (own.length && !stopped) statuses.push(...await runLane([own.shift()], lanes === 1));
  statuses.push(...await runLane(queue, lanes === 1));
}));
// Files no lane took (every lane ended before taking one): each a failure, so that none passes unrun.
for (const file of queue.splice(0)) {
  process.stdout.write(`not ok 1 - ${file}\n  ---\n  error: 'not run: no lane could take it'\n  ...\n1..1\n# tests 1\n# pass 0\n# fail 1\n`);
  statuses.push(1);
}
const cpu = cpuSeconds();
if (cpu !== null) {
  console.log(`# run.mjs: ${files.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s, ${cpu.total.toFixed(1)} s of CPU (Chromium's processes counted)`);
  const kinds = Object.entries(cpu.byKind).filter(([, s]) => s >= 0.05).sort((x, y) => y[1] - x[1]);
  console.log(`# run.mjs: CPU by process: ${kinds.map(([kind, s]) => `${kind} ${s.toFixed(1)} s`).join(', ')}`);
}
// stdout may be a pipe (scripts/test.sh tees it), where a lane's output (hundreds of kB) is written in
// pieces: exiting before the last has gone cut the log short, with its summary and this runner's last lines.
await new Promise((resolve) => process.stdout.write('', resolve));
process.exit(statuses.some((s) => s !== 0) || process.exitCode ? 1 : 0);
