// Runs browser test files with one Chromium for all of them: a Playwright browser server started here,
// which every file's startHarness() (harness.mjs) connects to through ATTN_BROWSER_WS instead of
// launching its own. Each file still runs in its own Node process (node --test), so files stay
// isolated; only the browser process is shared, and each file works in its own contexts.
//
// A file that says `// Runs alone` at the start of a line (one whose checks lean on the worker pool's
// timing: a deadline measured from a run's cost, a long run to cancel, the SIMD peak) runs first, one
// at a time; the other files then run at the given --test-concurrency (node's default if none). Both runs print
// their TAP summary; scripts/test.sh adds them up.
// Usage: node tests/browser/run.mjs [node --test options] FILE...   (exit status: 0 when both runs pass)
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { LAUNCH_OPTIONS } from './harness.mjs';

const args = process.argv.slice(2);
// Test files end in .js or .mjs; anything else is an option for node --test (`--test-name-pattern x` too).
const isFile = (a) => !a.startsWith('--') && /\.m?js$/.test(a);
const files = args.filter(isFile);
const options = args.filter((a) => !isFile(a));
if (!files.length) {
  console.error('usage: node tests/browser/run.mjs [node --test options] FILE...');
  process.exit(2);
}
const alone = files.filter((f) => /^\/\/ Runs alone\b/m.test(readFileSync(f, 'utf8')));
const together = files.filter((f) => !alone.includes(f));

const server = await chromium.launchServer(LAUNCH_OPTIONS);
let child = null;
// Ctrl-C or a CI cancel reaches the test run too; the browser is closed once it has ended.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { child?.kill(signal); process.exitCode = 1; });

/** One `node --test` run of `group` with `extra` options after the given ones; resolves with its exit status. */
function run(group, extra) {
  if (!group.length) return Promise.resolve(0);
  child = spawn(process.execPath, ['--test', ...options, ...extra, ...group], {
    stdio: 'inherit',
    env: { ...process.env, ATTN_BROWSER_WS: server.wsEndpoint() },
  });
  return new Promise((resolve) => {
    child.on('error', (e) => { console.error(`run.mjs: could not start node --test: ${e.message}`); resolve(1); });
    child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
}

const first = await run(alone, ['--test-concurrency=1']);
const second = process.exitCode ? 1 : await run(together, []);
await server.close();
process.exit(first || second || process.exitCode || 0);
