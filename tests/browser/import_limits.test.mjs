// The import on a real page (issue 35, items 7, 8 and 11): how long it holds the page's main thread,
// measured as that thread's CPU time (Chromium's task durations in thread time, through the DevTools
// protocol; every task counts, short ones too), not wall time: a busy machine slows the worker and
// stretches the page's tasks (a long task's duration is wall time, printed beside it) but does not change
// the verdict. The long labels' and word's checks bound the longest task, which is wall time (1 s: ~5x
// what they take here). Bounds: a 23.5 MB CSV imports with at most 1 s of main-thread
// time per 10 MB (2.35 s; it is parsed in the compute worker); a 65 MiB file is refused by its size
// before it is read; 8 token labels of 100,000 characters, and one word of 10,000 in the text, draw
// with no task over 1 s (the labels are fitted by binary search). Labels with control characters make
// an SVG figure the browser's XML parser reads, and the PNG figure is made from it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, resultReady, POLL_MS } from './harness.mjs';
import { writeNpz } from '../../web/src/export/npy.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/**
 * Run in every page first: records the page's long tasks (durations, ms) in window.longTasks, and gives
 * it makeFiles(files) ({ name, text } or { name, size } of zeros, made in the page: their making is not
 * the import's time) and pickMade(): those files put into the export panel's file input, as a learner
 * picking them would.
 */
const observeLongTasks = () => {
  window.longTasks = [];
  new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask', buffered: true });
  window.makeFiles = (files) => { window.madeFiles = files.map((f) => new File([f.text ?? new Uint8Array(f.size)], f.name)); };
  window.pickMade = () => {
    const input = playgroundRoot().getElementById('import-files');
    const dt = new DataTransfer();
    for (const f of window.madeFiles) dt.items.add(f);
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
  };
};

/**
 * Main-thread time of importing `files` (null: window.bigFiles), from picking them until the import
 * status says how it went and the page has drawn: { status, tasks (the long tasks' durations, ms), cpu
 * (the main thread's CPU time, ms) }.
 */
async function importTime(page, files) {
  await page.evaluate((f) => window.makeFiles(f ?? window.bigFiles), files);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300))); // the making's tasks end before the clock starts
  await page.evaluate(() => { playgroundRoot().getElementById('import-status').textContent = ''; window.longTasks = []; });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const cpuNow = async () => 1000 * (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const cpu0 = await cpuNow();
  await page.evaluate(() => window.pickMade());
  await page.waitForFunction(() => /^(Imported|Not imported)/.test(playgroundRoot().getElementById('import-status').textContent), null, { timeout: 120000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))); // the tasks of the drawing that follows
  const cpu = await cpuNow() - cpu0;
  await cdp.detach();
  return page.evaluate(({ cpu }) => ({ status: playgroundRoot().getElementById('import-status').textContent, tasks: window.longTasks.slice(), cpu }), { cpu });
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

