// Writes dist/: the bundled page, element module, worker and iframe helper (esbuild), the wasm modules
// (the core's and the labs', each SIMD and baseline), the vendored KaTeX and uPlot (loaded only by the
// panels that show them), the examples and EMBED.md: one static folder that works offline from any
// static host (no CDN; every URL in it is relative).
// Usage: node scripts/make_dist.mjs [outDir]   (default: dist/)
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, transform } from 'esbuild';
import { fillPanelTable } from './panel_table.mjs';
import { contentVersion } from './content_version.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist'));
const web = join(root, 'web');
const modules = join(root, 'node_modules');

// The wasm comes from `scripts/build.sh wasm`; without it the page cannot compute anything,
// so say so now rather than ship a page that fails in the browser.
// The core's modules (the first view's) and the labs' (loaded on a lab's first use, engine/labs.js).
const wasmFiles = ['attention_simd', 'attention_scalar', 'attention_labs_simd', 'attention_labs_scalar'].flatMap((m) => [`${m}.mjs`, `${m}.wasm`]);
for (const file of wasmFiles) {
  try {
    await stat(join(web, 'wasm', file));
  } catch {
    console.error(`make_dist: web/wasm/${file} is missing; run \`bash scripts/build.sh wasm\` first`);
    process.exit(1);
  }
}

// Each entry becomes one file at the top of dist/, beside wasm/ and vendor/, which it finds through
// its own URL (import.meta.url): page.js (index.html), attention-playground.js (the element and the
// notebook widget), panels.js (the panels built after the first result, which both of those load
// from their asset folder when one is shown), worker.js (the compute worker), pool_worker.js (a worker of the pool the compute
// worker starts, found beside worker.js), embed.js (a host page's iframe resizer), xapi.js (xAPI statements for a host page); and wasm/labs_session.js, the
// labs' code, which the engine finds beside the labs' wasm.
const entries = [
  { in: 'web/src/page/main.js', out: 'page', format: 'esm' },
  { in: 'web/src/element/index.js', out: 'attention-playground', format: 'esm' },
  { in: 'web/src/features/lazy.js', out: 'panels', format: 'esm', lazyOnly: true },
  { in: 'web/src/worker/worker.js', out: 'worker', format: 'esm' },
  { in: 'web/src/engine/pool_worker.js', out: 'pool_worker', format: 'esm' },
  { in: 'web/src/embed/embed.js', out: 'embed', format: 'iife' },
  { in: 'web/src/lms/xapi.js', out: 'xapi', format: 'esm' },
  // The labs' JavaScript, beside the labs' wasm: engine/labs.js loads it with that module, on a lab's first use.
  { in: 'web/src/engine/labs_session.js', out: 'wasm/labs_session', format: 'esm' },
];

// Vendored libraries: only what the panels load (the ESM builds, the CSS and KaTeX's fonts).
const vendor = [
  ['katex/dist/katex.mjs', 'vendor/katex/katex.mjs'],
  ['katex/dist/katex.min.css', 'vendor/katex/katex.min.css'],
  ['katex/dist/fonts', 'vendor/katex/fonts'],
  ['katex/LICENSE', 'vendor/katex/LICENSE'],
  ['uplot/dist/uPlot.esm.js', 'vendor/uplot/uPlot.esm.js'],
  ['uplot/dist/uPlot.min.css', 'vendor/uplot/uPlot.min.css'],
  ['uplot/LICENSE', 'vendor/uplot/LICENSE'],
];

// Copied as they are: the page's HTML, the docs, the examples.
const copies = [
  ['index.html', 'index.html'],
  ['favicon.svg', 'favicon.svg'],
  ['EMBED.md', 'EMBED.md'],
  ['examples', 'examples'],
];

