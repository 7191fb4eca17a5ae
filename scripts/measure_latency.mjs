// Measures how long the page takes to answer an edit, in headless Chromium: a person types into a field
// of the inputs (the sentence, d_model, n_heads, seed, the dropout seed, in turn, whichever the view
// shows; keystrokes `--delay` ms apart, so "32" is two edits and the first, "3", may be refused or run
// and be superseded), and the latency of that edit is the time from its LAST keystroke's input event
// (event.timeStamp: when the browser got the key, so time the page spent before it could handle it
// counts) to the end of the first frame that shows the heatmaps of the new inputs' run (the heatmaps
// panel's data-stale turns '0' for the inputs after the keystroke; the end of that frame is taken as a
// task posted from requestAnimationFrame, which runs once the frame is handed to the compositor). Each
// view (`--views`, default: the page as it opens, and chapter=reference, the whole dashboard, whose form has d_model, n_heads and
// seed) is one page load with `--edits` edits; it reports median, 95th percentile (nearest rank) and max
// per view and over all edits, how many results of superseded keystrokes were drawn, and the first view,
// cold and warm, from scripts/measure_first_view.mjs (the budget's own measure). A measurement, not a
// test: it prints figures and asserts nothing.
// Usage: node scripts/measure_latency.mjs --help
import { chromiumLaunchOptions } from './chromium.mjs';
import { spawn } from 'node:child_process';
import { loadavg, cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { measuringScript } from './cli.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const { args, seconds, onTimeout } = measuringScript({
  seconds: 1200,
  usage: `usage: node scripts/measure_latency.mjs [--edits N] [--delay ms] [--views '#a|#b'] [--dist folder] [--first-view-runs N] [--trace file.json] [--browser-ui] [--timeout S]
  --edits N            edits per view (default 20)
  --delay ms           between the keystrokes of one value (default 80)
  --views '#a|#b'      the views, one page load each (default: the page as it opens, and #chapter=reference)
  --dist folder        the build (default dist/, after \`bash scripts/build.sh dist\` or \`page\`)
  --first-view-runs N  runs of scripts/measure_first_view.mjs afterwards (default 5; 0 skips it)
  --trace file.json    a Chrome trace of the first view's edits
  --browser-ui         keep each new window's omnibox popup page (scripts/chromium.mjs)
  VERBOSE=1 prints every edit.`,
});
const { chromium } = await import('playwright-core'); // after --help is answered: importing it takes ~0.8 CPU-s
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const edits = Number(option('--edits', 20));
const delay = Number(option('--delay', 80)); // between keystrokes of one value: a quick typist
const views = option('--views', '|#chapter=reference').split('|');
const dist = resolve(option('--dist', join(root, 'dist')));
const firstViewRuns = Number(option('--first-view-runs', 5));
const tracePath = option('--trace', null);

// What is typed, per field, in turn: a value (typed over the field's text) or words added to the end of
// the sentence and taken away again. Each edit changes the inputs, so each needs a run.
const CYCLES = {
  text: [{ append: ' again' }, { erase: 6 }],
  d_model: ['32', '128', '64'],
  seed: ['2', '3', '4', '1'],
  n_heads: ['8', '4'], // the lesson's first view builds three heads: fewer than three is refused
  dropout_seed: ['2', '3', '1'],
  input_seed: ['8', '9', '7'],
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
  const log = { inputs: [], fresh: [], outdated: [] };
  root.addEventListener('input', (e) => log.inputs.push(e.timeStamp), true);
  // A redraw of the maps rewrites the enlarged map's data-attention; a fresh one ends with stale '0'.
  new MutationObserver((records) => {
    const t = performance.now();
    // Maps drawn while the inputs had moved on: a result drawn for outdated inputs.
    if (records.some((r) => r.attributeName === 'data-attention') && body.dataset.stale === '1') log.outdated.push(t);
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
          between: log.fresh.filter((f) => f.drawn > since && f.drawn < last).length,
          outdated: log.outdated.filter((t) => t > since && t <= fresh.drawn).length, status: fresh.status });
      } else setTimeout(poll, 10);
    };
    poll();
  }), since);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.ceil(0.95 * xs.length) - 1];
const figures = (xs) => `median ${median(xs).toFixed(1)} ms, p95 ${p95(xs).toFixed(1)} ms, min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}`;

/** Types one edit into `field` (see CYCLES). */
async function type(page, field, what) {
  const input = page.locator(`#f-${field}`);
  await input.focus();
  if (typeof what === 'string') {
    await page.keyboard.press('Control+A');
    await page.keyboard.type(what, { delay });
  } else {
    await page.keyboard.press('Control+End');
    if (what.append) await page.keyboard.type(what.append, { delay });
    for (let k = 0; k < (what.erase ?? 0); k++) await page.keyboard.press('Backspace', { delay: 0 }).then(() => page.waitForTimeout(delay));
  }
}