test('a 23.5 MB CSV imports within 1 s of main-thread time per 10 MB; 65 MiB is refused before reading', async () => {
  const n = 1400;
  const page = await openPage(h, `#panels=controls,heatmaps,export&d_model=8&n_heads=1&source=random&n_q=${n}&n_k=${n}`, { init: observeLongTasks });
  try {
    await page.waitForSelector('#import-files', { state: 'attached' });
    // the file is made in the page before the clock starts (rows of 1/1400, summing to 1 within 1e-6)
    await page.evaluate((k) => { window.bigFiles = [{ name: 'attention.csv', text: `${Array(k).fill('0.000714286').join(',')}\n`.repeat(k) }]; }, n);
    const bytes = await page.evaluate(() => window.bigFiles[0].text.length);
    const big = await importTime(page, null);
    const bound = 1000 * bytes / 10e6;
    console.log(`${(bytes / 1e6).toFixed(1)} MB CSV: ${big.status.slice(0, 60)}…; main thread busy ${big.cpu.toFixed(0)} ms of CPU (long tasks ${sum(big.tasks).toFixed(0)} ms of wall time in ${big.tasks.length}, longest ${Math.max(0, ...big.tasks).toFixed(0)} ms), bound ${bound.toFixed(0)} ms`);
    assert.match(big.status, /^Imported attention/);
    assert.ok(big.cpu > 0, 'the main thread\'s CPU time was read');
    assert.ok(big.cpu <= bound, `the import held the main thread ${big.cpu.toFixed(0)} ms of CPU (long tasks: ${big.tasks.map(Math.round).join(', ')} ms), more than ${bound.toFixed(0)} ms`);
    await resultReady(page, 120000);
    // 65 MiB: refused by its size, before any of it is read
    const huge = await importTime(page, [{ name: 'query.npy', size: 65 * 2 ** 20 }]);
    assert.match(huge.status, /^Not imported: query\.npy is 65\.0 MiB; files over 64\.0 MiB \(67108864 bytes\) are not imported/);
    assert.ok(huge.cpu < 200, `refusing by size held the main thread ${huge.cpu.toFixed(0)} ms of CPU (long tasks ${sum(huge.tasks).toFixed(0)} ms)`);
    // a .npy larger than the view's largest tensor: refused by its size too, naming the limit
    const large = await importTime(page, [{ name: 'query.npy', size: 20 * 2 ** 20 }]);
    assert.match(large.status, /query\.npy is 20971520 bytes; the limit is \d+ bytes \(the view's largest tensor, attention \[1, 1, 1400, 1400\], as float64 with a \.npy header\)/);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('8 labels of 100,000 characters and a 10,000-character word draw quickly; control characters make a well-formed SVG and a PNG', async () => {
  const page = await openPage(h, '#panels=controls,heatmaps,export&d_model=8&n_heads=1&source=random&n_q=8&n_k=8', { init: observeLongTasks });
  try {
    await page.waitForSelector('#import-files', { state: 'attached' });
    const maps = Array.from({ length: 8 }, () => Array(8).fill(0.125));
    const long = Array.from({ length: 8 }, (_, i) => 'abcdefgh'[i].repeat(100000));
    const json = JSON.stringify({ attention: [[maps]], labels_q: long, labels_k: long });
    const drawn = await importTime(page, [{ name: 'maps.json', text: json }]);
    assert.match(drawn.status, /^Imported attention/);
    await resultReady(page, 120000);
    const longest = Math.max(0, ...drawn.tasks);
    console.log(`8 labels of 100,000 characters: longest task ${longest.toFixed(0)} ms, ${sum(drawn.tasks).toFixed(0)} ms in all`);
    assert.ok(longest < 1000, `a task of ${longest.toFixed(0)} ms`);

    // Control characters in the labels: the SVG parses as XML, and the PNG is made.
    const odd = ['a\u0000b', 'c\u0001', '\u0008d', 'e\u001bf', 'g\ufffe', 'h\ud800', '<i&>', 'j'];
    assert.match((await importTime(page, [{ name: 'maps.json', text: JSON.stringify({ attention: [[maps]], labels_q: odd, labels_k: odd }) }])).status, /^Imported attention/);
    await resultReady(page, 120000);
    await page.waitForSelector('#figure-svg:not([disabled])');
    const svgCheck = await page.evaluate(async () => {
      const root = playgroundRoot();
      const made = [];
      const original = URL.createObjectURL;
      URL.createObjectURL = (blob) => { made.push(blob); return original.call(URL, blob); };
      root.getElementById('figure-svg').click();
      await new Promise((r) => setTimeout(r, 200));
      URL.createObjectURL = original;
      const text = await made.at(-1)?.text();
      const doc = new DOMParser().parseFromString(text ?? '', 'image/svg+xml');
      return { error: doc.querySelector('parsererror')?.textContent ?? null, labels: [...doc.querySelectorAll('text')].map((t) => t.textContent) };
    });
    assert.equal(svgCheck.error, null, 'the SVG is well-formed XML');
    assert.ok(svgCheck.labels.includes('a\u2400b') && svgCheck.labels.includes('<i&>'), `labels shown: ${svgCheck.labels.join(' | ')}`);
    await page.evaluate(() => { playgroundRoot().getElementById('figure-status').textContent = ''; playgroundRoot().getElementById('figure-png').click(); });
    await page.waitForFunction(() => playgroundRoot().getElementById('figure-status').textContent !== '', null, { timeout: 30000 });
    assert.match(await page.evaluate(() => playgroundRoot().getElementById('figure-status').textContent), /^Saved attention-map\.png/);

    // One word of 10,000 characters in the text: its label is fitted as quickly.
    await page.evaluate(() => { window.longTasks = []; location.hash = `panels=controls,heatmaps&d_model=8&n_heads=1&source=text&text=${'w'.repeat(10000)}%20cat%20sat`; });
    await resultReady(page, 120000);
    const word = await page.evaluate(() => window.longTasks.slice());
    console.log(`a 10,000-character word: longest task ${Math.max(0, ...word).toFixed(0)} ms`);
    assert.ok(Math.max(0, ...word) < 1000, `a task of ${Math.max(0, ...word).toFixed(0)} ms`);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('where no worker can start, a .npz is read on the page\'s own thread (the page-thread handlers\' import reader unzips it)', async () => {
  // No Worker at all: the playground computes on the page's thread, and reads imported files there too.
  const noWorker = () => { delete globalThis.Worker; };
  const page = await openPage(h, '#panels=controls,heatmaps,export&d_model=8&n_heads=1&source=random&n_q=8&n_k=8', { init: noWorker });
  try {
    await page.waitForSelector('#import-files', { state: 'attached' });
    const npz = writeNpz({ attention: { shape: [1, 1, 8, 8], data: new Float32Array(64).fill(0.125) } });
    await page.evaluate((bytes) => {
      const input = playgroundRoot().getElementById('import-files');
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(bytes)], 'maps.npz'));
      input.files = dt.files;
      input.dispatchEvent(new Event('change'));
    }, [...npz]);
    const ended = () => /^(Imported|Not imported)/.test(playgroundRoot().getElementById('import-status').textContent);
    await page.waitForFunction(ended, null, { timeout: 60000, polling: POLL_MS }).catch(() => {});
    const status = await page.evaluate(() => playgroundRoot().getElementById('import-status').textContent);
    assert.match(status, /^Imported attention/, `the import on the page's thread: ${status}`);
    assert.equal(await page.evaluate(() => typeof Worker), 'undefined', 'the page had no Worker');
    await resultReady(page, 120000);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});
