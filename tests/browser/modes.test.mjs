// The page's other modes: the baseline module (#simd=0), embedding flags, a 375 px phone screen,
// dark mode, the browser's SIMD peak, a reload restoring the view, and the example course page (elements and an iframe).
// Runs beside other files (tests/browser/run.mjs): the SIMD peak it measures need only be above 1 GFLOP/s
// (15 GFLOP/s at a load average of 20 on 2 cores, 44 on a quieter one).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, openUrl, resultReady, chapterDrawn, screenshot } from './harness.mjs';
import { expectedFor } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('#simd=0 runs the baseline module, and its numbers equal the API’s baseline', async () => {
  const hash = '#simd=0&source=random&n_q=7&d_model=32&n_heads=2&mask=causal&panels=heatmaps,cost';
  const page = await openPage(h, hash);
  assert.match(await page.textContent('#engine-badge'), /baseline/);
  assert.equal(await page.$eval('#run-facts', (el) => el.dataset.isa), 'scalar');
  const want = await expectedFor(hash, { simd: false });
  const got = await page.$eval('#output-summary', (el) => ({ row0: JSON.parse(el.dataset.row0), sum: Number(el.dataset.sum) }));
  got.row0.forEach((v, i) => assert.ok(Math.abs(v - want.output[i]) < 1e-6, `output[${i}]: page ${v}, API ${want.output[i]}`));
  assert.ok(Math.abs(got.sum - want.sum) < 1e-6);
  // The baseline and SIMD modules agree to float32 rounding.
  const simd = await expectedFor(hash);
  assert.ok(Math.abs(simd.sum - want.sum) < 1e-3, `SIMD sum ${simd.sum}, baseline ${want.sum}`);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('embed flags hide the chrome and all but the chosen panels', async () => {
  const page = await openPage(h, '#embed=1&panels=heatmaps,shapes&mask=causal');
  // The title is not drawn (a 1 px box at most), yet still there for screen readers: the page's one h1.
  const title = await page.locator('header.masthead').boundingBox();
  assert.ok(!title || (title.width <= 1 && title.height <= 1), `the title takes ${JSON.stringify(title)}`);
  assert.equal(await page.locator('h1').count(), 1);
  assert.ok(await page.isHidden('footer'));
  const visible = await page.$$eval('[data-panel]', (els) => els.filter((e) => !e.hidden).map((e) => e.dataset.panel));
  assert.deepEqual(visible, ['heatmaps', 'shapes']);
  await screenshot(page, 'embed-heatmaps-shapes', { fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a reload restores the same view, enlarged head and batch item included', async () => {
  const page = await openPage(h, '#panels=controls,heatmaps');
  await page.click('label[for="f-source-random"]');
  await page.fill('input[name="batch"]', '3');
  await page.fill('input[name="n_heads"]', '8');
  await resultReady(page);
  await page.click('.heat-small[data-head="5"] canvas');
  await page.selectOption('select[name="item"]', '2');
  await page.waitForFunction(() => playgroundRoot().getElementById('output-summary').dataset.item === '2');
  const before = await page.$eval('#output-summary', (el) => el.dataset.row0);
  const url = page.url();
  assert.match(url, /head=5/);
  await page.reload();
  await resultReady(page);
  assert.equal(page.url(), url);
  assert.equal(await page.inputValue('input[name="batch"]'), '3');
  assert.equal(await page.$eval('.heat-small.selected', (el) => el.dataset.head), '5');
  assert.equal(await page.$eval('#output-summary', (el) => el.dataset.row0), before);
  // Editing the address by hand (a hashchange, no reload) updates the view too.
  await page.evaluate(() => { location.hash = '#source=random&d_model=24&n_heads=3&n_q=5&panels=controls,heatmaps'; });
  await page.waitForFunction(() => playgroundRoot().querySelector('input[name="d_model"]').value === '24');
  await resultReady(page);
  assert.equal(await page.locator('.heat-small').count(), 3);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('works at 375 px wide without sideways scrolling, and in dark mode', async () => {
  const page = await openPage(h, '#mask=causal', { width: 375, height: 812, colorScheme: 'dark' });
  await chapterDrawn(page); // every panel built (the lazy ones too), so the check covers the whole page
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(bg, 'rgb(245, 246, 243)', 'dark mode changes the background');
  await page.locator('[data-panel="heatmaps"]').scrollIntoViewIfNeeded();
  await screenshot(page, 'phone-dark-heatmaps');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('the performance panel measures the f32x4 peak and reports each run against it', async () => {
  const page = await openPage(h, '#source=random&n_q=128&d_model=128&panels=heatmaps,performance');
  await page.waitForSelector('#peak[data-gflops]', { timeout: 30000 });
  const peak = Number(await page.$eval('#peak', (el) => el.dataset.gflops));
  console.log(`f32x4 peak measured in headless Chromium: ${peak.toFixed(1)} GFLOP/s`);
  assert.ok(peak > 1, `peak ${peak} GFLOP/s`);
  const row = await page.textContent('#runs-table tbody tr');
  assert.match(row, /\d %/);
  await page.click('#sweep');
  await page.waitForSelector('#sweep-chart canvas', { timeout: 60000 });
  const points = JSON.parse(await page.$eval('#sweep-chart', (el) => el.dataset.points));
  assert.ok(points.length >= 3 && points.every((p) => p.ms > 0));
  console.log(`time against n at d_model 128: ${points.map((p) => `${p.n}: ${p.ms.toFixed(2)} ms`).join(', ')}`);
  await screenshot(page, 'performance', { of: page.locator('[data-panel="performance"]') });
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('the example course page (dist/examples/course.html) shows two elements and an iframe that fits', async () => {
  const page = await openUrl(h, `${h.url}examples/course.html`, { width: 1000, waitForResult: false });
  // Two elements, configured differently: a read-only causal view, and a lab with its inputs.
  await page.locator('#causal .status', { hasText: 'Ran in' }).waitFor({ timeout: 30000 });
  assert.equal(await page.locator('#causal .heat-small').count(), 4);
  assert.ok(await page.locator('#causal [data-panel="controls"]').isHidden(), 'controls="0": read-only');
  assert.ok(await page.locator('#causal [data-panel="heatmaps"]').isVisible());
  await page.locator('#lab .status', { hasText: 'Ran in' }).waitFor({ timeout: 30000 });
  assert.equal(await page.locator('#lab .heat-small').count(), 2);
  assert.equal(await page.inputValue('#lab [name="d_model"]'), '32');
  await page.locator('#lab #sqrtdk-table').waitFor();
  await screenshot(page, 'course-page-elements', { fullPage: false });
  // The iframe (the lazy frame loads when a reader scrolls to it) is resized to its content by embed.js.
  const frame = page.locator('iframe');
  await frame.scrollIntoViewIfNeeded();
  await page.frameLocator('iframe').locator('#blocked', { hasText: 'Too large' }).waitFor({ timeout: 30000 });
  const inner = page.frames().find((f) => f.url().includes('index.html'));
  await page.waitForFunction(() => document.querySelector('iframe').clientHeight > 720, null, { timeout: 15000 });
  const content = await inner.evaluate(() => document.documentElement.scrollHeight);
  const outer = await frame.evaluate((el) => el.clientHeight);
  assert.ok(Math.abs(content - outer) <= 10, `iframe ${outer} px, its content ${content} px`);
  await screenshot(page, 'course-page-iframe', { of: frame });
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
