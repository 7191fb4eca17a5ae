// Measures how tall each lesson chapter is: the document's height at 1280×800 (a laptop) and 375×667 (a
// phone), light mode, once the chapter's first result is drawn and its shown panels are built. A chapter
// meant to fit in two screens should stay near 1,600 px wide and a few phone screens narrow. A
// measurement, not a test: it prints figures and asserts nothing.
// Usage: node scripts/measure_chapters.mjs --help
import { chromiumLaunchOptions } from './chromium.mjs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { CHAPTER_NAMES } from '../web/src/lesson/chapter_names.js';

import { measuringScript } from './cli.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { args, onTimeout } = measuringScript({
  seconds: 900,
  usage: `usage: node scripts/measure_chapters.mjs [--panels] [--shots folder] [--dist folder] [--chapter name] [--timeout S]
  --panels         also print each shown panel's height
  --shots folder   save a full-page screenshot per chapter and width (e.g. build/tmp)
  --dist folder    the build to measure (default dist/, after \`bash scripts/build.sh page\`)
  --chapter name   one chapter only`,
});
const { chromium } = await import('playwright-core'); // after --help is answered: importing it takes ~0.8 CPU-s
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const dist = resolve(option('--dist', join(root, 'dist')));
const shots = option('--shots', null);
const only = option('--chapter', null);
const perPanel = args.includes('--panels');
const SCREENS = [{ name: 'wide', width: 1280, height: 800 }, { name: 'phone', width: 375, height: 667 }];

const rows = [];
const server = await serve({ dir: dist, port: 0 });
const browser = await chromium.launch(chromiumLaunchOptions({ learner: true }));
onTimeout(async () => { // the chapters measured so far
  printRows();
  await browser.close();
  await server.close();
});
if (shots) await mkdir(resolve(shots), { recursive: true });

/** The chapter's page at one screen size: { height, panels: [[name, px]] } once its first result is drawn. */
async function measure(chapter, screen) {
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height }, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(`${server.url}index.html#chapter=${chapter}`);
  // The first result drawn (the run bar says "Ran in", the maps are current when the chapter shows them)
  // and every shown panel built.
  await page.waitForFunction(() => {
    const r = document.querySelector('#playground')?.shadowRoot;
    const maps = r?.querySelector('section[data-panel="heatmaps"]');
    const current = !maps || maps.hidden || maps.querySelector('.panel-body')?.dataset.stale === '0';
    return (r?.getElementById('status')?.textContent ?? '').startsWith('Ran in') && current
      && r.querySelector('.ap')?.dataset.settled === '1';
  }, null, { timeout: 60000 });
  // Panels that ask the engine for their own figures (FlashAttention's trace, the training lab, the √d_k
  // lab) draw them a moment later: wait until no shown panel still says it waits (at most 20 s).
  await page.waitForFunction(() => {
    const r = document.querySelector('#playground').shadowRoot;
    return ![...r.querySelectorAll('section[data-panel]:not([hidden])')].some((s) => /Waiting for the engine|Computing…|Loading/.test(s.innerText));
  }, null, { timeout: 20000 }).catch(() => console.warn(`${chapter} at ${screen.width} px: a panel still waits after 20 s`));
  await page.waitForTimeout(500); // a last layout (fonts, charts)
  const out = await page.evaluate(() => {
    const r = document.querySelector('#playground').shadowRoot;
    const tall = (el) => Math.round(el.getBoundingClientRect().height);
    const shown = [...r.querySelectorAll('section[data-panel], .panel-fold')].filter((el) => !el.hidden && el.getClientRects().length);
    return {
      height: document.documentElement.scrollHeight,
      wide: document.documentElement.scrollWidth > window.innerWidth, // sideways scroll
      panels: shown.map((el) => [el.dataset.panel ?? `(${el.dataset.fold})`, tall(el)]),
    };
  });
  if (shots) {
    const base = join(resolve(shots), `chapter-${chapter}-${screen.width}`);
    await page.screenshot({ path: `${base}.png`, fullPage: true });
    // A phone's page also in slices of two screens, which an image viewer shows at full size.
    const slice = screen.height * 2;
    for (let y = 0, k = 1; screen.width < 600 && y < out.height; y += slice, k++) {
      await page.screenshot({ path: `${base}-${k}.png`, fullPage: true, clip: { x: 0, y, width: screen.width, height: Math.min(slice, out.height - y) } });
    }
  }
  await context.close();
  return out;
}

for (const chapter of CHAPTER_NAMES.filter((name) => !only || name === only)) {
  const row = { chapter };
  for (const screen of SCREENS) {
    row[screen.name] = await measure(chapter, screen).catch((e) => { throw new Error(`${chapter} at ${screen.width} px: ${e.message}`); });
  }
  rows.push(row);
}
await browser.close();
await server.close();
printRows();

/** The table of the chapters measured (all, or those before the time limit). */
function printRows() {
  console.log('chapter      1280×800   375×667   (document height in px, light mode, after the first result)');
  for (const { chapter, wide, phone } of rows) {
    const flag = (m) => (m.wide ? ' (scrolls sideways)' : '');
    console.log(`${chapter.padEnd(12)} ${String(wide.height).padStart(8)}${flag(wide)} ${String(phone.height).padStart(9)}${flag(phone)}`);
    if (perPanel) {
      for (const s of ['wide', 'phone']) console.log(`    ${s}: ${row(s === 'wide' ? wide : phone)}`);
    }
  }
  if (shots) console.log(`screenshots: ${resolve(shots)}/chapter-<name>-<width>.png`);
}
function row(m) { return m.panels.map(([name, px]) => `${name} ${px}`).join(', '); }
