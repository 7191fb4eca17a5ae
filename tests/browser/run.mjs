// Runs browser test files with one Chromium for all of them: a Playwright browser server started here,
// which every file's startHarness() (harness.mjs) connects to through ATTN_BROWSER_WS instead of
// launching its own. The files run in lanes (lane.mjs, see runLane): a Node process each, under
// node:test, that runs one file after another, each file a suite with its own harness, contexts and
// pages, closed by the file's `after` before the next file starts. Only the browser process and the
// lane's Node process are shared: a process per file cost ~1 CPU-s each in Node and playwright-core
// loaded again (the stage's 50 files, 2 at a time: 678 against 625 CPU-s and 387 against 358 s, 2026-11-29).
//
// A file that says `// Runs alone` at the start of a line (one whose checks lean on the worker pool's
// timing: a deadline measured from a run's cost, a long run to cancel, the SIMD peak) runs first, one
// at a time. The other files then run --test-concurrency at a time (the number of cores if none is
// given), the longest first, so that no long file starts last, alone on one core at the end of the stage
// (in the order of their names visible_effect, 200-300 s then, did). A lane's output is printed in one
// piece when it ends (never interleaved with another's), with its TAP summary and each file's time;
// scripts/test.sh adds the summaries up.
// Usage: node tests/browser/run.mjs [node --test options] FILE...   (exit status: 0 when every file passes)
// (--test-concurrency=N and --test-timeout=MS take the `=` form.)
import { loadPlaywright } from './code_cache.mjs';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAUNCH_OPTIONS } from './harness.mjs';

const { chromium } = loadPlaywright();
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
// Options for node:test in each file's process; the concurrency and the timeout are this runner's to apply.
const options = args.filter((a) => !isFile(a) && a !== concurrencyOption && a !== timeoutOption);
const timeout = Number(timeoutOption?.split('=')[1]) || 0;
const concurrency = Math.max(1, Number(concurrencyOption?.split('=')[1]) || availableParallelism());
if (!files.length) {
  console.error('usage: node tests/browser/run.mjs [node --test options] FILE...');
  process.exit(2);
}
const alone = files.filter((f) => /^\/\/ Runs alone\b/m.test(readFileSync(f, 'utf8')));
const rank = (f) => { const i = LONGEST.indexOf(basename(f).replace(/\.test\.m?js$/, '')); return i < 0 ? LONGEST.length : i; };
const together = files.filter((f) => !alone.includes(f)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

const server = await chromium.launchServer(LAUNCH_OPTIONS);
const children = new Set();
let stopped = false;
// Ctrl-C or a CI cancel reaches the test runs too; the browser is closed once they have ended.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => { stopped = true; for (const c of children) c.kill(signal); process.exitCode = 1; });
}

/**
 * Runs test files from `queue` in one lane: a Node process (lane.mjs) that runs them one after another
 * under node:test's TAP reporter, each file a suite named by its path, taking the next from the queue
 * when the last has ended. What `node --test` would do besides is done here: --test-timeout (node:test
 * ignores it outside `node --test`) stops a file after that many ms; a lane that ends with a failing
 * status its summary does not show (a file's `after` failed, a file did not load, the lane crashed or a
 * file timed out) gets a summary counting one failure more per file concerned, named. A file that stops
 * its lane (a crash, the timeout) is that file's failure; the files after it run in a new lane.
 * The lane's output is printed in one piece when it ends (lanes run side by side), then each file's time,
 * and its CPU when `measured` (one lane: all the CPU used meanwhile is that file's).
 * Resolves with the statuses (one per lane process).
 */
async function runLane(queue, measured) {
  const statuses = [];
  while (queue.length && !stopped) statuses.push(await laneProcess(queue, measured));
  return statuses;
}

// The lanes' environment: the browser's address, and no NODE_TEST_CONTEXT (set when this runner itself runs
// under `node --test`, as tests/js/browser_lanes.test.mjs does): with it a lane would report to a parent
// test runner in V8's serialised form instead of printing the TAP read here.
const laneEnv = { ...process.env, ATTN_BROWSER_WS: server.wsEndpoint() };
delete laneEnv.NODE_TEST_CONTEXT;

/** One lane process, until the queue is empty or a file stops it (see runLane). Resolves with its status. */
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
  let current = null; // { file, started, cpu } while a file runs
  let timedOut = null;
  let timer = null;
  child.on('message', (m) => {
    if (m.next) {
      const file = stopped ? null : queue.shift() ?? null;
      child.send({ file });
    } else if (m.started) {
      current = { file: m.started, started: Date.now(), cpu: measured ? cpuSeconds()?.total : undefined };
      if (timeout > 0) {
        timer = setTimeout(() => {
          timedOut = current.file;
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5000).unref();
        }, timeout);
      }
    } else if (m.ended) {
      clearTimeout(timer);
      times.push(fileTime(current));
      current = null;
    }
  });
  return new Promise((resolve) => {
    child.on('error', (e) => { out.push(Buffer.from(`run.mjs: could not start node: ${e.message}\n`)); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const text = Buffer.concat(out).toString();
      process.stdout.write(text);
      const failed = [];
      if (current) { // the file that stopped the lane
        failed.push([current.file, timedOut ? `timed out after ${timeout} ms` : `ended the lane with ${signal ? `signal ${signal}` : `status ${code}`}`]);
        times.push(fileTime(current));
      }
      const status = failed.length ? 1 : code ?? 1;
      if (status !== 0 && !failed.length && !reportsFailure(text)) {
        const named = failingSuites(text);
        failed.push(...(named.length ? named : ['(the lane)']).map((file) => [file, `ended with status ${code ?? signal}, its summary counting no failure`]));
      }
      for (const [file, why] of failed) process.stdout.write(`not ok 1 - ${file}\n  ---\n  error: '${why}'\n  ...\n1..1\n# tests 1\n# pass 0\n# fail 1\n`);
      for (const line of times) console.log(line);
      resolve(status);
    });
  });
}

