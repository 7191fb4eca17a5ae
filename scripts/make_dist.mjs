// Writes dist/: the page, both wasm modules and the vendored KaTeX and uPlot, as one static folder
// that works offline from any static host (no CDN; every URL in it is relative).
// Usage: node scripts/make_dist.mjs [outDir]   (default: dist/)
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist'));
const web = join(root, 'web');
const modules = join(root, 'node_modules');

// The wasm comes from `scripts/build.sh wasm`; without it the page cannot compute anything,
// so say so now rather than ship a page that fails in the browser.
const wasmFiles = ['attention_simd.mjs', 'attention_simd.wasm', 'attention_scalar.mjs', 'attention_scalar.wasm'];
for (const file of wasmFiles) {
  try {
    await stat(join(web, 'wasm', file));
  } catch {
    console.error(`make_dist: web/wasm/${file} is missing; run \`bash scripts/build.sh wasm\` first`);
    process.exit(1);
  }
}

// Vendored libraries: only what the page loads (the ESM builds, the CSS and KaTeX's fonts).
const vendor = [
  ['katex/dist/katex.mjs', 'vendor/katex/katex.mjs'],
  ['katex/dist/katex.min.css', 'vendor/katex/katex.min.css'],
  ['katex/dist/fonts', 'vendor/katex/fonts'],
  ['katex/LICENSE', 'vendor/katex/LICENSE'],
  ['uplot/dist/uPlot.esm.js', 'vendor/uplot/uPlot.esm.js'],
  ['uplot/dist/uPlot.min.css', 'vendor/uplot/uPlot.min.css'],
  ['uplot/LICENSE', 'vendor/uplot/LICENSE'],
];

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
// web/ keeps its layout, so src/engine/attention.js still finds ../../wasm/.
await cp(web, out, { recursive: true });
for (const [from, to] of vendor) {
  await mkdir(dirname(join(out, to)), { recursive: true });
  await cp(join(modules, from), join(out, to), { recursive: true });
}

// Without hints the browser discovers the page's modules level by level (main.js → panels → helpers),
// one round trip per level; listing them all in index.html lets it fetch them in parallel.
const entries = ['src/main.js', 'src/worker/early.js', 'src/engine/attention.js'];
const graph = await staticImports(out, entries);
const indexPath = join(out, 'index.html');
const marker = /^(\s*)<!-- modulepreload:.*-->\n/m;
const html = await readFile(indexPath, 'utf8');
if (!marker.test(html)) throw new Error('make_dist: the modulepreload marker is missing from web/index.html');
await writeFile(indexPath, html.replace(marker, (_, indent) =>
  graph.map((path) => `${indent}<link rel="modulepreload" href="${path}">\n`).join('')));

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
console.log(`dist: ${files.length} files, ${total.toLocaleString('en-US')} bytes in ${relative(process.cwd(), out) || '.'}`);

/** Every module reachable from `entries` by static imports (dynamic imports stay lazy), as paths relative to dir. */
async function staticImports(dir, entries) {
  const seen = new Set();
  const queue = [...entries];
  while (queue.length) {
    const path = queue.shift();
    if (seen.has(path)) continue;
    seen.add(path);
    const source = await readFile(join(dir, path), 'utf8');
    for (const m of source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      queue.push(relative(dir, resolve(dirname(join(dir, path)), m[1])).split('\\').join('/'));
    }
  }
  return [...seen].filter((p) => p !== 'src/worker/early.js'); // early.js is the page's own script tag
}
