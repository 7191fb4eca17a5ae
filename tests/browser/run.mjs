// Runs browser test files with one Chromium for all of them: a Playwright browser server started here,
// which every file's startHarness() (harness.mjs) connects to through ATTN_BROWSER_WS instead of
// launching its own. Each file still runs in its own Node process (node --test), so files stay
// isolated; only the browser process is shared, and each file works in its own contexts.
// Usage: node tests/browser/run.mjs [node --test options] FILE...   (exit status: node --test's)
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { LAUNCH_OPTIONS } from './harness.mjs';

const args = process.argv.slice(2);
if (!args.some((a) => !a.startsWith('--'))) {
  console.error('usage: node tests/browser/run.mjs [node --test options] FILE...');
  process.exit(2);
}

const server = await chromium.launchServer(LAUNCH_OPTIONS);
const child = spawn(process.execPath, ['--test', ...args], {
  stdio: 'inherit',
  env: { ...process.env, ATTN_BROWSER_WS: server.wsEndpoint() },
});
// Ctrl-C or a CI cancel reaches the test run too; the browser is closed once it has ended.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) => {
  child.on('error', (e) => { console.error(`run.mjs: could not start node --test: ${e.message}`); resolve(1); });
  child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
});
await server.close();
process.exit(code);