await rm(out, { recursive: true, force: true });
await mkdir(join(out, 'wasm'), { recursive: true });
for (const file of wasmFiles) await cp(join(web, 'wasm', file), join(out, 'wasm', file));
for (const [from, to] of copies) await cp(join(web, from), join(out, to), { recursive: true });
// Each wasm module's content version, for the URLs the page and the engine ask for (`?v=`): in
// index.html's script and in every bundle (engine/wasm_versions.js), from the files dist/ holds.
const wasmVersions = {};
for (const file of wasmFiles.filter((f) => f.endsWith('.wasm'))) {
  wasmVersions[file.replace(/\.wasm$/, '')] = contentVersion(await readFile(join(out, 'wasm', file)));
}
const VERSIONS_IN_HTML = 'var versions = {};';
const html = await readFile(join(out, 'index.html'), 'utf8');
if (html.split(VERSIONS_IN_HTML).length !== 2) throw new Error(`make_dist: web/index.html must hold \`${VERSIONS_IN_HTML}\` once (the wasm versions go there)`);
await writeFile(join(out, 'index.html'), html.replace(VERSIONS_IN_HTML, `var versions = ${JSON.stringify(wasmVersions)};`));
// EMBED.md's list of panels comes from the table of features (never written by hand).
const { FEATURES } = await import(pathToFileURL(join(root, 'web/src/features/index.js')).href);
await writeFile(join(out, 'EMBED.md'), fillPanelTable(await readFile(join(web, 'EMBED.md'), 'utf8'), FEATURES));
for (const [from, to] of vendor) {
  await mkdir(dirname(join(out, to)), { recursive: true });
  await cp(join(modules, from), join(out, to), { recursive: true });
}
// Font faces declared inside a shadow root are ignored, so the equations panel adds KaTeX's to the
// document: only the @font-face rules, so nothing else of KaTeX's styles reaches the host page.
const katexCss = await readFile(join(modules, 'katex/dist/katex.min.css'), 'utf8');
const fontFaces = katexCss.match(/@font-face\{[^}]*\}/g) ?? [];
if (!fontFaces.length) throw new Error('make_dist: no @font-face rules found in katex.min.css');
await writeFile(join(out, 'vendor/katex/fonts.css'), `/* KaTeX's font faces, from katex.min.css */\n${fontFaces.join('\n')}\n`);

// The playgrounds' stylesheet is bundled as text (a shadow root adopts it): minified first. Each feature
// keeps its own rules in its folder (features/<name>/style.css): a first-view feature's follow the shared
// ones in that one stylesheet; a lazy feature's travel in dist/panels.js (features/lazy_css.js's table,
// filled here) and are adopted by the panel's shadow root when it is built (features/lazy.js). Either way
// they are scoped to each playground and follow the shared rules, in the features' order.
const SHARED_CSS = join(root, 'web/src/playground/styles.css');
const LAZY_CSS = join(root, 'web/src/features/lazy_css.js');
async function featureCss(name) {
  try {
    return await readFile(join(root, 'web/src/features', name, 'style.css'), 'utf8');
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    return ''; // a feature without rules of its own
  }
}
const minify = async (css) => (await transform(css, { loader: 'css', minify: true })).code;
const minifiedCss = {
  name: 'minified-css-text',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async ({ path }) => {
      let source = await readFile(path, 'utf8');
      if (resolve(path) === SHARED_CSS) {
        for (const f of FEATURES.filter((f) => !f.lazy)) source += `\n${await featureCss(f.name)}`;
      }
      return { contents: await minify(source), loader: 'text' };
    });
  },
};

// panels.js finds a panel by its feature's name, so esbuild bundles every features/*/panel.js into it;
// the first view's panels are already in page.js and attention-playground.js (the features' table
// imports them), so in panels.js they are left empty rather than shipped twice.
const firstViewPanels = new Set(FEATURES.filter((f) => !f.lazy).map((f) => join(root, 'web/src/features', f.name, 'panel.js')));
const lazyPanelsOnly = {
  name: 'lazy-panels-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]features[\\/]lazy_css\.js$/ }, async ({ path }) => {
      if (resolve(path) !== LAZY_CSS) return undefined;
      const table = {};
      for (const f of FEATURES.filter((f) => f.lazy)) {
        const css = await featureCss(f.name);
        if (css) table[f.name] = await minify(css);
      }
      const shared = await minify(await readFile(join(root, 'web/src/features/lazy_shared.css'), 'utf8'));
      return { contents: `export const LAZY_CSS = ${JSON.stringify(table)};\nexport const LAZY_SHARED_CSS = ${JSON.stringify(shared)};\n`, loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]features[\\/][^\\/]+[\\/]panel\.js$/ }, ({ path }) =>
      (firstViewPanels.has(path) ? { contents: '// a first-view panel: it is in the first view\'s bundle\n', loader: 'js' } : undefined));
  },
};

