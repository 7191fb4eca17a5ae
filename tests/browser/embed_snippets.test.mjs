// Every fenced snippet of web/EMBED.md is run as written (issue 38), with the example folder
// https://example.org/attention/ replaced by where dist/ is served, on a course page of ANOTHER origin
// (serveSite: another port), and the test checks what the sentence beside it claims. Each snippet is
// named by a <!-- snippet:NAME … --> line above its fence; a snippet this file does not run names the
// test file that does (that file must say so), or the one reason it cannot run here. A new snippet
// without a runner fails the first test, naming it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { startHarness, serveSite, openUrl, root, screenshot, frameFollowsContent } from './harness.mjs';
import { CHAPTERS } from '../../web/src/lesson/chapters.js';

const doc = await readFile(join(root, 'web/EMBED.md'), 'utf8');
const EXAMPLE = 'https://example.org/attention/';

/** Every fenced block of `text`: { name (its marker's, or null), lang, text, line }; a fence ends at the same fence. */
function fences(text) {
  const lines = text.split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.indexOf(open[1], i + 1);
    assert.ok(end > i, `web/EMBED.md line ${i + 1}: a fence that never closes`);
    const marker = /^<!-- snippet:(\S+)(?: \S+)? -->$/.exec(lines[i - 1] ?? '');
    found.push({ name: marker?.[1] ?? null, lang: open[2], text: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return found;
}
const SNIPPETS = fences(doc);
const snippet = (name) => {
  const s = SNIPPETS.find((x) => x.name === name);
  assert.ok(s, `web/EMBED.md has no snippet ${name}`);
  return s.text;
};

// Run by another test file, which holds the string given (it reads the snippet from EMBED.md itself).
const ELSEWHERE = {
  python: ['sites.test.mjs', "snippet('python'"], myst: ['sites.test.mjs', "snippet('myst'"],
  'mkdocs-page': ['sites.test.mjs', "put('mkdocs-page')"], 'mkdocs-site': ['sites.test.mjs', "snippet('mkdocs-site'"],
  'mkdocs-override': ['sites.test.mjs', "put('mkdocs-override')"], 'mkdocs-site-page': ['sites.test.mjs', "put('mkdocs-site-page')"],
  'sphinx-page': ['sites.test.mjs', "put('sphinx-page')"], 'sphinx-site': ['sites.test.mjs', "snippet('sphinx-site'"],
  'sphinx-site-page': ['sites.test.mjs', "put('sphinx-site-page')"], quarto: ['sites.test.mjs', "snippet('quarto'"],
  'xapi-host': ['scorm.test.mjs', '### xAPI: forwarding to a learning record store'],
  'lesson-element': ['author_lesson.test.mjs', "doc.indexOf('## Your own words and exercises')"],
  'frames-listener': ['author_lesson.test.mjs', "doc.indexOf('### Messages from frames')"],
};
// Not run anywhere, and why (reported, not hidden).
const NOT_RUN = {
  'notebook-import': 'it loads bert-base-uncased with transformers and PyTorch: neither is packaged by Debian, and the model would be downloaded',
};
// Run here (the tests below).
const HERE = ['element-two', 'element-api', 'compose-profile', 'compose-panels', 'compose-random', 'compose-nav', 'iframe',
  'exercises-api', 'scorm-command', 'export-api'];

test('every snippet of EMBED.md is named and has a runner: this file, another test that reads it, or a stated reason', async () => {
  const unnamed = SNIPPETS.filter((s) => !s.name).map((s) => `line ${s.line} (${s.lang})`);
  assert.deepEqual(unnamed, [], 'fenced snippets without a <!-- snippet:NAME --> line above them');
  const names = SNIPPETS.map((s) => s.name);
  assert.equal(new Set(names).size, names.length, `a name used twice: ${names}`);
  const unrun = names.filter((n) => !HERE.includes(n) && !ELSEWHERE[n] && !NOT_RUN[n]);
  assert.deepEqual(unrun, [], 'snippets no test runs: add a runner here (or in a test that reads them)');
  for (const [name, [file, marker]] of Object.entries(ELSEWHERE)) {
    assert.ok(names.includes(name), `${name}: no such snippet any more`);
    assert.ok((await readFile(join(root, 'tests/browser', file), 'utf8')).includes(marker), `${file} runs ${name} (it holds “${marker}”)`);
  }
  for (const [name, why] of Object.entries(NOT_RUN)) console.log(`not run: ${name}: ${why}`);
});

let h, site;
const local = (text) => text.replaceAll(EXAMPLE, h.url);
const page = (body, { script = true } = {}) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,">
${script ? `<script type="module" src="${h.url}attention-playground.js"></script>` : ''}</head><body><main>
${body}
</main></body></html>`;

before(async () => {
  h = await startHarness();
  const lms = '<script>window.lms = { calls: [], record(...a) { this.calls.push(["record", ...a]); }, score(s) { this.calls.push(["score", s]); } };</script>';
  site = await serveSite({
    'two.html': page(local(snippet('element-two')), { script: false }),
    'compose.html': page(['compose-profile', 'compose-panels', 'compose-random', 'compose-nav'].map((n) => local(snippet(n))).join('\n')),
    // The host's own code after an element, as a course page runs it (a module, for its top-level await);
    // the line after each snippet only hands what it made to the test.
    'api.html': page(`<attention-playground></attention-playground>\n<script type="module">\n${local(snippet('element-api'))}\nwindow.snippetDone = { shapes };\n</script>`),
    'exercises.html': page(`${lms}\n<attention-playground id="masks"></attention-playground>\n<script type="module">\n${local(snippet('exercises-api'))}\nwindow.snippetDone = { first, shown };\n</script>`),
    'export.html': page(`<attention-playground></attention-playground>\n<script type="module">\n${local(snippet('export-api'))}
window.snippetDone = { bytes: [...new Uint8Array(await zip.arrayBuffer())], attention: attention.shape, output: output.shape };\n</script>`),
    'iframe.html': page(local(snippet('iframe')), { script: false }),
    'blank.html': '<!doctype html><html lang="en"><head><title>Course</title><link rel="icon" href="data:,"></head><body></body></html>',
  });
});
after(async () => { await site?.close(); await h?.close(); });

/** What playground `i` of the page shows, once it has run and every shown panel is built. */
async function shown(p, i) {
  await p.waitForFunction((i) => {
    const el = document.querySelectorAll('attention-playground')[i];
    const root = el?.shadowRoot;
    return el?.result && root.querySelector('.ap')?.dataset.settled === '1' && (root.getElementById('status')?.textContent ?? '').startsWith('Ran in');
  }, i, { timeout: 60000 });
  return p.evaluate((i) => {
    const el = document.querySelectorAll('attention-playground')[i];
    const root = el.shadowRoot;
    const visible = (x) => !!x && x.getClientRects().length > 0;
    const field = (k) => { const box = root.querySelector(`#controls [data-field="${k}"]`); const input = box?.querySelector('input, select, textarea'); return visible(box) ? { value: input.value, disabled: input.disabled } : null; };
    return {
      state: el.state,
      panels: [...root.querySelectorAll('section[data-panel]')].filter((s) => !s.hidden).map((s) => s.dataset.panel),
      folds: [...root.querySelectorAll('.panel-fold')].filter((f) => !f.hidden).map((f) => f.dataset.fold),
      list: visible(root.querySelector('nav.chapters')), pager: visible(root.querySelector('.chapter-pager')),
      title: visible(root.getElementById('chapter-title')) ? root.getElementById('chapter-title').textContent : null,
      text: visible(root.querySelector('.chapter-text')) ? root.querySelector('.chapter-text').textContent.length : 0,
      jobs: [...root.querySelectorAll('#head-jobs li')].map((li) => li.dataset.pattern),
      fields: Object.fromEntries(['d_model', 'n_heads', 'dropout', 'mask', 'text'].map((k) => [k, field(k)])),
      smallMaps: root.querySelectorAll('.heat-small').length,
    };
  }, i);
}

