// The site generators course authors use, run for real on web/EMBED.md's own snippets (issue 24): the
// fenced blocks marked <!-- snippet:NAME FILE --> are read from EMBED.md and used verbatim (the folder
// address swapped for where dist/ is served), so the docs cannot drift from what passes here.
//   MkDocs (Debian's 1.4.2): one page with the script, and the whole site through a theme override;
//   Sphinx (Debian's 5.3): a raw block with the script, and the whole site through html_js_files;
//   Quarto: its ```{=html} raw block is pandoc's, so pandoc renders it (Quarto itself is not in Debian);
//   MyST {anywidget}: mystmd is not in Debian, so a stand-in host does what its front end does: imports the
//   directive's module and renders it with a model holding the directive's JSON (strings, as MyST passes them);
//   the Python anywidget class (EMBED.md's and the share builder's): its traits are declared with Debian's
//   traitlets (anywidget itself is not in Debian: a HasTraits stand-in), and `w.n_heads = 8` must work.
// Each built site is served on a second origin (another port) and opened once: its element must run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startHarness, newContext } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { snippets } from '../../web/src/page/snippets.js';
import { defaults, withChanges, FIELDS } from '../../web/src/model/schema.js';
import { pythonTrait } from '../../web/src/page/snippets.js';

const EXAMPLE = 'https://example.org/attention/';
const doc = await readFile(new URL('../../web/EMBED.md', import.meta.url), 'utf8');

