// Accessibility with axe-core (issue 24): its rules (WCAG 2 A/AA and best practices, as axe runs them by
// default) must find nothing on the page with every panel open, at 1280 and 375 px, light and dark; on a
// course page of another origin holding two elements; and inside an iframe of the page with every panel.
// axe.min.js comes from node_modules (an npm dev dependency) and is injected into each page or frame.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startHarness, serveSite, openUrl, resultReady } from './harness.mjs';
import { FEATURE_NAMES } from '../../web/src/features/index.js';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const ALL = FEATURE_NAMES.join(',');
let h, course;

const coursePage = (a) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course page</title><link rel="icon" href="data:,">
<script type="module" src="${a}attention-playground.js"></script>
<style>iframe { width: 100%; height: 900px; border: 0; }</style></head>
<body><main><h1>Lesson</h1>
<p>Two playgrounds configured differently, and the whole page in a frame.</p>
<attention-playground id="one" panels="controls,heatmaps,sqrtdk,shapes" d_model="32" n_heads="2"></attention-playground>
<attention-playground id="two" panels="heatmaps,query,compare,kvmap" mask="causal" source="random" n_q="6" d_model="16" n_heads="2"></attention-playground>
<iframe id="frame" title="The attention playground, every panel" src="${a}index.html#embed=1&panels=${ALL}&d_model=16&n_heads=2"></iframe>
</main></body></html>`;

before(async () => {
  h = await startHarness();
  course = await serveSite({ 'course.html': coursePage(h.url) });
});
after(async () => { await course?.close(); await h?.close(); });

/** Runs axe in `frame` (a page or a frame) and returns its violations as readable lines (rule, impact, targets). */
async function violations(frame, { iframes = true } = {}) {
  if (!(await frame.evaluate(() => typeof globalThis.axe === 'object'))) await frame.addScriptTag({ path: axePath });
  const found = await frame.evaluate(async (iframes) => {
    const result = await globalThis.axe.run(document, { iframes, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  }, iframes);
  return found.map((v) => `${v.id} (${v.impact}) ×${v.targets.length}: ${v.targets.slice(0, 6).join(' ')}`);
}

/** Waits until the panels that measure after the first result have drawn (√d_k gradients' table, the chart). */
async function panelsSettled(frame, index = 0) {
  const state = (i) => {
    const root = document.querySelectorAll('#playground, attention-playground')[i]?.shadowRoot;
    return { table: !!root?.getElementById('grad-table'), chart: !!root?.querySelector('[data-panel="gradients"] .uplot'),
      status: root?.getElementById('grad-status')?.textContent, run: root?.getElementById('status')?.textContent };
  };
  await frame.waitForFunction((i) => {
    const root = document.querySelectorAll('#playground, attention-playground')[i]?.shadowRoot;
    return root?.getElementById('grad-table') && root.querySelector('[data-panel="gradients"] .uplot');
  }, index, { timeout: 60000 }).catch(async (e) => assert.fail(`the gradients panel did not draw: ${JSON.stringify(await frame.evaluate(state, index))} (${e.message})`));
}

test('the page with every panel: no axe violation at 1280 and 375 px, light and dark', async () => {
  // Every panel, a followed query (so that panel shows its steps), and the share builder opened.
  const page = await openUrl(h, `${h.url}#panels=${ALL}&theme=auto&q_item=0&q_head=0&q_query=1&q_key=2`, { width: 1280, height: 900 });
  await panelsSettled(page);
  await page.click('#share-builder > summary');
  await page.locator('#share-builder [data-snippet="python"]').waitFor();
  const report = [];
  for (const [width, colorScheme] of [[1280, 'light'], [1280, 'dark'], [375, 'dark'], [375, 'light']]) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme });
    await page.waitForTimeout(200); // a resize settles (charts follow their boxes)
    for (const line of await violations(page)) report.push(`${width} px ${colorScheme}: ${line}`);
  }
  assert.deepEqual(report, []);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a course page of another origin with two elements, and an iframe with every panel: no axe violation', async () => {
  const page = await openUrl(h, `${course.url}course.html`, { waitForResult: false });
  await resultReady(page);
  await page.waitForFunction(() => document.getElementById('two').shadowRoot?.getElementById('status')?.textContent.startsWith('Ran in'),
    null, { timeout: 30000 });
  const frame = page.frames().find((f) => f.url().startsWith(h.url));
  assert.ok(frame, 'the iframe of the page');
  // A frame of another origin off screen is not laid out (nor animated): bring it into view.
  await page.locator('#frame').scrollIntoViewIfNeeded();
  await resultReady(frame);
  await panelsSettled(frame);
  const report = [
    ...(await violations(page, { iframes: false })).map((line) => `course page: ${line}`),
    ...(await violations(frame)).map((line) => `iframe: ${line}`),
  ];
  assert.deepEqual(report, []);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
