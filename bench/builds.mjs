// Two or more builds of the SIMD module timed side by side in one process: a forward pass and
// mha.backward at (768, 12, 512), and 200 steps of the training lab's default model. For build
// options (optimisation levels, allocator, exception model) the question is "slower or not?",
// which only runs alternated in one process answer on a shared machine.
// Run: node bench/builds.mjs <wasm folder> [<wasm folder> ...]   (e.g. web/wasm/ and an old build's)
// An old build: `git worktree add /tmp/old <commit> && cd /tmp/old && cp -a <repo>/node_modules . &&
// bash scripts/build.sh wasm`, then pass /tmp/old/web/wasm/.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadAttention } from '../web/src/engine/attention.js';
import { makeInput, makeWeights } from './data.mjs';
import { median } from './stats.mjs';
import { measuringScript } from '../scripts/cli.mjs';

const USAGE = 'usage: node bench/builds.mjs <wasm folder> [<wasm folder> ...] [--timeout S]   (e.g. web/wasm/ and an old build\'s)';
const { args: folders } = measuringScript({ seconds: 900, usage: USAGE });
if (!folders.length) {
  console.error(USAGE);
  process.exit(2);
}
const ROUNDS = 15, TRAIN_ROUNDS = 3, TRAIN_STEPS = 200;
const dims = { d_model: 768, n_heads: 12, d_k: 64, d_v: 64, batch: 1, n: 512 };

const builds = [];
for (const folder of folders) {
  // With the labs module too (its trainer times the training lab): each folder needs attention_labs_simd.* beside
  // attention_simd.* (builds since issue 34).
  const attn = await (await loadAttention({ simd: true, wasmDir: pathToFileURL(resolve(folder)).href + '/' })).labs();
  const mha = new attn.MultiHeadAttention({ d_model: dims.d_model, n_heads: dims.n_heads, bias: true, seed: 1 });
  mha.setWeights(makeWeights(dims));
  builds.push({ folder, attn, mha, forward: [], backward: [], train: [] });
}
const query = makeInput({ batch: 1, n: dims.n, d_model: dims.d_model });
const grad_output = makeInput({ batch: 1, n: dims.n, d_model: dims.d_model }, 3);
const args = { query, n_q: dims.n, mask: 'none', need_weights: false };

const time = (f) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
// One untimed round first (V8 tiers wasm up on first use), then rounds alternated across the builds.
for (let round = -1; round < ROUNDS; round++) {
  for (const b of builds) {
    const forward = time(() => b.mha.forward(args));
    const backward = time(() => b.mha.backward({ ...args, grad_output }));
    if (round >= 0) b.forward.push(forward), b.backward.push(backward);
  }
}
for (let round = 0; round < TRAIN_ROUNDS; round++) {
  for (const b of builds) {
    const trainer = b.attn.createTrainer({ task: 'two_relation', n_heads: 2 });
    b.train.push(time(() => trainer.step(TRAIN_STEPS)));
    trainer.delete();
  }
}

console.log(`medians of ${ROUNDS} alternated runs at (768, 12, 512); training: ${TRAIN_STEPS} steps of two_relation, ${TRAIN_ROUNDS} runs`);
console.log('| build | forward ms | forward + backward ms | ratio | 200 training steps ms |');
console.log('| --- | ---: | ---: | ---: | --- |');
for (const b of builds) {
  const f = median(b.forward), fb = median(b.backward);
  console.log(`| ${b.folder} | ${f.toFixed(1)} | ${fb.toFixed(1)} | ${(fb / f).toFixed(2)} | ${b.train.map((t) => t.toFixed(0)).join(', ')} |`);
  b.mha.delete();
}
