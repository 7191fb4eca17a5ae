// Export (issue 27): a bundle exported from the page's Export action, from <attention-playground>'s
// exportBundle() and from the Export action inside a playground iframe is unzipped and its
// reproduce.py run with Debian's python3 (numpy, torch): it must exit 0 with every difference below
// 1e-5, and exit non-zero once a tensor of the bundle is tampered with. The views cover
// cross-attention, causal + padding masks, GQA/MQA, batch, d_k/d_v overrides, scale and bias off, and
// dropout in training mode, RoPE and ALiBi, a strided mask. One page load per host. Waits are 60 s: the
// suite shares a loaded machine (a 30 s wait ran out once).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { startHarness, openPage, openUrl, serveSite, resultReady, POLL_MS } from './harness.mjs';
import { readNpy, writeNpy } from '../../web/src/export/npy.js';

// Debian's interpreter (its python3-torch and python3-numpy), not another python3 first on the PATH.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

let h, site;
const dirs = [];
before(async () => { h = await startHarness(); });
after(async () => {
  // The server ends at the end of its input: waited for, so that it is not still ending while the next file
  // of this lane (tests/browser/lane.mjs) runs.
  if (python) {
    const ended = new Promise((resolve) => python.child.once('exit', resolve));
    python.child.stdin.end();
    await ended;
  }
  await site?.close();
  await h?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Unzips a bundle into a new folder; returns { dir, files (name → bytes), view }. */
async function unpack(bytes) {
  const files = unzipSync(new Uint8Array(bytes));
  const dir = await mkdtemp(join(tmpdir(), 'attention-export-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return { dir, files, view: JSON.parse(new TextDecoder().decode(files['view.json'])) };
}

/**
 * The python3 that runs the bundles' reproduce.py (reproduce_server.py: NumPy and PyTorch imported once,
 * each run a fork of it), started on first use; ask(dir) resolves with the run's exit status (null if the
 * server ended first).
 */
let python = null;
function reproduceServer() {
  if (python) return python;
  // Its own process group: a run past its time is ended with the fork that runs it (kill(-pid)).
  const child = spawn(PYTHON, [fileURLToPath(new URL('./reproduce_server.py', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  const waiting = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    pending += d;
    for (let end; (end = pending.indexOf('\n')) >= 0; pending = pending.slice(end + 1)) waiting.shift()?.(JSON.parse(pending.slice(0, end)).status);
  });
  child.on('exit', () => { python = null; for (const answer of waiting.splice(0)) answer(null); });
  python = { child, ask: (dir) => new Promise((resolve) => { waiting.push(resolve); child.stdin.write(`${dir}\n`); }) };
  return python;
}

/** Runs reproduce.py in dir (as `python3 reproduce.py` there, 120 s at most): { status, out, worst } (worst: the largest difference it printed). */
async function reproduce(dir) {
  const server = reproduceServer();
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => { process.kill(-server.child.pid, 'SIGKILL'); resolve(null); }, 120000); });
  const status = await Promise.race([server.ask(dir), late]);
  clearTimeout(timer);
  const out = await readFile(join(dir, '.reproduce.out'), 'utf8').catch((e) => `(no output: ${e.message})`);
  const worst = Number(/largest difference (\S+) \(tolerance/.exec(out)?.[1]);
  return { status, out, worst };
}

/**
 * Checks one bundle: the files it must hold, reproduce.py passing, and failing once `output` is changed.
 * `within1e5`: the small views' largest raw difference is also below 1e-5 (a large view's float32
 * rounding may exceed it: reproduce.py's tolerance scales with the sizes and values, issue 35 item 4).
 */
async function checkBundle(bytes, what, { cross, bias, tamper = false, within1e5 = true }) {
  const { dir, files, view } = await unpack(bytes);
  const names = Object.keys(files);
  for (const name of ['query', 'wq', 'wk', 'wv', 'wo', 'q', 'k', 'v', 'attention', 'head_outputs', 'output']) {
    assert.ok(names.includes(`${name}.npy`), `${what}: ${name}.npy is in the bundle (${names})`);
  }
  assert.equal(names.includes('bq.npy'), bias, `${what}: the biases are there exactly when the layer has them`);
  assert.equal(names.includes('key.npy'), cross, `${what}: key.npy only for cross-attention`);
  assert.ok(names.includes('reproduce.py') && names.includes('view.json'), `${what}: ${names}`);
  // view.json's shapes are the files' shapes
  for (const [name, shape] of Object.entries(view.tensors)) assert.deepEqual(readNpy(files[`${name}.npy`]).shape, shape, `${what}: ${name}`);
  const ok = await reproduce(dir);
  assert.equal(ok.status, 0, `${what}: reproduce.py failed:\n${ok.out}`);
  if (within1e5) assert.ok(ok.worst < 1e-5, `${what}: largest difference ${ok.worst}\n${ok.out}`);
  const used = Number(/the closest element used (\d+)%/.exec(ok.out)?.[1]);
  assert.ok(used <= 100, `${what}: the closest element used ${used}% of its tolerance\n${ok.out}`);
  if (tamper) {
    const out = readNpy(files['output.npy']);
    out.data[out.data.length - 1] += 1e-3; // one number, well above the tolerance
    await writeFile(join(dir, 'output.npy'), writeNpy(out));
    const bad = await reproduce(dir);
    assert.notEqual(bad.status, 0, `${what}: a tampered output.npy still passed:\n${bad.out}`);
    assert.match(bad.out, /FAILED/);
  }
  return view;
}

test('bundles from the page, the element and an iframe reproduce in PyTorch within 1e-5; a tampered one fails', async () => {
  // The page: cross-attention, causal + padding, GQA, d_k/d_v overrides, bias and scale off, batch 2.
  const hash = '#panels=controls,heatmaps&attention=cross&text=the%20cat%20sat%0Athe%20dog%20ran%20far%20away&text_kv=le%20chat%0Ale%20chien%20court%20loin' +
    '&mask=causal%2Bpadding&padding=2,4&n_heads=4&n_kv_heads=2&d_k=12&d_v=20&bias=0&scale=0&positional=rope';
  const page = await openPage(h, hash);
  try {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.evaluate(() => playgroundRoot().getElementById('export').click())]);
    assert.match(download.suggestedFilename(), /^attention-.*\.zip$/);
    const path = join(await mkdtemp(join(tmpdir(), 'attention-dl-')), 'bundle.zip');
    dirs.push(join(path, '..'));
    await download.saveAs(path);
    const view = await checkBundle(await (await import('node:fs/promises')).readFile(path), 'page', { cross: true, bias: false, tamper: true });
    assert.equal(view.sizes.n_kv_heads, 2);
    assert.equal(view.sizes.d_v, 20);
    assert.deepEqual(view.sizes.padding, [2, 4]);
    assert.equal(view.state.mask, 'causal+padding');
    assert.equal(view.sizes.positional, 'rope');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }

  // A course page of another origin with an element (dropout in training mode, MQA, random inputs,
  // batch 3 with a padded-out item) and a playground iframe (constructed heads, causal mask).
  site = await serveSite({
    'index.html': `<!doctype html><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">
<script type="module" src="${h.url}attention-playground.js"></script>
<attention-playground id="el" panels="heatmaps" source="random" d_model="48" n_heads="6" n_kv_heads="1" n_q="7" batch="3" mask="padding" padding="7,3,0" dropout="0.3"></attention-playground>
<iframe id="frame" style="width:900px;height:700px" title="playground" src="${h.url}index.html#embed=1&panels=heatmaps&heads=previous,same_word,first_token,uniform&mask=strided&stride=2&positional=alibi&q_query=2&q_head=1"></iframe>`,
  });
  const course = await openUrl(h, `${site.url}index.html`, { waitForResult: false });
  try {
    await course.waitForFunction(() => document.getElementById('el').result !== null, null, { timeout: 60000, polling: POLL_MS });
    const bytes = await course.evaluate(async () => Array.from(new Uint8Array(await (await document.getElementById('el').exportBundle()).arrayBuffer())));
    const view = await checkBundle(Uint8Array.from(bytes), 'element', { cross: false, bias: true });
    assert.equal(view.sizes.dropout, 0.3);
    assert.match(view.notes.join(' '), /dropout/);
    // exportTensors(): the same tensors without the zip
    const shapes = await course.evaluate(async () => Object.fromEntries(Object.entries(await document.getElementById('el').exportTensors())
      .map(([name, t]) => [name, [t.shape, t.data.constructor.name, t.data.length]])));
    assert.deepEqual(shapes.attention, [[3, 6, 7, 7], 'Float32Array', 3 * 6 * 7 * 7]);
    assert.deepEqual(shapes.k[0], [3, 1, 7, 8]);
    // The element's importTensors refuses with the tensor, its shape and the view's; a view that cannot run exports nothing.
    const refused = await course.evaluate(() => document.getElementById('el').importTensors({ wk: { shape: [48, 48], data: new Float32Array(48 * 48) } })
      .then(() => 'imported', (e) => e.message));
    assert.match(refused, /wk has shape \[48, 48\]; the view needs \[d_model, n_kv_heads·d_k\] = \[48, 8\]/);
    await course.evaluate(() => document.getElementById('el').setAttribute('d_model', 'abc'));
    const nothing = await course.evaluate(() => document.getElementById('el').exportBundle().then(() => 'exported', (e) => e.message));
    assert.match(nothing, /^nothing to export: “d_model”/);

    const frame = course.frames().find((f) => f.url().includes('embed=1'));
    await frame.waitForFunction(() => (globalThis.playgroundRoot?.() ?? document.querySelector('#playground')?.shadowRoot)?.getElementById('status')?.textContent.startsWith('Ran in'), null, { timeout: 60000, polling: POLL_MS });
    const [download] = await Promise.all([course.waitForEvent('download', { timeout: 60000 }),
      frame.evaluate(() => document.querySelector('#playground').shadowRoot.getElementById('export').click())]);
    const path = join(await mkdtemp(join(tmpdir(), 'attention-dl-')), 'frame.zip');
    dirs.push(join(path, '..'));
    await download.saveAs(path);
    const framed = await checkBundle(await (await import('node:fs/promises')).readFile(path), 'iframe', { cross: false, bias: true });
    assert.ok(framed.tensors.trace_weights, 'the followed query (q_query) is in the bundle as trace_*');
    assert.deepEqual([framed.sizes.stride, framed.sizes.positional], [2, 'alibi']);
    assert.deepEqual(course.problems, []);
  } finally {
    await course.closeAll();
  }
});

// Issue 35, item 4: a correct float32 run of d_model 512, one head, the scale off and n_q 32 differed from
// float64 by 1.221e-05 in head_outputs, and reproduce.py said FAILED against a fixed 1e-5. Its tolerance
// now follows the float32 error of the view's sizes and values: this run passes, a changed number fails.
test('a large view (d_model 512, n_heads 1, scale off, n_q 32) reproduces: the tolerance scales with float32 rounding', async () => {
  const page = await openPage(h, '#panels=heatmaps&d_model=512&n_heads=1&scale=0&source=random&n_q=32&input_seed=3');
  try {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.evaluate(() => playgroundRoot().getElementById('export').click())]);
    const path = join(await mkdtemp(join(tmpdir(), 'attention-dl-')), 'large.zip');
    dirs.push(join(path, '..'));
    await download.saveAs(path);
    const view = await checkBundle(await (await import('node:fs/promises')).readFile(path), 'd_model 512 scale off',
      { cross: false, bias: true, tamper: true, within1e5: false });
    assert.deepEqual([view.sizes.d_model, view.sizes.n_heads, view.sizes.scale, view.sizes.n_q], [512, 1, false, 32]);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

/** Picks files (name → bytes) in the export panel's file input, and waits for its import status. */
async function pick(page, files) {
  const input = page.locator('#import-files');
  await page.evaluate(() => { playgroundRoot().getElementById('import-status').textContent = ''; });
  await input.setInputFiles(Object.entries(files).map(([name, bytes]) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) })));
  await page.waitForFunction(() => /^(Imported|Not imported)/.test(playgroundRoot().getElementById('import-status').textContent), null, { timeout: 60000, polling: POLL_MS });
  return page.evaluate(() => playgroundRoot().getElementById('import-status').textContent);
}

