// Turns the measurements into the markdown of bench/results.md (linked from the README) and the
// same text on stdout. Pure formatting: no measuring here.
import fs from 'node:fs';
import os from 'node:os';
import { renderBackward } from './backward.mjs';
import { TOLERANCE } from './compare.mjs';
import { mhaFlops } from './flops.mjs';
import { SETTLE_MS } from './settle.mjs';
import { HEAP_GOAL_BYTES } from './streaming.mjs';
import { ORT_THREADS, OURS_POOL, OURS_POOL_ALL, OURS_POOL_INTO, OURS_SIMD, OURS_SIMD_INTO, POOL_THREADS } from './systems.mjs';

export function cpuModel() {
  try {
    const line = fs.readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    if (line) return line.split(':')[1].trim();
  } catch { /* not Linux: fall through */ }
  return os.cpus()[0]?.model ?? 'unknown';
}

const f = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
const ms = (x) => f(x, x < 10 ? 2 : x < 100 ? 1 : 0);
const mb = (bytes) => (bytes == null ? 'n/a' : f(bytes / 1e6, 1));
const TEXT_COLUMNS = new Set(['system', 'module', 'need_weights', 'goals']); // left-aligned; numbers align right
const table = (head, rows) => [
  `| ${head.join(' | ')} |`,
  `|${head.map((h) => (TEXT_COLUMNS.has(h) ? ' --- ' : ' ---: ')).join('|')}|`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');

export function renderReport({ date, peak, machine, versions, cases, matmuls, streaming, copy, backward }) {
  const pct = (gflops) => f((100 * gflops) / peak.gflops, 0);
  const gf = (dims, t) => mhaFlops(dims) / (t / 1000) / 1e9;
  const out = [];
  out.push('# Benchmark: multi-head attention in WebAssembly, this project vs ONNX Runtime Web and TF.js', '');
  out.push(`Measured by \`npm run bench\` on ${date}.`, '');
  out.push(`- CPU: ${cpuModel()} (${os.cpus().length} logical cores); Node ${process.version} (V8 ${process.versions.v8}); ` +
    `1-minute load average ${f(machine.loadBefore, 2)} at the start, ${f(machine.loadAfter, 2)} at the end.`);
  out.push(`- f32x4 peak (bench/peak.wat, independent chains of f32x4.mul then f32x4.add; 4 + 4 = 8 FLOPs per pair): ` +
    `**${f(peak.gflops, 1)} GFLOP/s** with ${peak.bestChains} chains ` +
    `(${Object.entries(peak.variants).map(([c, g]) => `${c} chains: ${f(g, 1)}`).join(', ')}; best run of each; ` +
    `measured before and after the cases, ${f(peak.first, 1)} and ${f(peak.last, 1)}, the higher is used).`);
  out.push(`- Peers: onnxruntime-web ${versions.ort} (wasm backend, SIMD, numThreads 1, proxy off, graph built by ` +
    `bench/onnx_writer.mjs) and @tensorflow/tfjs-backend-wasm ${versions.tfjs} (SIMD build, ${versions.tfjsThreads} thread); ` +
    `for the multi-core rows, onnxruntime-web ${versions.ort} again with numThreads ${POOL_THREADS} (see the worker pool section).`);
  out.push('- Results handed back to JavaScript: "SIMD" is this project\'s SIMD module called as the peers are, returning ' +
    'new arrays on every call (the API\'s default). "SIMD, into" is the same module writing into arrays the caller ' +
    'allocated once per case (`forward({ ..., into })`); the scalar baseline is timed that way too. ' + (versions.ortPreallocated
    ? 'ORT writes into output tensors passed as fetches (checked at start), so its runs reuse arrays too. '
    : 'ORT was offered the same: output tensors passed as fetches come back unfilled in this version (checked at start ' +
      'by bench/ort_mha.mjs), so ORT returns new arrays, its only correct way. ') +
    `TF.js returns new arrays (dataSync). Measured here (bench/copy_cost.mjs): copying ${f(copy.floats * 4 / 1e6, 0)} MB ` +
    `(12 heads × 2048² weights) out of a wasm memory takes ${ms(copy.freshMs)} ms into a new array, during which the ` +
    `process takes ${copy.freshFaults.toLocaleString('en-US')} minor page faults (one per 4 KB page of the new array), ` +
    `and ${ms(copy.reusedMs)} ms with ${copy.reusedFaults.toLocaleString('en-US')} faults into an array written before.`);
  out.push('- Every case: batch 1, self-attention, float32, one thread (except the worker pool and ORT-threads rows), ' +
    'same weights and input for all systems; outputs ' +
    `(and attention weights when need_weights) agree within ${TOLERANCE} of max |value| before anything is timed.`);
  out.push('- Time: median of the timed runs after warm-up, systems alternated round-robin. Before every timed run, ' +
    `untimed: a full garbage collection of the main thread and a ${SETTLE_MS} ms pause (bench/settle.mjs), so no run ` +
    'pays for garbage another system left on the main thread or shares the cores with ORT\'s threads still spinning after their run. GFLOP/s uses the exact ' +
    'matmul count 2·n·d·(3·d) + 2·n·d·d + 2·2·n·n·d (d = d_model = n_heads·d_k; bias, scale and softmax not counted).', '');

  out.push('## Summary: this project\'s SIMD module', '');
  out.push('Ratios are times: peer ms ÷ SIMD ms, so 2.0 means the SIMD module is twice as fast. The first ratios compare ' +
    'like with like (every system returns new arrays); the "into" ones compare each system\'s fastest correct way to ' +
    'hand the results back. GFLOP/s and % of peak are those of the "into" runs (the engine\'s own speed). ' +
    'scalar ÷ SIMD is the gain of SIMD over the baseline build, both writing into reused arrays.', '');
  out.push(table(['d_model', 'n_heads', 'n', 'need_weights', 'SIMD ms', 'ORT / SIMD', 'TF.js / SIMD',
    'SIMD ms, into', 'GFLOP/s', '% peak', 'ORT / SIMD into', 'TF.js / SIMD into', 'scalar / SIMD'],
    cases.map((c) => {
      const by = Object.fromEntries(c.bySystem.map((s) => [s.key, s]));
      const into = by[OURS_SIMD_INTO].ms, fresh = by[OURS_SIMD].ms;
      return [c.dims.d_model, c.dims.n_heads, c.dims.n, c.need_weights ? 'on' : 'off',
        ms(fresh), f(by.ort.ms / fresh, 2), f(by.tfjs.ms / fresh, 2),
        ms(into), f(gf(c.dims, into), 1), pct(gf(c.dims, into)), f(by.ort.ms / into, 2), f(by.tfjs.ms / into, 2),
        f(by['ours-scalar'].ms / into, 2)];
    })), '');

  out.push(...poolSection(cases, versions), '');

  out.push('## Every system', '');
  out.push('wasm memory: the byteLength of the system\'s WebAssembly.Memory after the case\'s runs. Wasm memory only grows, ' +
    'so it is the high-water mark of everything that system ran so far (cases run top to bottom).', '');
  out.push(table(['d_model', 'n_heads', 'n', 'need_weights', 'system', 'ms (median)', 'runs', 'GFLOP/s', '% peak', 'ms / SIMD ms', 'wasm memory MB'],
    cases.flatMap((c) => {
      const simd = c.bySystem.find((s) => s.key === OURS_SIMD).ms; // like with like: new arrays
      return c.bySystem.map((s) => [c.dims.d_model, c.dims.n_heads, c.dims.n, c.need_weights ? 'on' : 'off', s.label,
        ms(s.ms), s.reps, f(gf(c.dims, s.ms), 1), pct(gf(c.dims, s.ms)), f(s.ms / simd, 2), mb(s.memoryBytes)]);
    })), '');

  out.push('## Projection matmul alone', '');
  out.push('`attn.matmul` with m = n tokens, k = n = d_model (one of the four projections); the time includes copying ' +
    'the operands into the wasm heap and the result out.', '');
  out.push(table(['m (n)', 'k = n (d_model)', 'module', 'ms (median)', 'runs', 'GFLOP/s', '% peak'],
    matmuls.map((r) => [r.m, r.k, r.key === OURS_SIMD ? 'SIMD' : 'scalar', ms(r.ms), r.reps, f(r.gflops, 1), pct(r.gflops)])), '');

  out.push(`## Streaming: n = ${streaming.dims.n}, d_model = ${streaming.dims.d_model}, n_heads = ${streaming.dims.n_heads}`, '');
  out.push(`- need_weights off, one forward in a fresh SIMD module: **${f(streaming.ms / 1000, 2)} s** ` +
    `(${f(streaming.gflops, 1)} GFLOP/s, ${pct(streaming.gflops)} % of peak), output ${streaming.finite ? 'all finite' : 'NOT finite'}.`);
  out.push(`- wasm heap after it (attn.memoryBytes()): **${mb(streaming.heapBytes)} MB**; goal under ${HEAP_GOAL_BYTES / 1e6} MB: ` +
    `${streaming.heapOk ? 'met' : '**not met**'}.`);
  out.push(streaming.refusal === null
    ? '- need_weights on: **not refused** (expected a memory-budget error).'
    : `- need_weights on is refused: \`${streaming.refusal}\``);
  out.push('');
  if (backward) out.push(renderBackward(backward));
  return out.join('\n');
}

// The pool's goals (issue 14), for n ≥ 512: this ratio of our single thread's time, and of ORT's
// with the same number of threads; below n = 512 the pool must at least not be slower.
export const GOALS = { minN: 512, overSingle: 1.7, overOrt: 1.3 };

/** The worker pool against our single thread and ORT's wasm threads, with the goals checked. */
function poolSection(cases, versions) {
  const out = [`## Worker pool: ${POOL_THREADS} workers against one thread and ONNX Runtime's wasm threads`, ''];
  out.push(`- "pool" is \`createAttentionPool({ workers: ${POOL_THREADS} })\` (web/src/engine/pool.js): each worker holds ` +
    'a group of the heads; a pass posts the input to every worker (a copy each, transferred), each projects and attends ' +
    'for its heads and multiplies by its rows of Wᴼ, and the calling thread sums the partial outputs and adds bᴼ. ' +
    'With need_weights, the last group\'s worker makes the new weights array and writes its heads in place; the ' +
    'calling thread copies the other workers\' heads in as they reply. ' +
    `Passes under ${f(versions.poolThreshold / 1e6, 0)} MFLOP run on the calling thread ("workers used" 0). ` +
    'Like "SIMD", it returns new arrays; "pool, into" writes into arrays reused across runs, like "SIMD, into".');
  out.push(`- ORT ${POOL_THREADS} threads: onnxruntime-web ${versions.ort} with \`env.wasm.numThreads = ${POOL_THREADS}\` ` +
    `(its threaded wasm, ort-wasm-simd-threaded.wasm, the only build it ships; in Node its pthreads are worker_threads ` +
    `and SharedArrayBuffer needs no headers). ORT reads numThreads once per instance, so this one runs in a worker_thread ` +
    `of its own (bench/ort_threads.mjs): like the pool, every run posts the input there and gets the results back. ` +
    `Checked at start: it started ${versions.ortThreadsStarted} extra thread(s) beside the one that calls it.`);
  out.push(`- Machine: ${versions.cores} logical cores. Goals: for n ≥ ${GOALS.minN}, pool ≥ ${GOALS.overSingle}× our single ` +
    `thread and ≥ ${GOALS.overOrt}× ORT with ${POOL_THREADS} threads; below, never slower than the single thread (ratio ≥ 1.00).`);
  out.push(`- "ORT threads / (SIMD into / ${POOL_THREADS})" is the ceiling of "ORT threads / pool": what it would be if ` +
    `the ${POOL_THREADS} workers split our single thread's fastest pass (into reused arrays) perfectly, each taking ` +
    `1/${POOL_THREADS} of its time, with no messages, copies or new memory. Where it is under ${GOALS.overOrt}, no ` +
    'division of the work can meet that goal on this machine; only a faster single thread could.', '');
  const head = ['d_model', 'n_heads', 'n', 'need_weights', 'SIMD ms (1 thread)', 'pool ms', 'workers used', 'SIMD / pool',
    `ORT ${POOL_THREADS} threads ms`, 'ORT threads / pool', 'ORT 1 / ORT threads', `ORT threads / (SIMD into / ${POOL_THREADS})`, 'pool ms, into', 'SIMD into / pool into'];
  const all = cases[0]?.bySystem.some((s) => s.key === OURS_POOL_ALL);
  if (all) head.push(`pool of ${versions.cores} ms`, `SIMD / pool of ${versions.cores}`);
  head.push('goals');
  out.push(table(head, cases.map((c) => {
    const by = Object.fromEntries(c.bySystem.map((s) => [s.key, s]));
    const single = by[OURS_SIMD].ms, pool = by[OURS_POOL].ms, ortT = by[ORT_THREADS].ms;
    const speedup = single / pool, overOrt = ortT / pool;
    const met = c.dims.n >= GOALS.minN ? speedup >= GOALS.overSingle && overOrt >= GOALS.overOrt : speedup >= 1;
    const row = [c.dims.d_model, c.dims.n_heads, c.dims.n, c.need_weights ? 'on' : 'off', ms(single), ms(pool),
      by[OURS_POOL].workersUsed ?? '—', f(speedup, 2), ms(ortT), f(overOrt, 2), f(by.ort.ms / ortT, 2),
      f(ortT / (by[OURS_SIMD_INTO].ms / POOL_THREADS), 2), ms(by[OURS_POOL_INTO].ms), f(by[OURS_SIMD_INTO].ms / by[OURS_POOL_INTO].ms, 2)];
    if (all) row.push(ms(by[OURS_POOL_ALL].ms), f(single / by[OURS_POOL_ALL].ms, 2));
    row.push(met ? 'met' : '**not met**');
    return row;
  })));
  return out;
}
