// `npm run bench`: this project's wasm modules (SIMD and scalar) vs ONNX Runtime Web and TF.js
// (wasm backends) on multi-head self-attention, one Node process; writes bench/results.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureBackward } from './backward.mjs';
import { measureProjectionMatmul } from './matmul_bench.mjs';
import { measureCase } from './measure_case.mjs';
import { measureCopyCost } from './copy_cost.mjs';
import { measurePeak } from './peak.mjs';
import { renderReport } from './report.mjs';
import { streamingCheck } from './streaming.mjs';
import { loadSystems, OURS_SIMD } from './systems.mjs';
import { measuringScript } from '../scripts/cli.mjs';

measuringScript({
  seconds: 3600,
  usage: `usage: node bench/run.mjs [--timeout S]   (npm run bench; after \`bash scripts/setup.sh && npm run build\`)
  Writes bench/results.md (the sections above its hand-written part) and prints it; progress on stderr.
  BENCH_QUICK=1: two small sizes and a short streaming run, written to bench/out/ instead.
  BENCH_SIZES=768x12x512[,...] (with BENCH_QUICK=1): only those sizes.`,
});
const here = path.dirname(fileURLToPath(import.meta.url));
// BENCH_QUICK=1: two small sizes and a short streaming run, written to bench/out/, for trying
// changes to the benchmark itself without overwriting the recorded results.
const quick = process.env.BENCH_QUICK === '1';

// BENCH_SIZES=768x12x512[,...] (with BENCH_QUICK=1): only those sizes, to try one case quickly.
const chosen = process.env.BENCH_SIZES?.split(',').map((s) => s.split('x').map(Number));
if (chosen && !quick) throw new Error('BENCH_SIZES is for trying cases: use it with BENCH_QUICK=1');
const SIZES = chosen ?? [ // [d_model, n_heads, n]
  [512, 8, 128], [768, 12, 128], [768, 12, 512], [768, 12, 2048], [1024, 16, 1024],
].slice(0, quick ? 2 : undefined);
const STREAMING = { d_model: 768, n_heads: 12, n: quick ? 2048 : 16384 };

const log = (msg) => process.stderr.write(`${msg}\n`); // progress on stderr, the report on stdout
const dimsOf = ([d_model, n_heads, n]) => ({ d_model, n_heads, d_k: d_model / n_heads, d_v: d_model / n_heads, batch: 1, n });

async function main() {
  const started = Date.now();
  const loadBefore = os.loadavg()[0];
  // The peak is measured first and again last; the higher one is used, so a busy moment on the
  // machine (the two vCPUs may share a core) cannot make the peak look low and the % high.
  log('peak: f32x4 mul+add chains (bench/peak.wat)');
  const peakFirst = await measurePeak();
  log(`  ${peakFirst.gflops.toFixed(1)} GFLOP/s with ${peakFirst.bestChains} chains`);

  log(`streaming: n=${STREAMING.n}, d_model=${STREAMING.d_model}, n_heads=${STREAMING.n_heads}, need_weights off then on`);
  const streaming = await streamingCheck(STREAMING);
  log(`  ${(streaming.ms / 1000).toFixed(2)} s, heap ${(streaming.heapBytes / 1e6).toFixed(1)} MB; ` +
    `need_weights on: ${streaming.refusal === null ? 'NOT refused' : `refused: ${streaming.refusal}`}`);

  log('loading: this project (SIMD, scalar, worker pools), ONNX Runtime Web (1 thread, and threads in a worker), TF.js wasm');
  const { systems, versions, simd, scalar, close } = await loadSystems();

  log('projection matmul alone (attn.matmul)');
  const matmuls = [];
  for (const size of SIZES) {
    matmuls.push(...measureProjectionMatmul([{ key: OURS_SIMD, api: simd }, { key: 'ours-scalar', api: scalar }], dimsOf(size)));
  }

  // A discarded round first: V8 compiles wasm in tiers and the first calls of every module run
  // before the optimised code is in; without this round the first timed rows came out ~30% slow
  // for every system alike.
  log('warm-up round (discarded): every system on the smallest sizes');
  for (const size of SIZES.slice(0, 2)) await measureCase(systems, dimsOf(size), false);

  // All need_weights-off cases first, then all on: the memory column is a high-water mark, and this
  // order keeps the streaming path's figures free of the n×n weight buffers.
  const cases = [];
  for (const need_weights of [false, true]) {
    for (const size of SIZES) {
      const c = await measureCase(systems, dimsOf(size), need_weights, log);
      log(`    ${c.bySystem.map((s) => `${s.key} ${s.ms.toFixed(1)} ms`).join(', ')} (outputs agree to ${c.worstOutput.toExponential(1)})`);
      cases.push(c);
    }
  }

  log('backward: mha.backward against mha.forward at d_model 768, n_heads 12, n 512');
  const backward = await measureBackward({ attn: simd, n: quick ? 128 : 512, runs: quick ? 5 : 15 });
  log(`  forward ${backward.wall.forward.toFixed(1)} ms, forward + backward ${backward.wall.backward.toFixed(1)} ms, ratio ${(backward.wall.backward / backward.wall.forward).toFixed(2)}`);

  // The weights of the largest case, 12 heads × 2048², as one copy out of a wasm memory.
  log('copy cost: 12×2048² floats into a new array and into a reused one');
  const copy = measureCopyCost(12 * 2048 * 2048);
  log(`  new ${copy.freshMs.toFixed(0)} ms, reused ${copy.reusedMs.toFixed(1)} ms`);

  await close();

  log('peak again');
  const peakLast = await measurePeak();
  log(`  ${peakLast.gflops.toFixed(1)} GFLOP/s with ${peakLast.bestChains} chains`);
  const peak = { ...(peakLast.gflops > peakFirst.gflops ? peakLast : peakFirst), first: peakFirst.gflops, last: peakLast.gflops };

  const machine = { loadBefore, loadAfter: os.loadavg()[0] };
  const report = renderReport({ date: new Date().toISOString().slice(0, 10), peak, machine, versions, cases, matmuls, streaming, copy, backward });
  const outFile = quick ? path.join(here, 'out', 'results-quick.md') : path.join(here, 'results.md');
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, report + (quick ? '' : handWritten(outFile)));
  process.stdout.write(report);
  log(`wrote ${path.relative(process.cwd(), outFile)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * The hand-written sections of results.md (measurements made by other scripts, with their commands),
 * from HAND_WRITTEN on: a new bench run rewrites the generated part above the marker and keeps these.
 */
const HAND_WRITTEN = '<!-- hand-written sections: npm run bench keeps everything from this line on -->';
function handWritten(file) {
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const at = old.indexOf(HAND_WRITTEN);
  return at < 0 ? '' : `\n${old.slice(at)}`;
}

main().then(
  // Exit explicitly: a peer library may keep a handle open, and the bench is done.
  () => process.exit(0),
  (e) => {
    log(`bench FAILED: ${e.message}`);
    process.exit(1);
  },
);
