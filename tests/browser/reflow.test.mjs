// Layouts that reflow (issue 24): at 320, 375, 768 and 1280 px, and after a window shrinks from 1280 to
// 375 px, nothing scrolls sideways: not the page with every panel, not an <attention-playground> with
// every panel on a course page of another origin, not the page inside an iframe there. Charts (uPlot) and
// maps must follow their box as it changes; wide tables scroll inside their own box (which does not count).
// Each check lists the elements that stick out, so a failure names its culprit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, serveSite, openUrl, resultReady, POLL_MS } from './harness.mjs';
import { FEATURE_NAMES } from '../../web/src/features/index.js';

const ALL = FEATURE_NAMES.join(',');
const WIDTHS = [1280, 768, 375, 320];
let h, course;

const coursePage = (a) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course page</title><link rel="icon" href="data:,">
<script type="module" src="${a}attention-playground.js"></script>
<style>body { margin: 0 auto; max-width: 900px; padding: 8px; } iframe { width: 100%; height: 700px; border: 0; display: block; }</style></head>
<body><main><h1>Lesson</h1>
<attention-playground id="all" panels="${ALL}" d_model="16" n_heads="2"></attention-playground>
<iframe id="frame" title="The playground, every panel" src="${a}index.html#embed=1&panels=${ALL}&d_model=16&n_heads=2"></iframe>
</main></body></html>`;

before(async () => {
  h = await startHarness();
  course = await serveSite({ 'course.html': coursePage(h.url) });
});
after(async () => { await course?.close(); await h?.close(); });

/**
 * In `frame`: how far the document scrolls sideways, how far each given element's box scrolls sideways
 * (selector → px), and the deepest elements (shadow roots included) whose right edge passes the viewport,
 * skipping what sits inside a box that scrolls on its own.
 */
function overflow(frame, selectors = []) {
  return frame.evaluate((selectors) => {
    const doc = document.documentElement, vw = doc.clientWidth;
    const clipped = (el) => {
      for (let p = el.parentElement ?? el.getRootNode().host; p; p = p.parentElement ?? p.getRootNode().host) {
        const x = getComputedStyle(p).overflowX;
        if (x === 'auto' || x === 'scroll' || x === 'hidden') return true;
      }
      return false;
    };
    const out = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) walk(el.shadowRoot);
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > vw + 1 && !clipped(el) && ![...el.children].some((c) => c.getBoundingClientRect().right > vw + 1)) {
          const panel = el.closest('section.panel')?.id;
          out.push(`${panel ? `${panel} ` : ''}${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''} right=${Math.round(r.right)}`);
        }
      }
    };
    walk(document);
    const boxes = Object.fromEntries(selectors.map((s) => {
      const el = document.querySelector(s);
      return [s, el ? el.scrollWidth - el.clientWidth : null];
    }));
    return { page: doc.scrollWidth - doc.clientWidth, boxes, sticking: out.slice(0, 8) };
  }, selectors);
}

/** Waits for the layout after a resize: two frames, then the charts' observers and a redraw. */
const settle = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 150)))));

/** The uPlot charts of a playground, with their drawn width and their box's width. */
const charts = (frame, selector) => frame.evaluate((selector) => [...document.querySelector(selector).shadowRoot.querySelectorAll('.chart')]
  .filter((box) => box.querySelector('.uplot')).map((box) => ({ id: box.id, box: box.clientWidth, chart: box.querySelector('.uplot').getBoundingClientRect().width })), selector);

test('the page with every panel: no sideways scroll at 1280, 768, 375, 320 px, nor after shrinking 1280 → 375', async () => {
  const page = await openUrl(h, `${h.url}#panels=${ALL}&d_model=16&n_heads=2`, { width: 1280, height: 900 });
  // The charts exist before the widths change: the √d_k gradient chart draws itself, the sweep on request.
  // (Panels off screen may wait to be drawn until they come into view: the gradients panel is brought there.)
  // A chart stays once drawn: looked for every POLL_MS, not on every frame (the sweep's wait is the longest).
  await page.evaluate(() => playgroundRoot().getElementById('panel-gradients').scrollIntoView());
  await page.waitForFunction(() => playgroundRoot().querySelector('#grad-chart .uplot'), null, { timeout: 60000, polling: POLL_MS });
  await page.click('#sweep');
  await page.waitForFunction(() => playgroundRoot().querySelector('#sweep-chart .uplot'), null, { timeout: 60000, polling: POLL_MS });
  await page.click('#train-step');
  await page.waitForFunction(() => playgroundRoot().querySelector('#train-curves .uplot'), null, { timeout: 60000, polling: POLL_MS });
  const report = [];
  for (const width of [...WIDTHS, 1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await settle(page);
    const o = await overflow(page, ['#playground']);
    if (o.page > 0 || o.boxes['#playground'] > 0) report.push(`${width} px: page ${o.page} px, playground ${o.boxes['#playground']} px; ${o.sticking.join(', ')}`);
    for (const c of await charts(page, '#playground')) {
      if (c.chart > c.box + 1) report.push(`${width} px: chart #${c.id} is ${Math.round(c.chart)} px in a ${c.box} px box`);
    }
  }
  // After 1280 → 375 the charts are as wide as their boxes, not their first width.
  const last = await charts(page, '#playground');
  assert.equal(last.length, 4, 'the four charts (gradients, sweep, training curves, cost against n)');
  for (const c of last) assert.ok(Math.abs(c.chart - c.box) <= 2, `#${c.id}: ${c.chart} px drawn in ${c.box} px`);
  assert.deepEqual(report, []);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('an element and an iframe with every panel on a course page: no sideways scroll at any width, nor inside the frame', async () => {
  const page = await openUrl(h, `${course.url}course.html`, { width: 1280, height: 900, waitForResult: false });
  await resultReady(page);
  await page.evaluate(() => document.getElementById('all').shadowRoot.getElementById('panel-gradients').scrollIntoView());
  await page.waitForFunction(() => document.getElementById('all').shadowRoot.querySelector('#grad-chart .uplot'), null, { timeout: 60000, polling: POLL_MS })
    .catch(async () => assert.fail(`the element's gradient chart: ${await page.evaluate(() => document.getElementById('all').shadowRoot.getElementById('panel-gradients')?.textContent.slice(0, 300))}`));
  await page.locator('#frame').scrollIntoViewIfNeeded();
  const frame = page.frames().find((f) => f.url().startsWith(h.url));
  assert.ok(frame, 'the iframe of the page');
  await resultReady(frame);
  await frame.evaluate(() => playgroundRoot().getElementById('panel-gradients').scrollIntoView());
  await frame.waitForFunction(() => playgroundRoot().querySelector('#grad-chart .uplot'), null, { timeout: 60000, polling: POLL_MS });
  const report = [];
  for (const width of [...WIDTHS, 1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await settle(page);
    await page.locator('#frame').scrollIntoViewIfNeeded();
    await settle(page);
    const o = await overflow(page, ['#all']);
    if (o.page > 0 || o.boxes['#all'] > 0) report.push(`${width} px: course page ${o.page} px, element ${o.boxes['#all']} px; ${o.sticking.join(', ')}`);
    const f = await overflow(frame, ['#playground']);
    if (f.page > 0 || f.boxes['#playground'] > 0) report.push(`${width} px: inside the iframe ${f.page} px, playground ${f.boxes['#playground']} px; ${f.sticking.join(', ')}`);
    for (const c of await charts(page, '#all')) if (c.chart > c.box + 1) report.push(`${width} px: element's chart #${c.id} is ${Math.round(c.chart)} px in ${c.box} px`);
  }
  // The host's column narrows with the window unchanged (a sidebar opens): the element's charts follow.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => { document.body.style.maxWidth = '420px'; });
  await settle(page);
  const narrowed = await charts(page, '#all');
  assert.ok(narrowed.length >= 1, 'the element draws its gradient chart');
  for (const c of narrowed) assert.ok(c.box <= 420 && Math.abs(c.chart - c.box) <= 2, `in a 420 px column, #${c.id} is ${c.chart} px in a ${c.box} px box`);
  assert.deepEqual(report, []);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
