// A/B of issue 23, item 9: does freeing the engine's scratch after every call (bind::run →
// attn::release_scratch) slow calls down? Loads two copies of the web folder, one built as is
// ("release") and one built with release_scratch's loop removed ("keep": grow-only scratch, as
// before), and times the same forward and backward calls in both, alternating, in CPU time of
// this process (process.cpuUsage: wall time swung ±15 % on a shared, loaded host), median of 15.
// Usage: node bench/scratch_release_ab.mjs <keep root> <release root>, each a copy of the tree
// (git archive HEAD | tar -x -C <root>) with its modules built into <root>/web/wasm (emcmake
// cmake -S . -B b; cmake --build b --target attention_simd attention_scalar; copy b/wasm/*);
// in the keep copy, the loop of release_scratch() in cpp/core/buffer.h is deleted first.
import { measuringScript } from '../scripts/cli.mjs';

const USAGE = 'usage: node bench/scratch_release_ab.mjs <keep root> <release root> [--timeout S]   (how to make them: the comment at the top)';
const { args } = measuringScript({ seconds: 900, usage: USAGE });
const [keepRoot, releaseRoot] = args;
if (!keepRoot || !releaseRoot) throw new Error(USAGE);
const load = async (root) => (await import(new URL(`web/src/engine/attention.js`, `file://${root.replace(/\/?$/, '/')}`).href)).loadAttention();
const variants = { keep: await load(keepRoot), release: await load(releaseRoot) };
const values = (n, seed) => new Float32Array(n).map((_, i) => Math.sin(seed + i * 0.37));
const cases = [
  { name: 'forward d_model 16, 4 heads, n 8', d_model: 16, n_heads: 4, n: 8, calls: 4000 },
  { name: 'forward d_model 64, 4 heads, n 64', d_model: 64, n_heads: 4, n: 64, calls: 1000 },
  { name: 'forward d_model 64, 4 heads, n 600', d_model: 64, n_heads: 4, n: 600, calls: 20 },
  { name: 'backward d_model 64, 4 heads, n 600', d_model: 64, n_heads: 4, n: 600, calls: 10, backward: true },
];
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const c of cases) {
  const query = values(c.n * c.d_model, 3), grad_output = values(c.n * c.d_model, 4);
  const layers = Object.fromEntries(Object.entries(variants).map(([v, attn]) =>
    [v, new attn.MultiHeadAttention({ d_model: c.d_model, n_heads: c.n_heads, seed: 1 })]));
  const run = (v) => (c.backward ? layers[v].backward({ query, n_q: c.n, grad_output }) : layers[v].forward({ query, n_q: c.n }));
  for (const v of Object.keys(variants)) for (let i = 0; i < Math.min(200, c.calls); i++) run(v); // warm-up
  const per = { keep: [], release: [] };
  for (let rep = 0; rep < 15; rep++) {
    for (const v of rep % 2 ? ['release', 'keep'] : ['keep', 'release']) {
      const start = process.cpuUsage();
      for (let i = 0; i < c.calls; i++) run(v);
      const used = process.cpuUsage(start);
      per[v].push((used.user + used.system) / c.calls);
    }
  }
  const keep = median(per.keep), release = median(per.release);
  console.log(`${c.name}: keep ${keep.toFixed(1)} µs/call, release ${release.toFixed(1)} µs/call, ratio ${(release / keep).toFixed(3)}`);
  for (const layer of Object.values(layers)) layer.delete();
}