/** EMBED.md's marked snippets: { name: { file, text } }; a fence of n backticks ends at the same fence. */
function markedSnippets(text) {
  const found = {};
  for (const m of text.matchAll(/<!-- snippet:(\S+) (\S+) -->\n(`{3,})[\w-]*\n([\s\S]*?)\n\3\n/g)) found[m[1]] = { file: m[2], text: `${m[4]}\n` };
  return found;
}
const SNIPPETS = markedSnippets(doc);

/** The snippet `name` with the example folder replaced by `base`; a missing snippet fails with its name. */
function snippet(name, base) {
  assert.ok(SNIPPETS[name], `web/EMBED.md has no <!-- snippet:${name} … --> block (found: ${Object.keys(SNIPPETS).join(', ')})`);
  return { file: SNIPPETS[name].file, text: SNIPPETS[name].text.replaceAll(EXAMPLE, base) };
}

const tool = (command) => {
  const path = ['/usr/bin', '/usr/local/bin'].map((d) => join(d, command)).find(existsSync);
  assert.ok(path, `${command} is missing: run bash scripts/setup.sh (it installs Debian's mkdocs, python3-sphinx, python3-traitlets, pandoc)`);
  return path;
};
const run = (command, args, cwd) => execFileSync(tool(command), args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

async function write(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
}

let h, work, site;

before(async () => {
  h = await startHarness();
  work = await mkdtemp(join(tmpdir(), 'attention-sites-'));
  const out = join(work, 'www');
  const base = h.url;
  const put = (name) => { const s = snippet(name, base); return { [s.file]: s.text }; };

  // MkDocs: one page holding the script; the whole site through the theme override. The mkdocs theme
  // fetches highlight.js from a CDN unless told not to: the test machine has no network, so it is told.
  const noHighlight = '  highlightjs: false\n';
  await write(join(work, 'mkdocs-page'), { 'mkdocs.yml': `site_name: One page\ntheme:\n  name: mkdocs\n${noHighlight}`, ...put('mkdocs-page') });
  run('mkdocs', ['build', '--quiet', '--site-dir', join(out, 'mkdocs-page')], join(work, 'mkdocs-page'));
  const yml = snippet('mkdocs-site', base);
  assert.match(yml.text, /\n {2}custom_dir: overrides\n$/, 'the site-wide mkdocs.yml ends with the theme override');
  await write(join(work, 'mkdocs-site'), { [yml.file]: yml.text + noHighlight, ...put('mkdocs-override'), ...put('mkdocs-site-page') });
  run('mkdocs', ['build', '--quiet', '--site-dir', join(out, 'mkdocs-site')], join(work, 'mkdocs-site'));

  // Sphinx: a raw block with the script; the whole site through conf.py.
  await write(join(work, 'sphinx-page'), { 'conf.py': 'project = "One page"\n', ...put('sphinx-page') });
  run('sphinx-build', ['-q', '-b', 'html', '.', join(out, 'sphinx-page')], join(work, 'sphinx-page'));
  const conf = snippet('sphinx-site', base);
  await write(join(work, 'sphinx-site'), { [conf.file]: `project = "Course"\n${conf.text}`, ...put('sphinx-site-page') });
  run('sphinx-build', ['-q', '-b', 'html', '.', join(out, 'sphinx-site')], join(work, 'sphinx-site'));

  // Quarto's raw block, rendered by pandoc (the converter Quarto runs).
  const quarto = snippet('quarto', base);
  await write(join(work, 'quarto'), { [quarto.file]: quarto.text });
  await mkdir(join(out, 'quarto'), { recursive: true });
  run('pandoc', ['--from', 'markdown', '--to', 'html', '--standalone', '--metadata', 'title=Lesson', '--output', join(out, 'quarto/index.html'), quarto.file],
    join(work, 'quarto'));

  // MyST's {anywidget} directive: its module URL and JSON, rendered as mystmd's front end does.
  const myst = snippet('myst', base).text.split('\n');
  const [, url] = myst[0].match(/^:::\{anywidget\} (\S+)$/) ?? [];
  assert.ok(url && myst[2] === ':::', `the MyST snippet is a directive with the module's URL, JSON, and ::: (got ${JSON.stringify(myst)})`);
  const keys = JSON.parse(myst[1]);
  await write(out, {
    'myst/index.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MyST page</title><link rel="icon" href="data:,"></head>
<body><main><h1>MyST page</h1><div id="widget"></div></main><script type="module">
  const { default: widget } = await import(${JSON.stringify(url)});
  const data = ${JSON.stringify(keys)}, handlers = new Map();
  const model = { get: (k) => data[k], set: (k, v) => { data[k] = v; }, save_changes() {},
    on: (e, f) => handlers.set(e, f), off: (e) => handlers.delete(e) };
  widget.render({ model, el: document.getElementById('widget') });
</script></body></html>`,
  });
  site = await serve({ dir: out, port: 0 });
});
after(async () => { await site?.close(); await h?.close(); if (work) await rm(work, { recursive: true, force: true }); });

// [site folder, playgrounds on its page, what the page must show]
const SITES = [
  ['mkdocs-page', 1, 'One page'], ['mkdocs-site', 1, 'My course'],
  ['sphinx-page', 1, 'Attention'], ['sphinx-site', 1, 'Attention'],
  ['quarto', 1, 'Lesson'], ['myst', 1, 'MyST page'],
];

test('MkDocs, Sphinx, Quarto (pandoc) and MyST pages built from EMBED.md’s snippets run the playground on another origin', async () => {
  assert.notEqual(new URL(site.url).origin, new URL(h.url).origin);
  const context = await newContext(h, { viewport: { width: 1024, height: 800 } });
  for (const [name, count, title] of SITES) {
    const page = await context.newPage();
    const problems = [];
    // A resource that fails is reported with its address (below), not as the console's bare line.
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`); });
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => { if (r.url().startsWith(h.url)) problems.push(`request failed: ${r.url()}`); });
    await page.goto(`${site.url}${name}/index.html`);
    assert.match(await page.title(), new RegExp(title), `${name}: the generator's page`);
    // Every playground on the page reports a run, and draws its maps with numbers from the engine.
    const status = page.locator('.status', { hasText: 'Ran in' });
    await status.nth(count - 1).waitFor({ timeout: 30000 }).catch(async () => {
      const html = await page.content();
      assert.fail(`${name}: no playground ran; problems: ${problems.join(' | ') || 'none'}; page starts: ${html.slice(0, 1500)}`);
    });
    assert.equal(await status.count(), count, `${name}: playgrounds that ran`);
    const drawn = await page.locator('canvas.heat-canvas, .heat-small canvas').evaluateAll((canvases) => canvases.filter((c) => {
      const pixels = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? [];
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) return true;
      return false;
    }).length);
    assert.ok(drawn >= 2, `${name}: heatmaps drawn (${drawn})`);
    assert.deepEqual(problems, [], `${name}: problems`);
    await page.close();
  }
  await context.close();
});

// ---- the Python class: EMBED.md's, and the share builder's ----

/** Runs `code` with Debian's python3, an `anywidget` stand-in (AnyWidget = traitlets.HasTraits) on its path. */
async function python(code) {
  const dir = await mkdtemp(join(tmpdir(), 'attention-py-'));
  try {
    await writeFile(join(dir, 'anywidget.py'), 'import traitlets\n\nclass AnyWidget(traitlets.HasTraits):\n    pass\n');
    await writeFile(join(dir, 'check.py'), code);
    return JSON.parse(run('python3', ['check.py'], dir).trim().split('\n').at(-1));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// After the snippet: set each trait as EMBED.md shows (numbers as numbers) and read back types and errors.
const CHECKS = `
import json, traitlets
w = AttentionPlayground()
report = {"traits": {k: type(t).__name__ for k, t in w.traits().items() if t.metadata.get("sync")}, "errors": {}}
def attempt(key, value):
    try:
        setattr(w, key, value)
        report[key] = getattr(w, key)
    except traitlets.TraitError as e:
        report["errors"][key] = str(e)[:80]
for key, value in TRY:
    attempt(key, value)
print(json.dumps(report))
`;

test('EMBED.md’s Python class declares real traits: w.n_heads = 8 works, a string for a number is refused', async () => {
  const { text } = snippet('python', EXAMPLE);
  const lines = text.split('\n').filter((line) => !/^w\b/.test(line)); // its own `w = …` and `w` lines
  const report = await python(`${lines.join('\n')}\nTRY = [("n_heads", 8), ("d_model", 128), ("mask", "none"), ("n_heads", "8")]\n${CHECKS}`);
  assert.equal(report.n_heads, 8);
  assert.equal(report.d_model, 128);
  assert.equal(report.mask, 'none');
  assert.deepEqual(Object.keys(report.errors), ['n_heads'], 'a string is refused by an Int trait (traitlets checks)');
  assert.deepEqual(report.traits, { panels: 'Unicode', d_model: 'Int', n_heads: 'Int', mask: 'Unicode' });
});

/** A field's choices as a Python list's items (the schema's, so a new mask or chapter is expected too). */
const choices = (key) => FIELDS.find((f) => f.key === key).choices.map((c) => JSON.stringify(c)).join(', ');

test('every key whose default is a number is an Int or Float trait in the Python snippet (a new key must say which)', () => {
  const numeric = FIELDS.filter((f) => !f.page && !f.choices && /^-?\d+(\.\d+)?$/.test(f.def));
  assert.ok(numeric.length >= 10, numeric.map((f) => f.key).join());
  for (const f of numeric) assert.match(pythonTrait(f.key, f.def), /^traitlets\.(Int|Float)\(/, `${f.key} (default ${f.def})`);
});

test('the share builder’s Python snippet types numbers as Int/Float and choices as Enum, and runs under traitlets', async () => {
  // (The view the builder writes for these panels with no chapter named: share.test.mjs and tests/js/compose.test.mjs test the builder.)
  const state = withChanges(defaults(), {
    d_model: '32', n_heads: '2', mask: 'causal', dropout: '0.25', train_lr: '0.005', text: '42 "cats" \\ sat', seed: '3',
    bias: '0', attention: 'cross', d_k: '2.5', heads: 'previous,uniform', panels: 'controls,heatmaps',
  });
  const { python: code } = snippets(state, { base: 'https://example.org/attention/index.html' });
  // The declarations, precisely (an invalid value such as d_k=2.5 stays text, so the view reproduces).
  const traits = Object.fromEntries(code.split('\n').filter((l) => l.includes('traitlets.')).map((l) => l.trim().split(' = ')));
  assert.deepEqual(traits, {
    d_model: 'traitlets.Int(32).tag(sync=True)',
    n_heads: 'traitlets.Int(2).tag(sync=True)',
    d_k: 'traitlets.Unicode("2.5").tag(sync=True)',
    attention: `traitlets.Enum([${choices('attention')}], "cross").tag(sync=True)`,
    bias: 'traitlets.Int(0).tag(sync=True)',
    seed: 'traitlets.Int(3).tag(sync=True)',
    mask: `traitlets.Enum([${choices('mask')}], "causal").tag(sync=True)`,
    dropout: 'traitlets.Float(0.25).tag(sync=True)',
    text: 'traitlets.Unicode("42 \\"cats\\" \\\\ sat").tag(sync=True)',
    heads: 'traitlets.Unicode("previous,uniform").tag(sync=True)',
    train_lr: 'traitlets.Float(0.005).tag(sync=True)',
    panels: 'traitlets.Unicode("controls,heatmaps").tag(sync=True)',
  });
  const body = code.split('\n').filter((l) => l !== 'AttentionPlayground()').join('\n');
  const report = await python(`${body}\nTRY = [("n_heads", 8), ("dropout", 0.5), ("dropout", 1), ("mask", "none"), ("mask", "diagonal"), ("text", "a b"), ("bias", 1)]\n${CHECKS}`);
  assert.equal(report.n_heads, 8);
  assert.equal(report.dropout, 1, 'a Float trait takes an int');
  assert.equal(report.mask, 'none');
  assert.equal(report.text, 'a b');
  assert.equal(report.bias, 1);
  assert.deepEqual(Object.keys(report.errors), ['mask'], 'a value outside an Enum is refused');
  assert.equal(report.traits.d_model, 'Int');
  assert.equal(report.traits.dropout, 'Float');
  assert.equal(report.traits.mask, 'Enum');
});

test('EMBED.md’s claim about MkDocs 1.4: the mapping form of extra_javascript stops the build', async (t) => {
  const version = run('mkdocs', ['--version'], work);
  if (!/version 1\.[0-4]\./.test(version)) return t.skip(`this claim is about MkDocs ≤ 1.4 (found ${version.trim()})`);
  const dir = join(work, 'mkdocs-mapping');
  await write(dir, { 'mkdocs.yml': `site_name: Mapping\nextra_javascript:\n  - path: ${EXAMPLE}attention-playground.js\n    type: module\n`, 'docs/index.md': '# Mapping\n' });
  assert.throws(() => run('mkdocs', ['build', '--quiet', '--site-dir', join(dir, 'out')], dir), (e) => /unhashable type: 'dict'/.test(e.stderr),
    'MkDocs 1.4 refuses extra_javascript entries that are mappings');
  assert.match(doc, /unhashable type: 'dict'/);
});

