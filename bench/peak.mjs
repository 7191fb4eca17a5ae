// Measures this machine's f32x4 peak in V8: compiles bench/peak.wat with wat2wasm (Debian's wabt)
// at bench time, runs its independent mul+add chains and reports GFLOP/s.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { now } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const FLOPS_PER_CHAIN_ITERATION = 8; // f32x4.mul = 4 FLOPs, f32x4.add = 4 FLOPs

function compileWat() {
  const outDir = path.join(here, 'out'); // git-ignored build output
  fs.mkdirSync(outDir, { recursive: true });
  const wasmPath = path.join(outDir, 'peak.wasm');
  try {
    execFileSync('wat2wasm', [path.join(here, 'peak.wat'), '-o', wasmPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    const why = e.code === 'ENOENT' ? 'wat2wasm not found: apt-get install -y wabt' : String(e.stderr || e.message);
    throw new Error(`peak: cannot compile bench/peak.wat (${why})`);
  }
  return fs.readFileSync(wasmPath);
}

/**
 * For each exported chainsN: warm up (so V8 has tiered the function up to TurboFan), size the
 * iteration count to ~150 ms, then keep the best of several runs: a peak is an upper bound, and
 * anything else running on the machine can only slow a run down. The peak is the best variant.
 */
export async function measurePeak({ reps = 7, targetMs = 150 } = {}) {
  const { instance } = await WebAssembly.instantiate(compileWat());
  const variants = {};
  for (const [name, fn] of Object.entries(instance.exports)) {
    const chains = Number(name.replace('chains', ''));
    for (let i = 0; i < 20; i++) fn(100_000);
    let iters = 1_000_000;
    const t0 = now();
    fn(iters);
    iters = Math.max(1, Math.round(iters * targetMs / Math.max(1, now() - t0)));
    const gflops = [];
    for (let r = 0; r < reps; r++) {
      const t = now();
      fn(iters);
      const sec = (now() - t) / 1000;
      gflops.push(iters * chains * FLOPS_PER_CHAIN_ITERATION / sec / 1e9);
    }
    variants[chains] = Math.max(...gflops);
  }
  const [bestChains, gflops] = Object.entries(variants).reduce((a, b) => (b[1] > a[1] ? b : a));
  return { gflops, bestChains: Number(bestChains), variants };
}