test('section 1’s two elements: the maps alone read-only under a causal mask; the form, maps and √d_k lab for d_model 32, two heads', async () => {
  const p = await openUrl(h, `${site.url}two.html`, { waitForResult: false });
  const [maps, lab] = [await shown(p, 0), await shown(p, 1)];
  assert.deepEqual(maps.panels, ['heatmaps'], 'the maps alone, no inputs panel');
  assert.equal(maps.state.mask, 'causal');
  assert.equal(maps.state.text, 'the cat sat on the mat because it was warm');
  assert.equal(await p.evaluate(() => document.querySelector('attention-playground').result.shapes.find((s) => s.name.startsWith('A_i'))?.dims.at(-1)), 10, 'ten words, ten keys');
  assert.deepEqual(lab.panels, ['controls', 'heatmaps', 'sqrtdk']);
  assert.deepEqual([lab.state.d_model, lab.state.n_heads, lab.state.source, lab.state.n_q, lab.smallMaps], ['32', '2', 'random', '8', 2]);
  for (const s of [maps, lab]) assert.deepEqual([s.list, s.title, s.text], [false, null, 0], 'panels with no chapter: no chapter list or text');
  assert.deepEqual(p.problems, []);
  await p.closeAll();
});

test('Attributes that compose: each snippet does what its sentence says', async () => {
  const p = await openUrl(h, `${site.url}compose.html`, { waitForResult: false, width: 1100 });
  const title = (name) => CHAPTERS.find((c) => c.name === name).title;
  const LESSON = ['previous', 'same_word', 'first_token', 'random'];

  const profile = await shown(p, 0);
  assert.equal(profile.title, title('attention'));
  assert.ok(profile.text > 100, 'the chapter’s text');
  assert.deepEqual(profile.jobs, LESSON, 'mask keeps the constructed heads');
  assert.equal(profile.state.mask, 'causal');
  assert.deepEqual(profile.fields.d_model, { value: '64', disabled: true }, 'd_model: not a field of the chapter, shown read-only');
  assert.deepEqual(profile.fields.n_heads, { value: '4', disabled: true });
  assert.equal(profile.fields.dropout, null, 'dropout is not in the form');
  assert.equal(profile.fields.mask, null, 'the first step’s form: the sentence, not the mask');
  assert.deepEqual(profile.fields.text?.disabled, false);

  const panels = await shown(p, 1);
  assert.deepEqual(panels.panels, ['heatmaps', 'compare'], 'the panels chosen, nothing else');
  assert.deepEqual(panels.folds, [], 'both expanded, no collapsed heading');
  assert.equal(panels.title, title('heads'));
  assert.ok(panels.text > 100 && panels.list && panels.pager, 'title, text and chapter list stay');
  assert.deepEqual(panels.jobs, LESSON, 'the constructed heads stay');

  const random = await shown(p, 2);
  assert.deepEqual(random.jobs, ['random', 'random', 'random', 'random']);
  assert.equal(random.state.heads, 'random');

  const nav = await shown(p, 3);
  assert.deepEqual([nav.list, nav.pager], [false, false], 'no chapter list, no previous/next');
  assert.equal(nav.title, title('scaling'));
  assert.ok(nav.text > 100, 'the chapter’s text stays');
  await screenshot(p, 'embed-compose');
  assert.deepEqual(p.problems, []);
  await p.closeAll();
});