/** A seeded stream of numbers in (-1, 1), so the imported tensors differ from the page's own. */
function numbers(count, seed) {
  let s = seed;
  return Float32Array.from({ length: count }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 1073741824 - 1;
  });
}

test('imports of .npy, .json, .npz and .csv drive the run (and reproduce), attention maps alone are drawn, bad files are refused', async () => {
  const d = 8, h2 = 2, n = 3;
  const page = await openPage(h, `#panels=controls,heatmaps,export,query,compare&d_model=${d}&n_heads=${h2}&source=random&n_q=${n}&n_k=${n}&q_item=0&q_head=1&q_query=1&q_key=0`);
  try {
    await page.waitForSelector('#import-files', { state: 'attached' });
    // Parameters as .npy and the query as .json: the run uses them, the link says so, and the export
    // of the run holds exactly them and reproduces in PyTorch.
    const wq = numbers(d * d, 3), query = numbers(n * d, 5);
    const json = JSON.stringify({ query: { shape: [1, n, d], data: Array.from(query) } });
    const said = await pick(page, { 'wq.npy': writeNpy({ shape: [d, d], data: wq }), 'inputs.json': new TextEncoder().encode(json) });
    assert.match(said, /^Imported wq, query/);
    await resultReady(page);
    assert.match(await page.evaluate(() => location.hash), /imported=tensors/);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.evaluate(() => playgroundRoot().getElementById('export-bundle').click())]);
    const path = join(await mkdtemp(join(tmpdir(), 'attention-dl-')), 'imported.zip');
    dirs.push(join(path, '..'));
    await download.saveAs(path);
    const { readFile } = await import('node:fs/promises');
    const { dir, files, view } = await unpack(await readFile(path));
    assert.deepEqual(Array.from(readNpy(files['wq.npy']).data), Array.from(wq), 'the run used the imported wq');
    assert.deepEqual(Array.from(readNpy(files['query.npy']).data), Array.from(query), 'the run used the imported query');
    assert.equal(view.state.imported, 'tensors');
    assert.match(view.notes.join(' '), /imported/);
    const ok = await reproduce(dir);
    assert.equal(ok.status, 0, ok.out);

    // Attention maps alone (.npz, h × n_q × n_k with rows summing to 1): the heatmaps draw them.
    const maps = new Float32Array(h2 * n * n);
    for (let r = 0; r < h2 * n; r++) for (let j = 0; j < n; j++) maps[r * n + j] = [0.5, 0.3, 0.2][(j + r) % n];
    const { writeNpz } = await import('../../web/src/export/npy.js');
    assert.match(await pick(page, { 'maps.npz': writeNpz({ attention: { shape: [h2, n, n], data: maps } }) }), /^Imported attention/);
    await resultReady(page);
    const drawn = await page.evaluate(() => JSON.parse(playgroundRoot().querySelector('.heat-main-canvas').dataset.attention));
    assert.deepEqual(drawn.map((x) => Math.round(x * 1e6) / 1e6), Array.from(maps.subarray(0, n * n)).map((x) => Math.round(x * 1e6) / 1e6));
    assert.match(await page.evaluate(() => location.hash), /imported=attention/);
    const [mapsDownload] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.evaluate(() => playgroundRoot().getElementById('export-bundle').click())]);
    const mapsPath = join(await mkdtemp(join(tmpdir(), 'attention-dl-')), 'maps.zip');
    dirs.push(join(mapsPath, '..'));
    await mapsDownload.saveAs(mapsPath);
    const mapsBundle = await unpack(await readFile(mapsPath));
    assert.deepEqual(Object.keys(mapsBundle.files).sort(), ['attention.npy', 'view.json'], 'imported maps alone: no layer, no reproduce.py');
    assert.deepEqual(Array.from(readNpy(mapsBundle.files['attention.npy']).data), Array.from(maps));
    assert.match(mapsBundle.view.notes.join(' '), /imported/);
    // Follow one query shows the imported row (head 2, query 1) and says the q/k/v steps need the layer;
    // compare heads measures the imported maps (entropy against a float64 loop) and has no ablation.
    await page.waitForSelector('#query-imported', { timeout: 60000 });
    const row = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.query-row tbody tr')].map((tr) => Number(tr.dataset.weight)));
    assert.deepEqual(row, Array.from(maps.subarray((1 * n + 1) * n, (1 * n + 2) * n)), 'the imported row of head 2, query 1');
    await page.waitForSelector('#compare-needs-layer', { timeout: 60000 });
    const entropies = await page.evaluate(() => [...playgroundRoot().querySelectorAll('#compare-metrics tr[data-head]')].map((tr) => Number(tr.dataset.entropy)));
    for (let k = 0; k < h2; k++) {
      let e = 0;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { const a = maps[(k * n + i) * n + j]; if (a > 0) e -= a * Math.log(a); }
      assert.ok(Math.abs(entropies[k] - e / n) < 1e-6, `head ${k + 1}: entropy ${entropies[k]} of the imported maps against ${e / n}`);
    }

    // Refusals, each naming the problem.
    const refusals = [
      [{ 'wq.npy': writeNpy({ shape: [d, d + 1], data: new Float32Array(d * (d + 1)) }) }, /wq has shape \[8, 9\]; the view needs \[d_model, n_heads·d_k\] = \[8, 8\]/],
      [{ 'attention.csv': new TextEncoder().encode('0.5,0.5,0\n0.2,0.2,0.2\n1,0,0\n') }, /attention has shape \[3, 3\]; the view needs \[batch, n_heads, n_q, n_k\] = \[1, 2, 3, 3\]/],
      [{ 'query.json': new TextEncoder().encode(JSON.stringify({ query: { shape: [1, n, d], data: Array(n * d).fill(0).map((_, i) => (i === 5 ? null : 0)) } })) }, /query: entry 5 is null, not a number \(JSON writes NaN and Infinity as null\)/],
      [{ 'maps.npz': writeNpz({ attention: { shape: [h2, n, n], data: maps.map((x, i) => (i === 4 ? x + 0.1 : x)) } }) }, /attention row \(batch 0, head 0, query 1\) sums to 1\.1/],
      [{ 'notes.txt': new TextEncoder().encode('hello') }, /notes\.txt: \.txt files are not read/],
      [{ 'weights.npy': writeNpy({ shape: [d, d], data: wq }) }, /weights\.npy: name the file after the tensor it holds/],
    ];
    for (const [files, pattern] of refusals) assert.match(await pick(page, files), pattern);
    // A CSV attention map with word labels, in a one-head view.
    await page.evaluate(() => { location.hash = 'panels=controls,heatmaps,export&d_model=8&n_heads=1&source=random&n_q=3&n_k=3'; });
    await resultReady(page);
    const csv = ',the,cat,sat\nthe,1,0,0\ncat,0.5,0.5,0\nsat,0.25,0.25,0.5\n';
    assert.match(await pick(page, { 'attention.csv': new TextEncoder().encode(csv) }), /^Imported attention/);
    await resultReady(page);
    const csvDrawn = await page.evaluate(() => JSON.parse(playgroundRoot().querySelector('.heat-main-canvas').dataset.attention));
    assert.deepEqual(csvDrawn, [1, 0, 0, 0.5, 0.5, 0, 0.25, 0.25, 0.5]);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

