// `node bench/pool_threshold_browser.mjs [workers]`: bench/pool_ladder.mjs in headless Chromium, from a
// module Web Worker whose pool workers are nested workers, as on the page (the repository served by
// scripts/serve.mjs, no COOP/COEP headers). Needs web/wasm/ (scripts/build.sh wasm or page).
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../scripts/serve.mjs';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';
import { PAGE_SPLIT_FLOPS } from '../web/src/engine/pool.js';
import { measuringScript } from '../scripts/cli.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { args, onTimeout } = measuringScript({
  seconds: 1200,
  usage: 'usage: node bench/pool_threshold_browser.mjs [workers, default 2] [--timeout S]   (needs web/wasm/: scripts/build.sh wasm or page)',
});
const { chromium } = await import('playwright-core'); // after --help is answered: importing it takes ~0.8 CPU-s
const workers = Number(args[0] ?? 2);
const server = await serve({ dir: root, port: 0 });
const browser = await chromium.launch(chromiumLaunchOptions());
onTimeout(async () => { // the rungs measured so far are printed; close what runs
  await browser.close();
  await server.close();
});
try {
  const page = await browser.newPage();
  // Any page of the server's origin will do: the worker is what runs.
  await page.route(`${server.url}bench/pool_threshold.html`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>pool threshold</title>' }));
  await page.goto(`${server.url}bench/pool_threshold.html`);
  console.log(`pool threshold in ${browser.version()}: ${workers} workers, ${await page.evaluate(() => navigator.hardwareConcurrency)} logical cores, ` +
    `load ${os.loadavg()[0].toFixed(2)}; the page's current PAGE_SPLIT_FLOPS ${PAGE_SPLIT_FLOPS / 1e6} MFLOP`);
  await page.exposeFunction('report', (line) => console.log(line));
  const outcome = await page.evaluate((workers) => new Promise((resolve) => {
    const worker = new Worker(`/bench/pool_ladder_worker.mjs?workers=${workers}`, { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.line !== undefined) globalThis.report(data.line);
      else resolve(data);
    };
    worker.onerror = (e) => resolve({ error: e.message || 'the worker could not load' });
  }), workers);
  if (outcome.error) throw new Error(outcome.error);
  console.log(`load at the end ${os.loadavg()[0].toFixed(2)}`);
} catch (e) {
  console.error(`pool_threshold_browser FAILED: ${e.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
}
