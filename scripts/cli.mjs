// The command line every measuring script shares (scripts/measure_*.mjs and the bench/*.mjs run by hand):
// --help prints the script's usage and its time limit and exits before anything starts (no browser, no
// build); --timeout S sets the overall limit. At the limit the script says so, prints what it measured so
// far (its own hook) and exits with status 124; if a long synchronous call holds its thread then, a
// watchdog thread ends the process GRACE_SECONDS later. tests/js/script_help.test.mjs holds every script to it.
import { writeSync } from 'node:fs';
import path from 'node:path';
import { Worker, isMainThread } from 'node:worker_threads';

export const TIMEOUT_STATUS = 124;
export const GRACE_SECONDS = 30;
const HOOK_SECONDS = 10; // at most this long for the hooks (printing, closing a browser) once the limit is reached

// The watchdog: a thread of its own, so it fires even while the main thread runs one long wasm call.
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
setTimeout(() => {
  require('node:fs').writeSync(2, workerData.message);
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.ms);
`;

/** The script's name as typed in its usage line: node <this>. */
const scriptName = () => path.relative(process.cwd(), process.argv[1] ?? 'script') || 'script';

/**
 * Reads the command line of a measuring script. usage: its usage text (the first line "usage: node …");
 * seconds: the default overall time limit. --help or -h prints the usage and the limit and exits 0.
 * graceSeconds: how long after the limit the watchdog kills a process whose thread is held (tests shorten it).
 * Returns { args: the command line without --timeout S, seconds, onTimeout(fn) }: fn (may be async)
 * runs when the limit is reached, to print what was measured so far or close a browser.
 */
export function measuringScript({ usage, seconds, argv = process.argv.slice(2), graceSeconds = GRACE_SECONDS }) {
  const name = scriptName();
  const limitText = (s) => `It stops by itself after ${s} s (--timeout S to change that): it then prints what it ` +
    `measured so far and exits with status ${TIMEOUT_STATUS}.`;
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage.trim()}\n${limitText(seconds)}\n`);
    process.exit(0);
  }
  const args = [];
  let limit = seconds;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a !== '--timeout' && !a.startsWith('--timeout=')) { args.push(a); continue; }
    const value = a === '--timeout' ? argv[++i] : a.slice('--timeout='.length);
    limit = Number(value);
    if (!(limit > 0) || !Number.isFinite(limit)) {
      process.stderr.write(`${name}: --timeout needs a number of seconds above 0, got ${JSON.stringify(value ?? '')}\n${usage.trim()}\n`);
      process.exit(2);
    }
  }
  const hooks = [];
  if (isMainThread) arm(name, limit, graceSeconds, hooks);
  return { args, seconds: limit, onTimeout: (fn) => hooks.push(fn) };
}

function arm(name, seconds, grace, hooks) {
  const message = `\n${name}: stopped: its overall time limit of ${seconds} s was reached (--timeout S to change it)`;
  const timer = setTimeout(async () => {
    writeSync(2, `${message}; what it measured is what it printed.\n`);
    // Closing a browser under a measurement fails the await that was waiting on it: that is the stop, not news.
    process.on('uncaughtException', () => {});
    process.on('unhandledRejection', () => {});
    const hooksDone = Promise.allSettled(hooks.map(async (fn) => fn()));
    await Promise.race([hooksDone, new Promise((resolve) => setTimeout(resolve, HOOK_SECONDS * 1000))]);
    process.exit(TIMEOUT_STATUS);
  }, seconds * 1000);
  timer.unref();
  const watchdog = new Worker(WATCHDOG, {
    eval: true,
    workerData: { ms: (seconds + grace) * 1000, pid: process.pid, message: `${message}, and a call still held it ${grace} s later: killed.\n` },
  });
  watchdog.unref();
}
