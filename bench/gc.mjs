// A full garbage collection of this thread's heap, on demand, for the benchmark's untimed pauses.
// With need_weights on, every system hands back n² floats per head on every run, and the main
// thread's heap was collected (mark-compact) every 20–300 ms during the 768/12/512 case (seen with
// --trace-gc). A collection's background work needs a core: a single-threaded system has an idle
// one, a multi-core system has none, so the pool was timed collecting the other systems' garbage.
// In two A/B pairs of quick benches of that case, collecting before every timed run cut the pool's
// extra time with need_weights on (over off) from 23–32 ms to 17–20 ms with new arrays and to
// 4–8 ms into reused arrays. No system now pays for garbage an earlier run left on the main thread
// (the heaps of the pool's workers and of ORT's thread hold only their own system's garbage).
//
// `--expose-gc` on the command line would be inherited by the pool's worker_threads, which refuse
// V8 flags in their execArgv; setting the flag at run time exposes gc() to new contexts only.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

/** Collects this thread's garbage now (every generation). */
export function collectGarbage() {
  gc();
}
