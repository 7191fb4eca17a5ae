// Export (issue 27): a bundle exported from the page's Export action, from <attention-playground>'s
// exportBundle() and from the Export action inside a playground iframe is unzipped and its
// reproduce.py run with Debian's python3 (numpy, torch): it must exit 0 with every difference below
// 1e-5, and exit non-zero once a tensor of the bundle is tampered with. The views cover
// cross-attention, causal + padding masks, GQA/MQA, batch, d_k/d_v overrides, scale and bias off, and
// dropout in training mode. One page load per host.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { unzipSync } from 'fflate';
import { startHarness, openPage, openUrl, serveSite, resultReady } from './harness.mjs';
import { readNpy, writeNpy } from '../../web/src/export/npy.js';

// Debian's interpreter (its python3-torch and python3-numpy), not another python3 first on the PATH.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

let h, site;
const dirs = [];
before(async () => { h = await startHarness(); });
after(async () => {
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

/** Runs reproduce.py in dir: { status, out, worst } (worst: the largest difference it printed). */
function reproduce(dir) {
  const r = spawnSync(PYTHON, ['reproduce.py'], { cwd: dir, encoding: 'utf8', timeout: 120000 });
  const worst = Number(/largest difference (\S+) \(tolerance/.exec(r.stdout)?.[1]);
  return { status: r.status, out: `${r.stdout}${r.stderr}`, worst };
}

/** Checks one bundle: the files it must hold, reproduce.py passing, and failing once `output` is changed. */
async function checkBundle(bytes, what, { cross, bias, tamper = false }) {
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
  const ok = reproduce(dir);
  assert.equal(ok.status, 0, `${what}: reproduce.py failed:\n${ok.out}`);
  assert.ok(ok.worst < 1e-5, `${what}: largest difference ${ok.worst}\n${ok.out}`);
  if (tamper) {
    const out = readNpy(files['output.npy']);
    out.data[out.data.length - 1] += 1e-3; // one number, well above the tolerance
    await writeFile(join(dir, 'output.npy'), writeNpy(out));
    const bad = reproduce(dir);
    assert.notEqual(bad.status, 0, `${what}: a tampered output.npy still passed:\n${bad.out}`);
    assert.match(bad.out, /FAILED/);
  }
  return view;
}

test('bundles from the page, the element and an iframe reproduce in PyTorch within 1e-5; a tampered one fails', async () => {
  // The page: cross-attention, causal + padding, GQA, d_k/d_v overrides, bias and scale off, batch 2.
  const hash = '#panels=controls,heatmaps&attention=cross&text=the%20cat%20sat%0Athe%20dog%20ran%20far%20away&text_kv=le%20chat%0Ale%20chien%20court%20loin' +
    '&mask=causal%2Bpadding&padding=2,4&n_heads=4&n_kv_heads=2&d_k=12&d_v=20&bias=0&scale=0';
  const page = await openPage(h, hash);
  try {
    const [download] = await Promise.all([page.waitForEvent('download'), page.evaluate(() => playgroundRoot().getElementById('export').click())]);
    assert.match(download.suggestedFilename(), /^attention-.*\.zip$/);
    const path = join(await mkdtemp(join(tmpdir(), 'attention-dl-')), 'bundle.zip');
    dirs.push(join(path, '..'));
    await download.saveAs(path);
    const view = await checkBundle(await (await import('node:fs/promises')).readFile(path), 'page', { cross: true, bias: false, tamper: true });
    assert.equal(view.sizes.n_kv_heads, 2);
    assert.equal(view.sizes.d_v, 20);
    assert.deepEqual(view.sizes.padding, [2, 4]);
    assert.equal(view.state.mask, 'causal+padding');
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
<iframe id="frame" style="width:900px;height:700px" title="playground" src="${h.url}index.html#embed=1&panels=heatmaps&heads=previous,same_word,first_token,uniform&mask=causal&q_query=2&q_head=1"></iframe>`,
  });
  const course = await openUrl(h, `${site.url}index.html`, { waitForResult: false });
  try {
    await course.waitForFunction(() => document.getElementById('el').result !== null, null, { timeout: 30000 });
    const bytes = await course.evaluate(async () => Array.from(new Uint8Array(await (await document.getElementById('el').exportBundle()).arrayBuffer())));
    const view = await checkBundle(Uint8Array.from(bytes), 'element', { cross: false, bias: true });
    assert.equal(view.sizes.dropout, 0.3);
    assert.match(view.notes.join(' '), /dropout/);
    // exportTensors(): the same tensors without the zip
    const shapes = await course.evaluate(async () => Object.fromEntries(Object.entries(await document.getElementById('el').exportTensors())
      .map(([name, t]) => [name, [t.shape, t.data.constructor.name, t.data.length]])));
    assert.deepEqual(shapes.attention, [[3, 6, 7, 7], 'Float32Array', 3 * 6 * 7 * 7]);
    assert.deepEqual(shapes.k[0], [3, 1, 7, 8]);

    const frame = course.frames().find((f) => f.url().includes('embed=1'));
    await frame.waitForFunction(() => (globalThis.playgroundRoot?.() ?? document.querySelector('#playground')?.shadowRoot)?.getElementById('status')?.textContent.startsWith('Ran in'), null, { timeout: 30000 });
    const [download] = await Promise.all([course.waitForEvent('download'),
      frame.evaluate(() => document.querySelector('#playground').shadowRoot.getElementById('export').click())]);
    const path = join(await mkdtemp(join(tmpdir(), 'attention-dl-')), 'frame.zip');
    dirs.push(join(path, '..'));
    await download.saveAs(path);
    const framed = await checkBundle(await (await import('node:fs/promises')).readFile(path), 'iframe', { cross: false, bias: true });
    assert.ok(framed.tensors.trace_weights, 'the followed query (q_query) is in the bundle as trace_*');
    assert.deepEqual(course.problems, []);
  } finally {
    await course.closeAll();
  }
});
