// Measures the first view of the page in headless Chromium: the time from navigation to the first
// drawn result (the page's performance mark 'attention-first-result', set once the heatmaps of the first
// run are drawn), cold (a fresh browser context: empty cache) and warm (a reload in the same context),
// with the requests and bytes fetched before that moment, and the gzipped size of the element module and
// the SIMD wasm. A measurement, not a test: it prints figures and asserts nothing.
// Usage: node scripts/measure_first_view.mjs [--runs N] [--hash '#…'] [--dist folder] [--compare folder]
//   (after `bash scripts/build.sh page`; --compare measures another build in turn with this one)
import { chromium } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { serve } from './serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const runs = Number(option('--runs', 9));
const hash = option('--hash', '');
const dist = resolve(option('--dist', join(root, 'dist'))); // another build, e.g. an older one, to compare

const compare = option('--compare', null); // another build measured in turn with this one (same load for both)

const builds = [{ name: 'this build', dir: dist, server: await serve({ dir: dist, port: 0 }) }];
if (compare) builds.push({ name: compare, dir: resolve(compare), server: await serve({ dir: resolve(compare), port: 0 }) });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});

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
  if (page.url().startsWith(build.server.url)) await page.reload();
  else await page.goto(build.server.url + hash);
  const ms = await page.evaluate(() => new Promise((done) => {
    const find = () => performance.getEntriesByName('attention-first-result')[0]?.startTime;
    const poll = () => (find() !== undefined ? done(find()) : setTimeout(poll, 20));
    poll();
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

const load = loadavg()[0];
for (const build of builds) Object.assign(build, { cold: [], warm: [] });
for (let k = 0; k < runs; k++) {
  for (const build of builds) { // in turn, so that both see the same load
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    build.cold.push(await firstView(build, context));
    build.warm.push(await firstView(build, context));
    await context.close();
  }
}
await browser.close();
for (const build of builds) await build.server.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gz = async (path) => gzipSync(await readFile(join(dist, path)), { level: 9 }).length;
const element = await gz('attention-playground.js'), loader = await gz('wasm/attention_simd.mjs'), wasm = await gz('wasm/attention_simd.wasm');
const page = await gz('page.js'), worker = await gz('worker.js');
const fmt = (xs) => `median ${median(xs.map((x) => x.ms)).toFixed(0)} ms (min ${Math.min(...xs.map((x) => x.ms)).toFixed(0)}, max ${Math.max(...xs.map((x) => x.ms)).toFixed(0)})` +
  `, ${median(xs.map((x) => x.requests))} requests, ${(median(xs.map((x) => x.bytes)) / 1000).toFixed(0)} kB before the first result`;
console.log(`first view of ${hash || 'the default view'} in headless Chromium, ${runs} runs each, 1-minute load average ${load.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`);
for (const build of builds) {
  console.log(`${build.name} (${build.dir}):`);
  console.log(`  cold (fresh context): ${fmt(build.cold)}`);
  console.log(`  warm (reload):        ${fmt(build.warm)}`);
}
console.log(`gzipped: attention-playground.js ${(element / 1000).toFixed(1)} kB + wasm loader ${(loader / 1000).toFixed(1)} kB + SIMD wasm ${(wasm / 1000).toFixed(1)} kB = ${((element + loader + wasm) / 1000).toFixed(1)} kB` +
  ` (page.js ${(page / 1000).toFixed(1)} kB, worker.js ${(worker / 1000).toFixed(1)} kB)`);
