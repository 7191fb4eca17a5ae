// Measures how long the page takes to answer an edit, in headless Chromium: a person types a new value
// into a field of the inputs (d_model, n_heads, seed, input_seed, n_q, in turn; keystrokes `--delay` ms
// apart, so "32" is two edits and the first, "3", may be refused or run and be superseded), and the
// latency of that edit is the time from its LAST keystroke's input event (event.timeStamp: when the
// browser got the key, so time the page spent before it could handle it counts) to the end of the first
// frame that shows the heatmaps of the new inputs' run (the heatmaps panel's data-stale turns '0' for the
// inputs after the keystroke; the end of that frame is taken as a task posted from requestAnimationFrame,
// which runs once the frame is handed to the compositor). It reports median, 95th percentile (nearest
// rank) and max over the edits, what the heatmaps drew in between (no stale draws), and the first view,
// cold and warm, from scripts/measure_first_view.mjs (the same page, the same figures as before).
// A measurement, not a test: it prints figures and asserts nothing.
// Usage: node scripts/measure_latency.mjs [--edits N] [--delay ms] [--hash '#…'] [--dist folder]
//   [--first-view-runs N] (0 skips the first view) [--trace file.json] (a Chrome trace of the edits)
//   (after `bash scripts/build.sh dist` or `page`)
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { loadavg, cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const edits = Number(option('--edits', 36));
const delay = Number(option('--delay', 80)); // between keystrokes of one value: a quick typist
const hash = option('--hash', '');
const dist = resolve(option('--dist', join(root, 'dist')));
const firstViewRuns = Number(option('--first-view-runs', 5));
const tracePath = option('--trace', null);

// The values typed, per field, in turn (each differs from the one before it, so every edit needs a run).
const CYCLES = {
  seed: ['2', '3', '4', '1'],
  d_model: ['32', '128', '64'],
  n_heads: ['2', '8', '4'],
  input_seed: ['8', '9', '7'],
  n_q: ['12', '6', '8'],
};

/** scripts/serve.mjs in its own process (served from this one, files would wait on the browser's messages). */
async function serveApart(dir) {
  const child = spawn(process.execPath, [join(root, 'scripts/serve.mjs'), dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolveUrl, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/at (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (m) resolveUrl(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve.mjs exited (${code}) before serving`)));
  });
  return { url, close: () => child.kill() };
}

/** In the page: records every input event and every redraw of the heatmaps with fresh results. */
function installRecorder() {
  const root = document.querySelector('#playground, attention-playground').shadowRoot;
  const body = root.querySelector('[data-panel="heatmaps"] .panel-body');
  const log = { inputs: [], fresh: [], draws: 0 };
  root.addEventListener('input', (e) => log.inputs.push(e.timeStamp), true);
  // A redraw of the maps rewrites the enlarged map's data-attention; a fresh one ends with stale '0'.
  new MutationObserver((records) => {
    const t = performance.now();
    if (records.some((r) => r.attributeName === 'data-attention')) log.draws++;
    if (body.dataset.stale === '0' && records.some((r) => r.attributeName === 'data-stale' || r.attributeName === 'data-attention')) {
      const entry = { drawn: t, painted: null, status: root.getElementById('status')?.textContent ?? '' };
      log.fresh.push(entry);
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { entry.painted = performance.now(); };
        channel.port2.postMessage(0);
      });
    }
  }).observe(root, { subtree: true, attributes: true, attributeFilter: ['data-stale', 'data-attention'] });
  globalThis.__latency = log;
}

/** Waits until the edit typed after `since` has its fresh, painted heatmaps; returns its figures. */
async function settleEdit(page, since) {
  return page.evaluate((since) => new Promise((done, fail) => {
    const log = globalThis.__latency;
    const give = setTimeout(() => fail(new Error('no fresh heatmaps within 20 s of the edit')), 20000);
    const poll = () => {
      const last = log.inputs.at(-1);
      const fresh = log.fresh.find((f) => f.drawn > last && f.painted !== null);
      const root = document.querySelector('#playground, attention-playground').shadowRoot;
      const stale = root.querySelector('[data-panel="heatmaps"] .panel-body')?.dataset.stale;
      if (fresh && stale === '0') {
        clearTimeout(give);
        done({ last, drawnMs: fresh.drawn - last, ms: fresh.painted - last, keys: log.inputs.filter((t) => t > since).length,
          staleDraws: log.fresh.filter((f) => f.drawn > since && f.drawn < last).length, status: fresh.status });
      } else setTimeout(poll, 10);
    };
    poll();
  }), since);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.ceil(0.95 * xs.length) - 1];

const server = await serveApart(dist);
process.on('exit', () => server.close()); // also when the browser or the page fails
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
const loadBefore = loadavg()[0];
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
const problems = [];
page.on('pageerror', (e) => problems.push(e.message));
await page.goto(server.url + hash);
// The first result, every panel built, then the worker's warm-up and peak passes: the learner's first edit comes later.
await page.waitForFunction(() => {
  const root = document.querySelector('#playground, attention-playground')?.shadowRoot;
  return root?.getElementById('status')?.textContent.startsWith('Ran in') && root.querySelector('.ap')?.dataset.settled === '1';
}, null, { timeout: 30000 });
await page.waitForTimeout(2000);
await page.evaluate(installRecorder);

// Fields the view shows (a chapter may show only some of them).
const fields = [];
for (const name of Object.keys(CYCLES)) {
  const input = page.locator(`#f-${name}`);
  if (await input.isVisible().catch(() => false) && await input.isEditable().catch(() => false)) fields.push(name);
}
if (!fields.length) throw new Error(`none of ${Object.keys(CYCLES).join(', ')} is shown at ${hash || 'the default view'}`);
if (tracePath) await browser.startTracing(page, { path: tracePath, screenshots: false });

const results = [];
const turn = Object.fromEntries(fields.map((f) => [f, 0]));
for (let k = 0; k < edits; k++) {
  const field = fields[k % fields.length];
  const value = CYCLES[field][turn[field]++ % CYCLES[field].length];
  const input = page.locator(`#f-${field}`);
  await input.focus();
  await page.keyboard.press('Control+A');
  const since = await page.evaluate(() => performance.now());
  await page.keyboard.type(value, { delay });
  const r = await settleEdit(page, since);
  results.push({ field, value, ...r });
  if (process.env.VERBOSE) console.log(`${field}=${value}: ${r.ms.toFixed(1)} ms (drawn at ${r.drawnMs.toFixed(1)}), ${r.keys} keys, ${r.staleDraws} draws before · ${r.status}`);
  await page.waitForTimeout(250 + (k % 5) * 50); // a pause before the next edit, not in step with anything
}
if (tracePath) await browser.stopTracing();
const loadAfter = loadavg()[0];
await browser.close();
server.close();

const ms = results.map((r) => r.ms);
console.log(`edit → redrawn heatmaps in headless Chromium (${dist}${hash ? `, ${hash}` : ''}), ${results.length} edits of ${fields.join(', ')}, ` +
  `keystrokes ${delay} ms apart, ${cpus().length} cores, 1-minute load average ${loadBefore.toFixed(2)} at the start, ${loadAfter.toFixed(2)} at the end`);
console.log(`  latency: median ${median(ms).toFixed(1)} ms, p95 ${p95(ms).toFixed(1)} ms, min ${Math.min(...ms).toFixed(1)}, max ${Math.max(...ms).toFixed(1)}`);
console.log(`  maps drawn (before the frame ends): median ${median(results.map((r) => r.drawnMs)).toFixed(1)} ms`);
for (const field of fields) {
  const mine = results.filter((r) => r.field === field).map((r) => r.ms);
  console.log(`  ${field}: median ${median(mine).toFixed(1)} ms, max ${Math.max(...mine).toFixed(1)} ms over ${mine.length} edits`);
}
const stale = results.reduce((s, r) => s + r.staleDraws, 0);
console.log(`  fresh heatmaps drawn for inputs that a later keystroke replaced: ${stale} (of ${results.reduce((s, r) => s + r.keys - 1, 0)} superseded keystrokes)`);
if (problems.length) console.log(`  page errors: ${problems.join(' | ')}`);
if (tracePath) console.log(`  trace: ${tracePath} (open in chrome://tracing or the Performance panel)`);

if (firstViewRuns > 0) {
  // The first view as scripts/measure_first_view.mjs measures it (the budget's own measure).
  const child = spawn(process.execPath, [join(root, 'scripts/measure_first_view.mjs'), '--runs', String(firstViewRuns), '--dist', dist, ...(hash ? ['--hash', hash] : [])],
    { stdio: ['ignore', 'inherit', 'inherit'] });
  await new Promise((done) => child.on('exit', done));
}