/** One view: a page load, then `edits` edits of the fields it shows; returns each edit's figures. */
async function measureView(browser, url, view, trace) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url + view);
  // The first result, every panel built, then the worker's warm-up and peak passes: the learner's first edit comes later.
  await page.waitForFunction(() => {
    const root = document.querySelector('#playground, attention-playground')?.shadowRoot;
    return root?.getElementById('status')?.textContent.startsWith('Ran in') && root.querySelector('.ap')?.dataset.settled === '1';
  }, null, { timeout: 30000 });
  await page.waitForTimeout(2000);
  await page.evaluate(installRecorder);
  const fields = [];
  for (const name of Object.keys(CYCLES)) {
    const input = page.locator(`#f-${name}`);
    if (await input.isVisible().catch(() => false) && await input.isEditable().catch(() => false)) fields.push(name);
  }
  if (!fields.length) throw new Error(`none of ${Object.keys(CYCLES).join(', ')} is shown at ${view || 'the page as it opens'}`);
  if (trace) await browser.startTracing(page, { path: trace, screenshots: false });
  const results = [];
  const turn = Object.fromEntries(fields.map((f) => [f, 0]));
  for (let k = 0; k < edits; k++) {
    const field = fields[k % fields.length];
    const what = CYCLES[field][turn[field]++ % CYCLES[field].length];
    const since = await page.evaluate(() => performance.now());
    await type(page, field, what);
    const r = await settleEdit(page, since);
    results.push({ view, field, what: typeof what === 'string' ? what : JSON.stringify(what), ...r });
    if (process.env.VERBOSE) console.log(`${view || '(as it opens)'} ${field} ${results.at(-1).what}: ${r.ms.toFixed(1)} ms (drawn at ${r.drawnMs.toFixed(1)}), ${r.keys} keys, ${r.between} fresh and ${r.outdated} outdated drawings before · ${r.status}`);
    await page.waitForTimeout(250 + (k % 5) * 50); // a pause before the next edit, not in step with anything
  }
  if (trace) await browser.stopTracing();
  if (problems.length) console.log(`  page errors at ${view || '(as it opens)'}: ${problems.join(' | ')}`);
  await context.close();
  return { view, fields, results };
}

const server = await serveApart(dist);
process.on('exit', () => server.close()); // also when the browser or the page fails
const browser = await chromium.launch(chromiumLaunchOptions({ browserUi: args.includes('--browser-ui'), learner: true }));
const loadBefore = loadavg()[0];
const measured = [];
let firstView = null; // the measure_first_view process, once started
onTimeout(async () => { // the views measured so far
  if (measured.length && !firstView) report(loadavg()[0]);
  firstView?.kill();
  await browser.close();
});
for (const [k, view] of views.entries()) measured.push(await measureView(browser, server.url, view, k === 0 ? tracePath : null));
await browser.close();
report(loadavg()[0]);
server.close(); // its pipe would keep this process alive until the time limit when no first-view run follows

/** The edits of the views measured (all, or those before the time limit). */
function report(loadAfter) {
  console.log(`edit → painted heatmaps in headless Chromium at 1280×900 (${dist}), keystrokes ${delay} ms apart, ${cpus().length} cores, ` +
    `1-minute load average ${loadBefore.toFixed(2)} at the start, ${loadAfter.toFixed(2)} at the end`);
  for (const { view, fields, results } of measured) {
    console.log(`  ${view || '(the page as it opens)'}: ${results.length} edits of ${fields.join(', ')}: ${figures(results.map((r) => r.ms))}`);
    for (const field of fields) {
      const mine = results.filter((r) => r.field === field).map((r) => r.ms);
      if (!mine.length) continue; // fewer edits than fields
      console.log(`    ${field}: median ${median(mine).toFixed(1)} ms, max ${Math.max(...mine).toFixed(1)} ms over ${mine.length} edits`);
    }
  }
  const all = measured.flatMap((m) => m.results);
  console.log(`  all ${all.length} edits: ${figures(all.map((r) => r.ms))}; maps updated in the page (before the frame's end): median ${median(all.map((r) => r.drawnMs)).toFixed(1)} ms`);
  console.log(`  maps drawn for outdated inputs (a keystroke had changed them): ${all.reduce((s, r) => s + r.outdated, 0)}, ` +
    `over ${all.reduce((s, r) => s + r.keys, 0)} keystrokes`);
  if (tracePath) console.log(`  trace: ${tracePath} (open in chrome://tracing or the Performance panel)`);
}

if (firstViewRuns > 0) {
  // The first view as scripts/measure_first_view.mjs measures it (the budget's own measure), within what is
  // left of this script's time.
  const left = Math.max(60, Math.floor(seconds - (Date.now() - started) / 1000));
  firstView = spawn(process.execPath, [join(root, 'scripts/measure_first_view.mjs'), '--runs', String(firstViewRuns), '--dist', dist, '--timeout', String(left)],
    { stdio: ['ignore', 'inherit', 'inherit'] });
  const status = await new Promise((done) => firstView.on('exit', done));
  if (status) process.exitCode = status;
}