/** The line run.mjs prints for a file that ran from `run.started` until now. */
function fileTime(run) {
  const cpu = run.cpu === undefined ? null : cpuSeconds()?.total - run.cpu;
  return `# run.mjs: ${run.file} in ${((Date.now() - run.started) / 1000).toFixed(1)} s${Number.isFinite(cpu) ? `, ${cpu.toFixed(1)} s of CPU` : ''}`;
}

/** The files whose suite failed in a lane's TAP output (its top-level "not ok N - file" lines). */
function failingSuites(text) {
  return [...text.matchAll(/^not ok \d+ - (.+)$/gm)].map((m) => m[1]);
}

/** Whether TAP output ends with a summary that counts at least one failure (a "# fail N" after "# tests N"). */
function reportsFailure(text) {
  const summary = text.slice(text.lastIndexOf('\n# tests '));
  return /\n# fail [1-9]/.test(summary);
}

/**
 * The CPU seconds this runner and everything it started have used so far (Linux's /proc; null elsewhere):
 * each live descendant's own time and that of the children it has reaped, by kind of process. Read before
 * the browser is closed, as Chromium's renderers are reaped by its zygote, which dies with it unreaped
 * (`time` on this command misses them: page.test, 15 s of CPU by `time`, is 47 s with them); the zygote's
 * reaped children are the renderers that have ended, so they count as renderers.
 */
function cpuSeconds() {
  const parent = new Map();
  const own = new Map();
  const reaped = new Map();
  let ids;
  try { ids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)); } catch { return null; }
  for (const id of ids) {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' '); // after "pid (name) " (a name may hold ") ")
      parent.set(id, fields[1]);
      own.set(id, Number(fields[11]) + Number(fields[12])); // utime stime
      reaped.set(id, Number(fields[13]) + Number(fields[14])); // cutime cstime
    } catch { /* ended meanwhile */ }
  }
  const me = String(process.pid);
  const mine = (id) => { for (let at = id, hops = 0; at && hops < 30; at = parent.get(at), hops++) if (at === me) return true; return false; };
  const byKind = {};
  const add = (kind, ticks) => { byKind[kind] = (byKind[kind] ?? 0) + ticks / 100; }; // USER_HZ: 100 on Linux
  for (const [id, ticks] of own) {
    if (!mine(id)) continue;
    // A process that has ended but is not reaped yet (a zombie) has no command line: it is its parent's child.
    const kind = id === me ? 'node run.mjs (the browser server)' : processKind(id) ?? childKind(processKind(parent.get(id)));
    add(kind, ticks);
    // The zygote reaps the renderers, this runner its test files' processes (and what they started).
    add(id === me ? 'node test files' : childKind(kind), reaped.get(id));
  }
  return { total: Object.values(byKind).reduce((sum, s) => sum + s, 0), byKind };
}

/** The kind of a process's children: the zygote's are renderers; anything else's are of its own kind. */
const childKind = (kind) => (kind === 'zygote' ? 'renderer' : kind ?? 'other');

/**
 * What a process of this run is: a Chromium process by its --type (the browser has none), node, or
 * another; null when it has no command line (ended, not reaped yet).
 */
function processKind(id) {
  let line; // NUL-separated, or one string with spaces as a forked Chromium process rewrites it
  try { line = readFileSync(`/proc/${id}/cmdline`, 'utf8').replaceAll('\0', ' ').trim(); } catch { return null; }
  if (!line) return null;
  const type = line.match(/ --type=(\S+)/)?.[1];
  if (type) return type;
  const program = line.split(' ')[0];
  if (/chrom/.test(program)) return 'browser';
  return /node$/.test(program) ? 'node test files' : 'other';
}

const started = Date.now();
const statuses = [];
for (const file of alone) statuses.push(...await runLane([file], true));
// `concurrency` lanes, each taking the next file of the queue (the longest first) when its last one ends.
// One lane (--test-concurrency=1): each file's CPU is its own, and is printed (to compare two ways per file).
const queue = [...together];
const lanes = Math.min(concurrency, queue.length);
await Promise.all(Array.from({ length: lanes }, async () => { statuses.push(...await runLane(queue, lanes === 1)); }));
const cpu = cpuSeconds();
if (cpu !== null) {
  console.log(`# run.mjs: ${files.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s, ${cpu.total.toFixed(1)} s of CPU (Chromium's processes counted)`);
  const kinds = Object.entries(cpu.byKind).filter(([, s]) => s >= 0.05).sort((x, y) => y[1] - x[1]);
  console.log(`# run.mjs: CPU by process: ${kinds.map(([kind, s]) => `${kind} ${s.toFixed(1)} s`).join(', ')}`);
}
await server.close();
process.exit(statuses.some((s) => s !== 0) || process.exitCode ? 1 : 0);
