// The cost chapter opened up (issue 37): the n control reaches 8192 and its verdict flips where n passes
// d_model, with both terms plotted; a layer of one head runs from the lesson's start (one constructed
// head, a note naming the patterns left out) and the h = 1 / h = 8 comparison shows the core's equal
// counts; and no text of the chapter's panels is cut at 320, 375 or 1280 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, chapterDrawn, screenshot } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** The n control's verdict: { n, d, dominant, text }. */
const verdict = (page) => page.evaluate(() => {
  const v = playgroundRoot().getElementById('n-verdict');
  return { n: Number(v.dataset.n), d: Number(v.dataset.d), dominant: v.dataset.dominant, text: v.textContent };
});

test('the n control (step 3): from the run\'s n to 8192, the verdict flips once, at n = d_model, and the plot marks the n chosen', async () => {
  const page = await openPage(h, '#chapter=cost&step=3', { waitForResult: false });
  await chapterDrawn(page);
  await page.waitForFunction(() => playgroundRoot().querySelector('#n-chart canvas'));
  let v = await verdict(page);
  assert.deepEqual([v.n, v.d, v.dominant], [10, 64, 'projections'], v.text);
  const slider = '#cost-n';
  await page.focus(slider);
  await page.keyboard.press('End');
  await page.waitForFunction(() => playgroundRoot().getElementById('n-verdict').dataset.n === '8192');
  v = await verdict(page);
  assert.equal(v.dominant, 'attention', v.text);
  assert.match(v.text, /n = 8,192 > d = 64: the attention matrix \(n²·d\) dominates/);
  assert.equal(await page.evaluate(() => playgroundRoot().getElementById('n-chart').dataset.n), '8192', 'the plot marks n = 8192');
  assert.equal(await page.evaluate(() => playgroundRoot().getElementById('cost-n-value').textContent), 'n = 8,192');
  // Back to the start, then step by step: the verdict changes once, at n = d (the terms equal there).
  await page.keyboard.press('Home');
  await page.waitForFunction(() => playgroundRoot().getElementById('n-verdict').dataset.n === '8');
  const seen = [];
  for (;;) {
    const now = await verdict(page);
    seen.push([now.n, now.dominant]);
    if (now.n >= 128) break;
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((n) => Number(playgroundRoot().getElementById('n-verdict').dataset.n) > n, now.n);
  }
  for (const [n, dominant] of seen) assert.equal(dominant, n < 64 ? 'projections' : n === 64 ? 'equal' : 'attention', `n = ${n}`);
  assert.ok(seen.some(([n]) => n === 64), 'd_model = 64 is a step of the control');
  // Another width moves the crossing: d_model = 512 at n = 128 is the projections' side again.
  await page.fill('[name="d_model"]', '512');
  await page.waitForFunction(() => playgroundRoot().getElementById('n-verdict').dataset.d === '512');
  v = await verdict(page);
  assert.deepEqual([v.n, v.dominant], [128, 'projections'], v.text);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('h = 1 from the lesson\'s start (step 4): one constructed head, a note on the patterns left out, and one head against eight', async () => {
  const page = await openPage(h, '#chapter=cost&step=4', { waitForResult: false });
  await chapterDrawn(page);
  await page.fill('[name="n_heads"]', '1');
  await page.waitForFunction(() => location.hash.includes('n_heads=1'));
  await chapterDrawn(page);
  const seen = await page.evaluate(() => {
    const root = playgroundRoot();
    return {
      errors: [...root.querySelectorAll('[data-panel="controls"] p.msg')].map((e) => e.textContent.trim()).filter(Boolean),
      notes: root.getElementById('notes').textContent,
      compare: [...root.querySelectorAll('#heads-compare tbody tr')].map((tr) => [tr.dataset.row, ...[...tr.querySelectorAll('[data-value]')].map((c) => Number(c.dataset.value))]),
    };
  });
  assert.deepEqual(seen.errors, []);
  assert.match(seen.notes, /1 head: the constructed heads use the first 1 of the patterns \(previous\); same_word, first_token need more heads/);
  // d_model 64, n 10, biases: counted here in float64, apart from the core.
  const d = 64, n = 10, macs = 4 * n * d * d + 2 * n * n * d;
  const rows = Object.fromEntries(seen.compare.map(([row, one, eight]) => [row, [one, eight]]));
  assert.deepEqual(rows.d_k, [64, 8]);
  assert.deepEqual(rows.params, [4 * d * d + 4 * d, 4 * d * d + 4 * d]);
  assert.deepEqual(rows.macs, [macs, macs]);
  assert.deepEqual(rows.softmax_flops, [6 * n * n, 6 * 8 * n * n]);
  assert.deepEqual(rows.maps, [1, 8]);
  // Two heads: two constructed heads, first_token left out.
  await page.fill('[name="n_heads"]', '2');
  await page.waitForFunction(() => /first_token needs more heads/.test(playgroundRoot().getElementById('notes').textContent));
  // Step 1's table writes one head's slices in words, not as a matrix ("4 × 1,024 per head" read as one).
  await page.evaluate(() => { location.hash = location.hash.replace(/n_heads=2/, 'n_heads=1').replace(/step=4/, 'step=1'); });
  await page.waitForFunction(() => playgroundRoot().querySelector('table.params .sub-note')?.textContent === 'one head of 4,096 weights');
  assert.equal(await page.evaluate(() => playgroundRoot().getElementById('params-total').dataset.value), '16640');
  // Step 1 is about the weights: the cost panel shows its parameters block alone.
  assert.deepEqual(await page.evaluate(() => [...playgroundRoot().querySelectorAll('.cost-blocks > [data-block]')].filter((b) => !b.hidden).map((b) => b.dataset.block)), ['params']);
  await page.evaluate(() => { location.hash = location.hash.replace(/n_heads=1/, 'n_heads=4'); });
  await page.waitForFunction(() => playgroundRoot().querySelector('table.params .sub-note')?.textContent === '4 heads of 1,024 weights each');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

/** Elements of the cost chapter's shown panels whose text does not fit their box (scrollWidth beyond clientWidth). */
const cut = (page) => page.evaluate(() => {
  const root = playgroundRoot();
  const out = [];
  for (const name of ['cost', 'cost_n', 'cost_heads', 'examples']) {
    const section = root.querySelector(`section[data-panel="${name}"]`);
    if (!section || section.hidden) continue;
    for (const el of section.querySelectorAll('.table-wrap, th, td, label, summary, output, li, p, h3, h4, select, .chart')) {
      if (!el.checkVisibility()) continue;
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${name}: <${el.tagName.toLowerCase()} class="${el.className}"> ${el.scrollWidth} > ${el.clientWidth}: ${el.textContent.trim().slice(0, 50)}`);
    }
    const box = section.getBoundingClientRect();
    if (box.right > document.documentElement.clientWidth + 1) out.push(`${name}: the panel runs off the page (${box.right})`);
  }
  return out;
});

/** The cost chapter's panels shown at step `step`, each built (its folds opened). */
async function showStep(page, step, panels) {
  await page.evaluate((s) => { location.hash = location.hash.replace(/step=\d+/, `step=${s}`); }, step);
  await page.waitForFunction((names) => names.every((n) => {
    const section = playgroundRoot().querySelector(`section[data-panel="${n}"]`);
    return section && !section.hidden && section.querySelector('.panel-body').childElementCount > 0;
  }), panels);
  await chapterDrawn(page);
  await page.evaluate(() => { for (const d of playgroundRoot().querySelectorAll('[data-panel^="cost"] details')) d.open = true; });
}

const STEP_PANELS = { 1: ['cost'], 2: ['cost'], 3: ['cost_n'], 4: ['cost_heads'], 5: ['cost'], 6: ['examples'] }; // the worked examples a step of their own

for (const width of [320, 375, 1280]) {
  test(`no cut text in the cost chapter's panels at ${width} px, every step`, async () => {
    const page = await openPage(h, '#chapter=cost&step=1', { width, height: 800, waitForResult: false });
    await chapterDrawn(page);
    for (const [step, panels] of Object.entries(STEP_PANELS)) {
      await showStep(page, step, panels);
      if (panels.includes('cost_n')) await page.waitForFunction(() => playgroundRoot().querySelector('#n-chart canvas'));
      if (panels.includes('examples')) await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="examples"] [data-example="E3"]'));
      assert.deepEqual(await cut(page), [], `${width} px, step ${step}`);
      if (width !== 320) await screenshot(page, `cost-step${step}-${width}`, { fullPage: true });
    }
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
}

test('E3: the figures the lesson never prints are marked computed, not the lesson\'s', async () => {
  const page = await openPage(h, '#chapter=cost&step=6', { waitForResult: false }); // the worked examples' step
  await chapterDrawn(page);
  await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="examples"] [data-example="E3"]'));
  const rows = await page.evaluate(() => [...playgroundRoot().querySelectorAll('[data-example="E3"] tbody tr')]
    .map((tr) => [tr.dataset.source, ...[...tr.children].slice(1).map((c) => c.textContent.trim())]));
  const bySource = (source) => rows.filter((r) => r[0] === source).map((r) => r[2]);
  assert.deepEqual(bySource('computed'), ['137.4B', '274.9B', '171.8B', '343.6B']);
  for (const r of rows.filter((r) => r[0] === 'computed')) assert.equal(r[1], '—', `no lesson figure beside ${r.join(' | ')}`);
  const labels = await page.evaluate(() => [...playgroundRoot().querySelectorAll('[data-example="E3"] tr[data-source="computed"] th')].map((th) => th.textContent));
  for (const label of labels) assert.match(label, /computed: the lesson does not print it$/);
  assert.deepEqual(bySource('lesson'), ['34.4B', '17.2B', '17.2B', '68.8B', 'yes']);
  for (const r of rows.filter((r) => r[0] === 'lesson')) assert.equal(r[1], r[2], 'a lesson figure stands beside its computed one');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