test('the element’s API snippet: results logged, n_heads 8 and the causal mask applied, run() gives the shapes', async () => {
  const p = await openUrl(h, `${site.url}api.html`, { waitForResult: false });
  const logs = [];
  p.on('console', (m) => { if (m.type() === 'log') logs.push(m.text()); });
  await p.waitForFunction(() => window.snippetDone, null, { timeout: 60000 });
  const got = await p.evaluate(() => ({ state: document.querySelector('attention-playground').state, shapes: window.snippetDone.shapes }));
  assert.deepEqual([got.state.n_heads, got.state.mask], ['8', 'causal']);
  const attention = got.shapes.find((s) => s.name.startsWith('A_i')); // A_i = softmax(S_i): [batch, n_heads, n_q, n_k]
  assert.deepEqual(attention?.dims, [1, 8, 10, 10], `the run's attention weights: ${JSON.stringify(attention)}`);
  await p.waitForFunction(() => document.querySelector('attention-playground').result?.state.mask === 'causal');
  assert.ok(logs.some((line) => /^64: \d+(\.\d+)? ms$/.test(line)), `the result listener logs "d_model: ms": ${JSON.stringify(logs)}`);
  assert.deepEqual(p.problems, []);
  await p.closeAll();
});

test('the iframe snippet: embed.js sizes the frame to its content; the frame shows the maps and shapes under a causal mask', async () => {
  const p = await openUrl(h, `${site.url}iframe.html`, { waitForResult: false });
  const frame = () => p.frames().find((f) => f.url().startsWith(`${h.url}index.html`));
  let f;
  for (let i = 0; i < 100 && !(f = frame()); i++) await p.waitForTimeout(100);
  assert.ok(f, 'the playground frame loads');
  await f.waitForFunction(() => playgroundRoot()?.querySelector('.ap')?.dataset.settled === '1', null, { timeout: 60000 });
  const inside = await f.evaluate(() => ({
    panels: [...playgroundRoot().querySelectorAll('section[data-panel]')].filter((s) => !s.hidden).map((s) => s.dataset.panel),
    mask: playgroundRoot().querySelector('select[name="mask"]')?.value ?? null, height: Math.ceil(document.body.getBoundingClientRect().height),
    title: getComputedStyle(document.querySelector('.masthead')).position,
  }));
  assert.deepEqual(inside.panels, ['heatmaps', 'shapes']);
  assert.equal(inside.title, 'absolute', 'no title drawn (embed=1)');
  // embed.js sets the frame's height to what the page reports: no inner scrollbar. The content's height is
  // read again at each look, not once: it may still change after the first result (a late font, a panel
  // drawn later), and the frame must follow it (a frame left at an older height fails here too).
  const seen = await frameFollowsContent(p, 'iframe', f);
  assert.ok(Math.abs(seen.frame - seen.content) <= 2, `the frame is as tall as its content: ${JSON.stringify(seen)} (first read: ${inside.height})`);
  assert.notEqual(seen.content, 900, 'the content is not 900 px tall by chance');
  // embed.js running while a playground frame is still on its first empty document (a lazy frame the page's
  // load did not wait for: a warm cache made it so by chance; here a frame added late, its page held back
  // 1 s) asks it nothing: that document is the course page's origin, and Chromium warned the message's was not.
  let held = 0;
  await p.route(`${h.url}index.html*`, async (route) => { held++; await new Promise((r) => setTimeout(r, 1000)); await route.continue(); });
  await p.evaluate((a) => {
    const late = Object.assign(document.createElement('iframe'), { id: 'late', title: 'late', src: `${a}index.html#embed=1&panels=shapes` });
    document.body.prepend(late); // on screen: a frame off screen on another origin is not laid out, nor sized
    document.body.append(Object.assign(document.createElement('script'), { src: `${a}embed.js` }));
  }, h.url);
  await p.waitForFunction(() => document.getElementById('late').getBoundingClientRect().height > 300, null, { timeout: 30000, polling: 100 });
  assert.equal(held, 1, 'the late frame was held back (else this checks no race)');
  assert.equal(await f.evaluate(() => document.documentElement.scrollHeight <= innerHeight + 2), true, 'no inner scrollbar');
  assert.deepEqual(p.problems, []);
  await p.closeAll();
});

