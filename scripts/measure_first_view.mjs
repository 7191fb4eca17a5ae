// Measures the first view of the page in headless Chromium: the time from navigation to the first
// drawn result (the page's performance mark 'attention-first-result', set once the heatmaps of the first
// run are drawn), cold (a fresh browser context: empty cache) and warm (a second visit in the same
// context, after the first has settled and the tab went to about:blank: the browser's caches are warm),
// with the requests and bytes fetched before that moment, and the gzipped size of the element module and
// the SIMD wasm. A measurement, not a test: it prints figures and asserts nothing.
// Usage: node scripts/measure_first_view.mjs [--runs N] [--hash '#…'] [--dist folder] [--compare folder]
//   (after `bash scripts/build.sh page`; --compare measures another build in turn with this one, each
//   first in every other round). MARKS=1 prints each view's attention-* marks (the phases of the first view).
//   --browser-ui keeps each new window's omnibox popup page (scripts/chromium.mjs): left out by default since 2026-11-27.
import { chromiumLaunchOptions } from './chromium.mjs';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { spawn } from 'node:child_process';

import { measuringScript } from './cli.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { args, onTimeout } = measuringScript({
  seconds: 900,
  usage: `usage: node scripts/measure_first_view.mjs [--runs N] [--hash '#…'] [--dist folder] [--compare folder] [--browser-ui] [--timeout S]
  --runs N         cold and warm views per build (default 9)
  --hash '#…'      the view to open (default: the page as it opens)
  --dist folder    the build to measure (default dist/, after \`bash scripts/build.sh page\`)
  --compare folder another build, measured in turn with this one
  --browser-ui     keep each new window's omnibox popup page
  MARKS=1 prints each view's attention-* marks.`,
});
const { chromium } = await import('playwright-core'); // after --help is answered: importing it takes ~0.8 CPU-s
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const runs = Number(option('--runs', 9));
const hash = option('--hash', '');
const dist = resolve(option('--dist', join(root, 'dist'))); // another build, e.g. an older one, to compare

const compare = option('--compare', null); // another build measured in turn with this one (same load for both)

/**
 * scripts/serve.mjs in a process of its own: served from this process, the files would wait whenever
 * this process is busy with the browser's messages, and the figures would measure that instead.
 */
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
  return { url, close: async () => { child.kill(); } };
}

const builds = [{ name: 'this build', dir: dist, server: await serveApart(dist) }];
let browser = null;
// At the time limit: the views measured so far, then the browser and the servers closed.
onTimeout(async () => {
  if (builds.some((b) => b.cold?.length)) await report();
  await browser?.close();
  for (const build of builds) await build.server.close();
});
if (compare) builds.push({ name: compare, dir: resolve(compare), server: await serveApart(resolve(compare)) });
// As a learner's browser shows the page (scripts/chromium.mjs): paint holding on, and without each new
// window's omnibox popup page, which on this 2-core host took the CPU the cold view needed.
const launch = chromiumLaunchOptions({ browserUi: args.includes('--browser-ui'), learner: true });
browser = await chromium.launch(launch);

/** Loads the page of `build` in `context` and returns { ms, requests, bytes } up to the first drawn result. */
async function firstView(build, context) {
  const page = context.pages()[0] ?? await context.newPage();
  const seen = [];
  const onFinished = async (request) => {
    const sizes = await request.sizes().catch(() => null);
    seen.push({ at: Date.now(), bytes: sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0 });
  };
  context.on('requestfinished', onFinished);
  const navigated = Date.now();
  await page.goto(build.server.url + hash);
  const ms = await page.evaluate(() => new Promise((done, fail) => {
    const find = () => performance.getEntriesByName('attention-first-result')[0]?.startTime;
    const poll = () => (find() !== undefined ? done(find()) : setTimeout(poll, 20));
    poll();
    setTimeout(() => fail(new Error('no first result within 30 s')), 30000);
  }));
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('attention-')).map((m) => [m.name.slice(10), Math.round(m.startTime)])));
  if (process.env.MARKS) console.log(build.name, JSON.stringify(marks));
  if (process.env.MEASURES) console.log(JSON.stringify(await page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name.startsWith('attention-x')).map((m) => `${m.name.slice(12)} ${m.duration.toFixed(1)}`))));
  await page.waitForTimeout(300); // let the last responses report their sizes
  context.off('requestfinished', onFinished);
  const until = navigated + ms + 50; // wall clock: requests finished by the first result (50 ms of clock slack)
  const before = seen.filter((r) => r.at <= until);
  return { ms, requests: before.length, bytes: before.reduce((s, r) => s + r.bytes, 0) };
}

