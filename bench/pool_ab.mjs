// `node bench/pool_ab.mjs /path/to/other/web/src/engine/pool.js`: this tree's pool against another
// version of it (e.g. an older commit: `git archive <commit> web/src/engine | tar -x -C /tmp/old` and
// a symlink /tmp/old/web/wasm → this tree's web/wasm), both loaded in one process with our single
// thread, runs alternated, new arrays (the API's default) and `into`. Medians and single ÷ pool per
// size; one process, so the machine's load hits every variant alike. POOL_AB_SIZES=768x12x512[,...],
// POOL_AB_WEIGHTS=on|off, POOL_AB_REPS (default 9). Before every timed run, as in npm run bench: a full
// GC of this thread and a pause (settle.mjs), so no variant pays for another's garbage.
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeInput, makeWeights } from './data.mjs';
import { settle } from './settle.mjs';
import { median, now } from './stats.mjs';
import { createAttentionPool } from '../web/src/engine/pool.js';
import { loadAttention } from '../web/src/engine/attention.js';
import { measuringScript } from '../scripts/cli.mjs';

const USAGE = `usage: node bench/pool_ab.mjs <path of the other pool.js> [--timeout S]
  POOL_AB_SIZES=768x12x512[,...], POOL_AB_WEIGHTS=on|off, POOL_AB_REPS (default 9)`;
const { args } = measuringScript({ seconds: 1200, usage: USAGE });
if (!args[0]) throw new Error(USAGE);
const other = await import(pathToFileURL(path.resolve(args[0])).href);
const SIZES = (process.env.POOL_AB_SIZES ?? '768x12x512,768x12x2048,1024x16x1024').split(',').map((s) => s.split('x').map(Number));
const WEIGHTS = { on: [true], off: [false] }[process.env.POOL_AB_WEIGHTS] ?? [false, true];
const REPS = Number(process.env.POOL_AB_REPS ?? 9);

const attn = await loadAttention({ simd: true });
const pools = { other: await other.createAttentionPool({ workers: 2, simd: true }), this: await createAttentionPool({ workers: 2, simd: true }) };
try {
  for (const need_weights of WEIGHTS) {
    for (const [d_model, n_heads, n] of SIZES) {
      const dims = { d_model, n_heads, d_k: d_model / n_heads, d_v: d_model / n_heads, batch: 1, n };
      const weights = makeWeights(dims), query = makeInput(dims);
      const mha = new attn.MultiHeadAttention({ d_model, n_heads, bias: true });
      mha.setWeights(weights);
      const input = { query, n_q: n, need_weights };
      const into = { output: new Float32Array(n * d_model) };
      if (need_weights) into.weights = new Float32Array(n_heads * n * n);
      const runs = { single: () => mha.forward(input) };
      const layers = [];
      for (const [name, pool] of Object.entries(pools)) {
        const layer = await pool.layer({ d_model, n_heads, bias: true });
        await layer.setWeights(weights);
        layers.push(layer);
        runs[name] = () => layer.forward(input);
        runs[`${name} into`] = () => layer.forward({ ...input, into });
      }
      const names = Object.keys(runs), times = Object.fromEntries(names.map((k) => [k, []]));
      for (let i = 0; i <= REPS; i++) { // round 0 warms up; each round starts one variant later
        for (let j = 0; j < names.length; j++) {
          const name = names[(i + j) % names.length];
          await settle();
          const t0 = now();
          await runs[name]();
          if (i > 0) times[name].push(now() - t0);
        }
      }
      const ms = Object.fromEntries(names.map((k) => [k, median(times[k])]));
      console.log(`${d_model}/${n_heads}/${n} need_weights ${need_weights ? 'on ' : 'off'}: ` +
        names.map((k) => `${k} ${ms[k].toFixed(1)}`).join(', ') +
        ` | single ÷ other ${(ms.single / ms.other).toFixed(2)}, single ÷ this ${(ms.single / ms.this).toFixed(2)} | load ${os.loadavg()[0].toFixed(1)}`);
      mha.delete();
      for (const layer of layers) layer.delete();
    }
  }
} finally {
  for (const pool of Object.values(pools)) await pool.close();
}