/** Clicks a button of the export panel and returns the file it saves: { name, bytes }. */
async function saved(page, id) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.evaluate((b) => playgroundRoot().getElementById(b).click(), id)]);
  const path = join(await mkdtemp(join(tmpdir(), 'attention-fig-')), download.suggestedFilename());
  dirs.push(join(path, '..'));
  await download.saveAs(path);
  const { readFile } = await import('node:fs/promises');
  return { name: download.suggestedFilename(), bytes: await readFile(path) };
}

test('the map as SVG and PNG (2×): title, axes, token labels, colour scale, the colour of a known cell; a table copied as CSV; all heads and a uPlot chart as figures', async () => {
  const { VIRIDIS_LUT } = await import('../../web/src/render/viridis_lut.js');
  const page = await openPage(h, '#panels=controls,heatmaps,cost,export,gradients,compare&colors=row&head=2');
  try {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url.replace(/\/$/, '') });
    await page.waitForSelector('#figure-svg:not([disabled])');
    const weights = await page.evaluate(() => JSON.parse(playgroundRoot().querySelector('.heat-main-canvas').dataset.attention));
    const n = Math.sqrt(weights.length);
    const svg = await saved(page, 'figure-svg');
    assert.equal(svg.name, 'attention-map.svg');
    const text = svg.bytes.toString('utf8');
    assert.match(text, /<title>Attention weights, head 3 of 4<\/title>/);
    for (const word of ['the', 'cat', 'warm', 'queries', 'keys →', 'row max']) assert.ok(text.includes(`>${word}<`) || text.includes(word), `the SVG shows “${word}”`);
    const [, width, height] = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(text).map(Number);
    const cells = [...text.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="[\d.]+" fill="(#[0-9a-f]{6})"><title>/g)];
    assert.equal(cells.length, n * n, 'one rectangle per cell');
    // The known cell: query 2, key 1, coloured as the page colours it ('row': its weight over its row's largest).
    const r = 2, c = 1;
    const row = weights.slice(r * n, (r + 1) * n);
    const i = Math.round((weights[r * n + c] / Math.max(...row)) * 255) * 3;
    const want = [VIRIDIS_LUT[i], VIRIDIS_LUT[i + 1], VIRIDIS_LUT[i + 2]];
    const cell = cells[r * n + c];
    assert.equal(cell[4], `#${want.map((v) => v.toString(16).padStart(2, '0')).join('')}`, `cell (${r}, ${c}) of weight ${weights[r * n + c]}`);
    const bg = /<rect width="\d+" height="\d+" fill="([^"]+)"/.exec(text)[1];
    assert.equal(bg, await page.evaluate(() => getComputedStyle(playgroundRoot().querySelector('.ap')).getPropertyValue('--bg').trim()), 'the theme shown');

    // PNG at 2×: its size from the IHDR chunk, and the known cell's colour read back by the browser.
    await page.evaluate(() => { playgroundRoot().getElementById('figure-light').checked = true; });
    const png = await saved(page, 'figure-png');
    assert.deepEqual([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], [2 * width, 2 * height], 'twice the SVG\'s size');
    const [x, y, size] = [Number(cell[1]), Number(cell[2]), Number(cell[3])];
    const pixel = await page.evaluate(async ({ bytes, px, py }) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d', { willReadFrequently: true }); // two reads: the browser says to ask for this
      ctx.drawImage(bitmap, 0, 0);
      return [Array.from(ctx.getImageData(px, py, 1, 1).data), Array.from(ctx.getImageData(2, 2, 1, 1).data)];
    }, { bytes: Array.from(png.bytes), px: Math.round(2 * (x + size / 2)), py: Math.round(2 * (y + size / 2)) });
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(pixel[0][k] - want[k]) <= 2, `PNG cell colour ${pixel[0]} against ${want}`);
    assert.deepEqual(pixel[1].slice(0, 3), [255, 255, 255], 'the light theme on request');

    // A table copied as CSV: the cost panel's first table, row by row.
    // The cost panel's own button (another panel's may come first: the cost panel is built when its turn comes).
    await page.waitForFunction(() => [...playgroundRoot().querySelectorAll('.copy-csv')].some((b) => b.textContent.includes('“Cost')), null, { timeout: 60000, polling: POLL_MS });
    // Several tables of one panel are numbered within it, from (1) (they were numbered in the whole list).
    const costParts = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.copy-csv')].filter((b) => b.textContent.includes('“Cost'))
      .map((b) => /\((\d+)\) as CSV/.exec(b.textContent)?.[1] ?? ''));
    assert.deepEqual(costParts, costParts.length > 1 ? costParts.map((_, i) => String(i + 1)) : [''], 'the cost panel\'s buttons');
    await page.evaluate(() => [...playgroundRoot().querySelectorAll('.copy-csv')].find((b) => b.textContent.includes('“Cost')).click());
    await page.waitForFunction(() => /^Copied/.test(playgroundRoot().getElementById('table-status')?.textContent));
    // Said beside the button pressed (a line above a list of ~36 was off a phone's screen).
    assert.ok(await page.evaluate(() => playgroundRoot().getElementById('table-status').closest('li')
      === [...playgroundRoot().querySelectorAll('.copy-csv')].find((b) => b.textContent.includes('“Cost')).closest('li')), 'the status is in the pressed button\'s item');
    const csv = await page.evaluate(() => navigator.clipboard.readText());
    const firstRow = await page.evaluate(() => [...playgroundRoot().querySelector('[data-panel="cost"] table tr').children].map((td) => td.textContent.trim()));
    assert.equal(csv.split('\n')[0], firstRow.map((s) => (/[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)).join(','));
    assert.ok(csv.trim().split('\n').length > 2, csv);

    // Every head's map as one figure: one nested map per head under one title.
    const heads = (await saved(page, 'attention-heads-svg')).bytes.toString('utf8');
    assert.match(heads, /<title>Attention weights, all 4 heads<\/title>/);
    assert.equal([...heads.matchAll(/<svg x="\d+" y="\d+"/g)].length, 4, 'a map per head');
    for (let k = 1; k <= 4; k++) assert.ok(heads.includes(`head ${k} of 4`), `head ${k} is titled`);
    // The compare panel's similarity map: a cell per head pair, its diagonal (a head against itself) at the top of the scale.
    await page.waitForSelector('#compare-similarity-svg', { timeout: 60000 });
    await page.waitForFunction(() => playgroundRoot().querySelector('.compare-similarity')?.dataset.similarity, null, { timeout: 60000, polling: POLL_MS });
    const similarity = (await saved(page, 'compare-similarity-svg')).bytes.toString('utf8');
    const simCells = [...similarity.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+" fill="(#[0-9a-f]{6})"><title>([^<]+)</g)];
    assert.equal(simCells.length, 16, 'a cell per pair of the 4 heads');
    for (let k = 0; k < 4; k++) assert.equal(simCells[k * 5][2], '1.000', `head ${k + 1} against itself`);

    // A uPlot chart (the √d_k gradient chart) as SVG: title, axis labels, tick labels, a path per series
    // with as many points as the chart's data, the legend; and as PNG at twice the SVG's size.
    await page.waitForFunction(() => playgroundRoot().querySelector('#grad-chart canvas') && playgroundRoot().getElementById('grad-chart').dataset.rows, null, { timeout: 60000, polling: POLL_MS });
    const rows = await page.evaluate(() => JSON.parse(playgroundRoot().getElementById('grad-chart').dataset.rows));
    const chart = (await saved(page, 'grad-figure-svg')).bytes.toString('utf8');
    assert.match(chart, /<title>Gradient reaching the scores against d_k, with and without 1\/√d_k<\/title>/);
    for (const label of ['>d_k<', '>‖∂L/∂S‖ per row<', `>${rows[0].d_k}<`, '>scaled, median<', '>unscaled, mean<']) assert.ok(chart.includes(label), `the chart SVG shows ${label}`);
    const paths = [...chart.matchAll(/<path data-series="([^"]+)" d="([^"]*)"/g)];
    assert.deepEqual(paths.map((p) => p[1]), ['scaled, median', 'unscaled, median', 'scaled, mean', 'unscaled, mean'], 'a path per series');
    for (const p of paths) assert.equal((p[2].match(/[ML]/g) ?? []).length, rows.length, `${p[1]}: a vertex per d_k (${p[2]})`);
    const [, cw, ch] = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(chart).map(Number);
    const chartPng = await saved(page, 'grad-figure-png');
    assert.deepEqual([chartPng.bytes.readUInt32BE(16), chartPng.bytes.readUInt32BE(20)], [2 * cw, 2 * ch], 'the chart PNG at 2×');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('a table\'s Copy button outlives its panel\'s redraw and copies the table shown now', async () => {
  const page = await openPage(h, '#panels=controls,heatmaps,cost,export');
  try {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url.replace(/\/$/, '') });
    const names = () => page.evaluate(() => [...playgroundRoot().querySelectorAll('.copy-csv')].map((b) => b.textContent).join(' | '));
    // An edit redraws the cost panel with new tables of the same names: the buttons are the ones made before it.
    await page.waitForFunction(() => (window.costCopy = () => [...playgroundRoot().querySelectorAll('.copy-csv')].find((b) => b.textContent.includes('“Cost')))(), null, { timeout: 60000, polling: POLL_MS });
    const before = await names();
    await page.evaluate(() => { window.keptCopyButton = window.costCopy(); });
    const tableText = () => page.evaluate(() => playgroundRoot().querySelector('[data-panel="cost"] table').textContent);
    const dModel = await page.locator('#f-d_model').inputValue();
    const old = await tableText();
    await page.locator('#f-d_model').fill(dModel === '32' ? '64' : '32');
    await page.waitForFunction((old) => playgroundRoot().querySelector('[data-panel="cost"] table')?.textContent !== old, old, { timeout: 60000, polling: POLL_MS });
    // The list is looked at once the view has settled, at most once a frame: both waited for.
    await page.waitForFunction(() => playgroundRoot().querySelector('.ap')?.dataset.settled === '1', null, { timeout: 60000, polling: POLL_MS });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await names(), before, 'the same tables by name');
    assert.ok(await page.evaluate(() => window.keptCopyButton.isConnected && window.costCopy() === window.keptCopyButton), 'the cost table\'s Copy button is kept (a focus on it would stay)');
    await page.evaluate(() => window.keptCopyButton.click());
    await page.waitForFunction(() => /^Copied/.test(playgroundRoot().getElementById('table-status')?.textContent));
    const csv = await page.evaluate(() => navigator.clipboard.readText());
    const shown = await page.evaluate(() => [...playgroundRoot().querySelector('[data-panel="cost"] table').querySelectorAll('tr')]
      .map((tr) => [...tr.children].map((td) => td.textContent.replace(/\s+/g, ' ').trim()).map((s) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)).join(',')).join('\n') + '\n');
    assert.equal(csv, shown, 'the cost panel\'s first table as shown after the edit');
    // A button whose table is gone by its name (here its panel's heading renamed) copies nothing, says so and
    // makes the list again at once.
    await page.evaluate(() => { playgroundRoot().querySelector('[data-panel="cost"] h2').textContent = 'Cost renamed'; window.keptCopyButton.click(); });
    assert.match(await page.evaluate(() => playgroundRoot().getElementById('table-status').textContent), /^The table “Cost: parameters, FLOPs, memory” is no longer shown/);
    assert.ok(await page.evaluate(() => playgroundRoot().getElementById('table-status').closest('#figure-tables li')), 'said where the button was');
    assert.ok((await names()).includes('Copy “Cost renamed” (1) as CSV'), await names());
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('the notebook widget imports a `tensors` trait (bytes of an .npz of attention maps) with its tokens, and shows a refusal', async () => {
  const { writeNpz } = await import('../../web/src/export/npy.js');
  const heads = 3, n = 4;
  const maps = new Float32Array(heads * n * n);
  for (let r = 0; r < heads * n; r++) for (let j = 0; j <= r % n; j++) maps[r * n + j] = 1 / ((r % n) + 1); // causal, uniform
  const good = Array.from(writeNpz({ attention: { shape: [heads, n, n], data: maps } }));
  const bad = Array.from(writeNpz({ attention: { shape: [heads, n, n], data: maps.map((x) => x * 2) } }));
  const notebook = await serveSite({ 'cell.html': `<!doctype html><meta charset="utf-8"><title>cell</title><link rel="icon" href="data:,">
<div id="cell"></div>
<script type="module">
  import widget from '${h.url}attention-playground.js';
  class Model { // what anywidget hands render(): get, set, on, off, save_changes; a Bytes trait arrives as a DataView
    constructor(data) { this.data = data; this.handlers = {}; }
    get(key) { return this.data[key]; }
    set(key, value) { this.data[key] = value; }
    on(e, fn) { (this.handlers[e] ??= new Set()).add(fn); }
    off(e, fn) { this.handlers[e]?.delete(fn); }
    save_changes() {}
    fromKernel(key, value) { this.data[key] = value; for (const fn of this.handlers['change:' + key] ?? []) fn(); }
  }
  window.model = new Model({ panels: 'heatmaps', source: 'random', d_model: 24, n_heads: ${heads}, n_q: ${n}, mask: 'causal',
    tensors: new DataView(new Uint8Array(${JSON.stringify(good)}).buffer), tokens: ['the', 'cat', 'sat', 'down'] });
  widget.render({ model: window.model, el: document.getElementById('cell') });
  window.bad = new DataView(new Uint8Array(${JSON.stringify(bad)}).buffer);
</script>` });
  const page = await openUrl(h, `${notebook.url}cell.html`, { waitForResult: false });
  try {
    const shown = () => page.evaluate(() => document.querySelector('#cell div').shadowRoot.querySelector('.heat-main-canvas')?.dataset.attention ?? '');
    await page.waitForFunction((want) => document.querySelector('#cell div')?.shadowRoot?.querySelector('.heat-main-canvas')?.dataset.attention === want,
      JSON.stringify(Array.from(maps.subarray(0, n * n))), { timeout: 60000, polling: POLL_MS });
    assert.deepEqual(JSON.parse(await shown()), Array.from(maps.subarray(0, n * n)));
    const labels = await page.evaluate(async () => {
      const root = document.querySelector('#cell div').shadowRoot;
      const canvas = root.querySelector('.heat-main-canvas');
      canvas.focus(); // the readout names the cell's words
      canvas.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      return root.querySelector('[data-panel="heatmaps"] .readout, [data-panel="heatmaps"] [aria-live]')?.textContent ?? '';
    });
    assert.match(labels, /“the”.*“cat”|“cat”|“the”/, `the tokens label the map: ${labels}`);
    await page.evaluate(() => window.model.fromKernel('tensors', window.bad));
    await page.waitForFunction(() => !document.querySelector('#cell .import-error').hidden, null, { timeout: 60000, polling: POLL_MS });
    assert.match(await page.textContent('#cell .import-error'), /not imported: attention row \(batch 0, head 0, query 0\) sums to 2\.00000, not 1/);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
    await notebook.close();
  }
});