test('the exercises snippet: a wrong first answer gets a hint, Show answer gives 4 and counts as revealed, the host’s lms hears both', async () => {
  const p = await openUrl(h, `${site.url}exercises.html`, { waitForResult: false });
  await p.waitForFunction(() => window.snippetDone, null, { timeout: 60000 });
  const { first, shown: revealed, calls } = await p.evaluate(() => ({ ...window.snippetDone, calls: window.lms.calls }));
  assert.deepEqual(Object.keys(first).sort(), ['correct', 'hint']);
  assert.equal(first.correct, false);
  assert.ok(first.hint.length > 10, first.hint);
  assert.deepEqual({ ...revealed, explanation: typeof revealed.explanation }, { expected: 4, explanation: 'string', first_try: false, revealed: true });
  assert.deepEqual(calls.filter(([kind]) => kind === 'record'), [['record', 'attention.causal-row', false, false]], 'lms.record(id, correct, first_try) per attempt');
  const scores = calls.filter(([kind]) => kind === 'score').map(([, s]) => s);
  assert.ok(scores.length >= 2 && scores.at(-1) === 0, `lms.score on each progress, 0 after clearProgress(): ${scores}`);
  assert.deepEqual(p.problems, []);
  await p.closeAll();
});

test('the export snippet: a zip with the run’s tensors, view.json and reproduce.py; exportTensors gives attention and output', async () => {
  // The snippet asks for the export as soon as the element exists. The engine arriving after the export's
  // code is a course page's ordinary race (a warm cache, a slow network): held back 1.5 s here, so the export
  // must wait for it (it once sent the worker a view with no d_k yet and failed "d_k must be a number, got null").
  const p = await openUrl(h, `${site.url}blank.html`, { waitForResult: false });
  let held = 0;
  await p.route(`${h.url}wasm/**`, async (route) => { held++; await new Promise((r) => setTimeout(r, 1500)); await route.continue(); });
  const threw = new Promise((_, reject) => p.on('pageerror', (e) => reject(new Error(`the snippet threw: ${e.message}`))));
  threw.catch(() => {}); // raced below; an error after the snippet's end is in p.problems
  await p.goto(`${site.url}export.html`);
  await Promise.race([p.waitForFunction(() => window.snippetDone, null, { timeout: 60000 }), threw]);
  assert.ok(held > 0, 'the engine was held back (else this checks no race)');
  const { bytes, attention, output } = await p.evaluate(() => window.snippetDone);
  const files = unzipSync(new Uint8Array(bytes));
  for (const name of ['attention.npy', 'output.npy', 'view.json', 'reproduce.py']) assert.ok(files[name], `${name} in the zip: ${Object.keys(files)}`);
  assert.match(strFromU8(files['view.json']), /"d_model": ?"?64"?/, 'view.json holds the view');
  assert.deepEqual(attention, [1, 4, 10, 10]);
  assert.deepEqual(output, [1, 10, 64]);
  assert.deepEqual(p.problems, []);
  await p.closeAll();
});