/**
 * Waits until the page has done what follows its first result (the other panels built, the compute
 * worker started and warmed up), so that this work is not counted in the next page's first view: a
 * page that is still busy delays the next navigation's commit by tens of milliseconds.
 */
async function settle(page) {
  await page.waitForFunction(() => {
    const root = document.querySelector('#playground')?.shadowRoot;
    return root?.querySelector('.ap')?.dataset.settled === '1';
  }, null, { timeout: 30000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500); // the worker's warm-up passes and the SIMD peak measurement
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gz = async (path) => gzipSync(await readFile(join(dist, path)), { level: 9 }).length;
const fmt = (xs) => (!xs.length ? 'none measured' : `median ${median(xs.map((x) => x.ms)).toFixed(0)} ms (min ${Math.min(...xs.map((x) => x.ms)).toFixed(0)}, max ${Math.max(...xs.map((x) => x.ms)).toFixed(0)})` +
  `, ${median(xs.map((x) => x.requests))} requests, ${(median(xs.map((x) => x.bytes)) / 1000).toFixed(0)} kB before the first result`);
const load = loadavg()[0];
for (const build of builds) Object.assign(build, { cold: [], warm: [] });
for (let k = 0; k < runs; k++) {
  // In turn, so that both see the same load, and in the other order every other round: on this 2-core
  // host the build measured first in a round (just after the last round's context was closed) drew its
  // cold view tens of milliseconds later, which favoured the build measured second.
  for (const build of k % 2 ? [...builds].reverse() : builds) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    build.cold.push(await firstView(build, context));
    await settle(context.pages()[0]);
    await context.pages()[0].goto('about:blank');
    build.warm.push(await firstView(build, context));
    await settle(context.pages()[0]);
    await context.close();
  }
}
await browser.close();
for (const build of builds) await build.server.close();
await report();

/** Prints the views measured (all, or those before the time limit) and the gzipped sizes. */
async function report() {
  const element = await gz('attention-playground.js'), wasm = await gz('wasm/attention_simd.wasm');
  const page = await gz('page.js'), worker = await gz('worker.js'), panels = await gz('panels.js');
  const done = Math.min(...builds.map((b) => b.cold.length));
  console.log(`first view of ${hash || 'the default view'} in headless Chromium${args.includes('--browser-ui') ? ' (with the omnibox popup page, paint holding off: --browser-ui)' : ' (as a learner\'s browser: paint holding on, no omnibox popup page)'}, ${done === runs ? runs : `${done} of ${runs}`} runs each, 1-minute load average ${load.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`);
  for (const build of builds) {
    console.log(`${build.name} (${build.dir}):`);
    console.log(`  cold (fresh context): ${fmt(build.cold)}`);
    console.log(`  warm (second visit):  ${fmt(build.warm)}`);
  }
  console.log(`gzipped: attention-playground.js (with the SIMD loader) ${(element / 1000).toFixed(1)} kB + SIMD wasm ${(wasm / 1000).toFixed(1)} kB = ${((element + wasm) / 1000).toFixed(1)} kB` +
    ` (page.js ${(page / 1000).toFixed(1)} kB, worker.js ${(worker / 1000).toFixed(1)} kB, panels.js ${(panels / 1000).toFixed(1)} kB)`);
}
