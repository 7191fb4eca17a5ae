// `node bench/profile.mjs [d_model n_heads n on|off] [--scalar] [--seconds S]`: where one
// single-threaded forward pass spends its time, function by function. It runs the pass over and
// over (into reused arrays) under V8's sampling CPU profiler and prints each function's share of
// the samples (self time), largest first. It needs the modules built with their function names
// kept: `bash scripts/build.sh profile` (build/wasm-profile/wasm/; the same -O3 code as web/wasm/).
// Defaults: 768 12 512 off, the SIMD module, 8 seconds.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';
import { loadAttention } from '../web/src/engine/attention.js';
import { measuringScript } from '../scripts/cli.mjs';

const USAGE = `usage: node bench/profile.mjs [d_model n_heads n on|off] [--scalar] [--seconds S] [--timeout S]
  (after \`bash scripts/build.sh profile\`; defaults 768 12 512 off, the SIMD module, 8 seconds)`;
const { args } = measuringScript({ seconds: 600, usage: USAGE });
const flag = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? null : args.splice(i, name === '--scalar' ? 1 : 2).slice(1);
};
const simd = flag('--scalar') === null;
const seconds = Number(flag('--seconds')?.[0] ?? 8);
const [d_model, n_heads, n] = (args.length ? args.slice(0, 3) : ['768', '12', '512']).map(Number);
const need_weights = (args[3] ?? 'off') === 'on';
if (![d_model, n_heads, n, seconds].every((x) => x > 0) || !['on', 'off', undefined].includes(args[3])) {
  throw new Error(USAGE);
}

const dir = new URL('../build/wasm-profile/wasm/', import.meta.url);
if (!fs.existsSync(new URL('attention_simd.wasm', dir))) {
  throw new Error(`no profiling build in ${dir.pathname}: run \`bash scripts/build.sh profile\` first`);
}
const attn = await loadAttention({ simd, wasmDir: pathToFileURL(dir.pathname).href });
const mha = new attn.MultiHeadAttention({ d_model, n_heads, seed: 1 });
const query = new Float32Array(n * d_model).map((_, i) => Math.sin(0.37 * i));
const into = { output: new Float32Array(n * d_model) };
if (need_weights) into.weights = new Float32Array(n_heads * n * n);
const pass = () => mha.forward({ query, n_q: n, need_weights, into });
for (let i = 0; i < 3; i++) pass(); // V8 tiers the module up during the first calls

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 }); // µs
await session.post('Profiler.start');
const t0 = performance.now();
let passes = 0;
while (performance.now() - t0 < seconds * 1000) {
  pass();
  passes++;
}
const elapsed = performance.now() - t0;
const { profile } = await session.post('Profiler.stop');
session.disconnect();

// Self time per function name: each sample is charged to the node it landed in.
const nameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName || node.callFrame.url || '(anonymous)']));
const self = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(nameOf.get(id), (self.get(nameOf.get(id)) ?? 0) + dt);
  total += dt;
});
console.log(`${d_model}/${n_heads}/${n} need_weights ${need_weights ? 'on' : 'off'}, ${attn.isa}: ${passes} passes, ` +
  `${(elapsed / passes).toFixed(1)} ms each; share of the profile's samples (self time):`);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  if (us / total < 0.001) break;
  console.log(`${(100 * us / total).toFixed(1).padStart(6)} %  ${name.length > 110 ? `${name.slice(0, 107)}...` : name}`);
}