test('the SCORM snippet (its npm line; dist/ is already built): a SCORM 1.2 and a 2004 zip of about 1.8 MB, each with its manifest', async () => {
  const lines = snippet('scorm-command').split('\n');
  assert.equal(lines[0], 'bash scripts/build.sh dist', 'the first line builds dist/, which the harness has found built');
  for (const line of lines.slice(1)) execFileSync('bash', ['-c', line], { cwd: root, stdio: 'pipe' });
  for (const [tag, schema] of [['scorm12', '<schemaversion>1.2</schemaversion>'], ['scorm2004', '<schemaversion>2004 4th Edition</schemaversion>']]) {
    const path = join(root, `build/scorm/attention-playground-cost-${tag}.zip`);
    const { size } = await stat(path);
    assert.ok(size > 1.5e6 && size < 2.1e6, `${tag}: ${size} bytes, “about 1.8 MB”`);
    const files = unzipSync(await readFile(path));
    const manifest = strFromU8(files['imsmanifest.xml']);
    assert.ok(manifest.includes(schema), `${tag}: a SCORM manifest of its edition`);
    assert.ok(strFromU8(files['scorm.html']).includes('#embed=1&chapter=cost&exercises=cost.params-bias%2Ccost.dominant&lock=d_model'),
      `${tag}: it opens the chapter with the exercises and the lock the command named`);
    assert.ok(Object.keys(files).some((n) => n.endsWith('.wasm')), `${tag}: the engine is inside (nothing fetched from elsewhere)`);
    if (tag === 'scorm12') assert.match(manifest, /masteryscore>80</, '--mastery 80');
    console.log(`${tag}: ${size} bytes, ${Object.keys(files).length} files`);
  }
});