// Every chapter's words but the first chapter's travel in panels.js (lesson/chapters/words.js): the other
// bundles get an empty stand-in, and a playground loads panels.js before it shows another chapter.
const FIRST_VIEW_ENTRIES = new Set(['page', 'attention-playground', 'worker', 'pool_worker']);

// Every bundle that can load a wasm module asks for it with its content version (engine/wasm_versions.js).
const WASM_VERSIONS_JS = join(root, 'web/src/engine/wasm_versions.js');
const versionedWasm = {
  name: 'versioned-wasm',
  setup(b) {
    b.onLoad({ filter: /[\\/]engine[\\/]wasm_versions\.js$/ }, ({ path }) => (resolve(path) !== WASM_VERSIONS_JS ? undefined
      : { contents: `export const WASM_VERSIONS = ${JSON.stringify(wasmVersions)};\n`, loader: 'js' }));
  },
};
const chapterWordsLater = {
  name: 'chapter-words-later',
  setup(b) {
    b.onLoad({ filter: /[\\/]lesson[\\/]chapters[\\/]words\.js$/ }, () => ({
      contents: '// the chapters\' words travel in panels.js\nexport const WORDS_HERE = false;\n', loader: 'js' }));
  },
};

// ATTN_DIST_META=1 writes esbuild's metafile of each bundle to build/meta/<bundle>.json (what each
// source file adds to a bundle: the place to look when a budget is missed).
const writeMeta = process.env.ATTN_DIST_META === '1';
for (const entry of entries) {
  const built = await build({
    metafile: writeMeta,
    plugins: [versionedWasm, ...(entry.lazyOnly ? [minifiedCss, lazyPanelsOnly] : FIRST_VIEW_ENTRIES.has(entry.out) ? [minifiedCss, chapterWordsLater] : [minifiedCss])],
    entryPoints: [join(root, entry.in)],
    outfile: join(out, `${entry.out}.js`),
    bundle: true,
    format: entry.format,
    target: ['chrome100', 'firefox100', 'safari16'],
    minify: process.env.ATTN_DIST_MINIFY !== '0', // ATTN_DIST_MINIFY=0: readable bundles, for profiling only
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    // Node's modules are never bundled (the engine imports them only in Node). The SIMD loader is
    // bundled through engine/bundled_loader.js; the baseline loader and the vendored libraries are
    // loaded at run time by URL.
    external: ['node:*'],
  });
  if (writeMeta) {
    const metaFile = join(root, 'build/meta', `${entry.out}.json`); // wasm/labs_session's in build/meta/wasm/
    await mkdir(dirname(metaFile), { recursive: true });
    await writeFile(metaFile, JSON.stringify(built.metafile));
  }
}

// A manifest of what was written, so a course author can see the whole footprint at a glance.
const files = [];
async function walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path);
    else files.push([relative(out, path), (await stat(path)).size]);
  }
}
await walk(out);
files.sort((a, b) => a[0].localeCompare(b[0]));
const total = files.reduce((sum, [, size]) => sum + size, 0);
await writeFile(join(out, 'MANIFEST.txt'),
  files.map(([path, size]) => `${String(size).padStart(10)}  ${path}`).join('\n') + '\n');
const gz = async (path) => gzipSync(await readFile(join(out, path)), { level: 9 }).length;
const element = await gz('attention-playground.js'), wasm = await gz('wasm/attention_simd.wasm');
const withLoader = async (m) => (await gz(`wasm/${m}.wasm`)) + (await gz(`wasm/${m}.mjs`));
const [core, labs] = [await withLoader('attention_simd'), await withLoader('attention_labs_simd')];
const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
console.log(`dist: ${files.length} files, ${total.toLocaleString('en-US')} bytes in ${relative(process.cwd(), out) || '.'}`);
// The budgets (tests/js/wasm_build.test.mjs): the element ≤ 200 kB, the core SIMD module with its loader ≤ 145 KiB.
console.log(`element, gzipped: attention-playground.js (with the SIMD loader inside) ${element.toLocaleString('en-US')} B ` +
  `+ SIMD wasm ${wasm.toLocaleString('en-US')} B = ${(element + wasm).toLocaleString('en-US')} B (budget 200,000 B)`);
console.log(`core SIMD module with its loader, gzipped: ${core.toLocaleString('en-US')} B = ${kib(core)} (budget 145 KiB); ` +
  `labs SIMD module (loaded by the labs only): ${labs.toLocaleString('en-US')} B = ${kib(labs)}`);
