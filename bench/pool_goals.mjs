// `node bench/pool_goals.mjs`: issue 14's goals alone, without the whole `npm run bench`. For every
// size with n ≥ 512 and need_weights off and on, it times our single thread (new arrays), the pool
// of 2 workers (new arrays, and into reused arrays) and ONNX Runtime Web with numThreads 2, round-robin
// in one process (bench/measure_case.mjs), and prints the ratios the goals are about.
// POOL_GOALS_SIZES=768x12x2048[,...] and POOL_GOALS_WEIGHTS=on|off pick cases; POOL_GOALS_ROUNDS=k
// repeats the whole set k times (the spread across rounds shows the machine's noise).
// POOL_GOALS_SETTLE_MS (default 50, as `npm run bench`): an untimed pause before every timed run.
// ORT's wasm threads busy-wait for work after each of its runs (measured here first: the process's
// CPU time in the 100 ms after an ORT run), which takes a core from whatever runs next.
// POOL_GOALS_GC=0 drops the full garbage collection before every timed run (bench/settle.mjs), to see
// what the collector's work does to each system.
import { makeInput, makeWeights } from './data.mjs';
import { measureCase } from './measure_case.mjs';
import { SETTLE_MS as DEFAULT_SETTLE_MS } from './settle.mjs';
import { createOursRunner, loadOurs } from './ours_mha.mjs';
import { createPoolRunner, startPool } from './pool_mha.mjs';
import { startOrtThreads } from './ort_threads.mjs';
import { GOALS } from './report.mjs';
import { ORT_THREADS, OURS_POOL, OURS_POOL_INTO, OURS_SIMD, POOL_THREADS } from './systems.mjs';
import { measuringScript } from '../scripts/cli.mjs';

measuringScript({
  seconds: 1800,
  usage: `usage: node bench/pool_goals.mjs [--timeout S]
  POOL_GOALS_SIZES=768x12x2048[,...], POOL_GOALS_WEIGHTS=on|off, POOL_GOALS_ROUNDS=k (default 1),
  POOL_GOALS_SETTLE_MS (default 50), POOL_GOALS_GC=0 (no full GC before each timed run)`,
});
const SIZES = process.env.POOL_GOALS_SIZES?.split(',').map((s) => s.split('x').map(Number)) ??
  [[768, 12, 512], [768, 12, 2048], [1024, 16, 1024]];
const WEIGHTS = { on: [true], off: [false] }[process.env.POOL_GOALS_WEIGHTS] ?? [false, true];
const ROUNDS = Number(process.env.POOL_GOALS_ROUNDS ?? 1);
const SETTLE_MS = Number(process.env.POOL_GOALS_SETTLE_MS ?? DEFAULT_SETTLE_MS);
const COLLECT = process.env.POOL_GOALS_GC !== '0';
const log = (line) => process.stdout.write(`${line}\n`);

const simd = await loadOurs({ simd: true });
const pool = await startPool(POOL_THREADS);
const ortThreads = await startOrtThreads(POOL_THREADS);
const systems = [
  { key: OURS_SIMD, create: (dims, w) => createOursRunner(simd, dims, w, { reuse: false }) },
  { key: OURS_POOL, create: (dims, w) => createPoolRunner(pool, dims, w, { reuse: false }) },
  { key: OURS_POOL_INTO, create: (dims, w) => createPoolRunner(pool, dims, w, { reuse: true }) },
  { key: ORT_THREADS, create: (dims, w, need_weights) => ortThreads.createRunner({ ...dims, need_weights }, w) },
].map((s) => ({ ...s, label: s.key, memoryBytes: () => null }));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU time of this process (every thread) in the 100 ms after an ORT run, `gap` ms after it ended. */
async function ortSpin(gap) {
  const dims = { d_model: 512, n_heads: 8, d_k: 64, d_v: 64, batch: 1, n: 128 };
  const runner = await systems[3].create(dims, makeWeights(dims), false);
  const x = makeInput(dims);
  for (let i = 0; i < 5; i++) await runner.run(x);
  await sleep(gap);
  const before = process.cpuUsage();
  await sleep(100);
  const used = process.cpuUsage(before);
  await runner.dispose();
  return (used.user + used.system) / 1000;
}

try {
  log(`ORT ${POOL_THREADS} threads, after a run: ${(await ortSpin(0)).toFixed(1)} ms of CPU in the next 100 ms idle, ` +
    `${(await ortSpin(SETTLE_MS)).toFixed(1)} ms when it starts ${SETTLE_MS} ms later`);
  // Warm-up (discarded): V8 tiers wasm up during the first calls of every module.
  await measureCase(systems, { d_model: 512, n_heads: 8, d_k: 64, d_v: 64, batch: 1, n: 256 }, false);
  log(`goals for n ≥ ${GOALS.minN}: pool ≥ ${GOALS.overSingle}× single, ≥ ${GOALS.overOrt}× ORT ${POOL_THREADS} threads; ` +
    `below, pool ≥ 1.00× single. Before each timed run: ${COLLECT ? 'a full GC and ' : ''}a ${SETTLE_MS} ms pause`);
  log('round d_model n_heads     n weights  single ms  pool ms  into ms  ORT-2 ms  single/pool  ORT-2/pool  goals');
  for (let round = 1; round <= ROUNDS; round++) {
    for (const need_weights of WEIGHTS) {
      for (const [d_model, n_heads, n] of SIZES) {
        const dims = { d_model, n_heads, d_k: d_model / n_heads, d_v: d_model / n_heads, batch: 1, n };
        const c = await measureCase(systems, dims, need_weights, () => {}, { settleMs: SETTLE_MS, collect: COLLECT });
        const ms = Object.fromEntries(c.bySystem.map((s) => [s.key, s.ms]));
        const overSingle = ms[OURS_SIMD] / ms[OURS_POOL], overOrt = ms[ORT_THREADS] / ms[OURS_POOL];
        const met = n >= GOALS.minN ? overSingle >= GOALS.overSingle && overOrt >= GOALS.overOrt : overSingle >= 1;
        log(`${String(round).padStart(5)} ${String(d_model).padStart(7)} ${String(n_heads).padStart(7)} ${String(n).padStart(5)} ` +
          `${(need_weights ? 'on' : 'off').padEnd(7)} ${[OURS_SIMD, OURS_POOL, OURS_POOL_INTO, ORT_THREADS]
            .map((k, i) => ms[k].toFixed(1).padStart([10, 8, 8, 9][i])).join(' ')} ` +
          `${overSingle.toFixed(2).padStart(11)} ${overOrt.toFixed(2).padStart(11)}  ${met ? 'met' : 'NOT met'}`);
      }
    }
  }
} finally {
  await pool.close();
  await ortThreads.close();
}
process.exit(0); // ORT's threads may keep a handle open
