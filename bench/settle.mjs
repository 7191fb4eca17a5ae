// The untimed pause before every timed run of the benchmarks (measure_case.mjs, pool_balance.mjs,
// pool_ab.mjs): a full garbage collection of this thread, then SETTLE_MS of nothing.
//
// The collection: with need_weights on, every system hands back n² floats per head on every run,
// and the main thread's heap was collected (mark-compact) every 20–300 ms during the 768/12/512
// case (seen with --trace-gc). A collection's background work needs a core: a single-threaded
// system has an idle one, a multi-core system has none, so the pool was timed collecting the
// other systems' garbage. `POOL_GOALS_SIZES=768x12x512 node bench/pool_goals.mjs`, with and without
// POOL_GOALS_GC=0, shows the effect as the pool's extra time with need_weights on over off: on a
// busy AMD host it went from 23–32 ms without the collection to 17–20 ms with new arrays and 4–8 ms
// into reused arrays; on a quiet Intel host (2026-11-23, 20:34 UTC) from 8.6 and 11.4 ms to 8.4 and
// 6.1 ms. No system now pays for garbage an earlier run left on the main thread (the heaps of the
// pool's workers and of ORT's thread hold only their own system's garbage).
//
// The pause: ORT's wasm threads keep busy-waiting for work after each of its runs (pool_goals.mjs
// measures it: the process's CPU time in the 100 ms after an ORT run), which would take a core from
// whatever runs next. The collection comes first, so its background sweeping also ends in the pause.
//
// `--expose-gc` on the command line would be inherited by the pool's worker_threads, which refuse
// V8 flags in their execArgv; setting the flag at run time exposes gc() to new contexts only.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

/** The default pause in ms: longer than ORT's threads spin after a run. */
export const SETTLE_MS = 50;

/** Collects this thread's garbage (every generation; unless `collect` is false), then waits `ms`. */
export async function settle({ ms = SETTLE_MS, collect = true } = {}) {
  if (collect) gc();
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}
