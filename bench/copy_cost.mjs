// What handing a large result back to JavaScript costs on this machine: copying n floats out of a
// wasm memory into a new Float32Array (fresh pages, each faulted in on first touch) versus into
// one that was written before. The report prints both, so the "new arrays" column can be read.
import { median, now } from './stats.mjs';

const minorFaults = () => process.resourceUsage().minorPageFault;

/**
 * Medians over `reps` copies of n floats: { freshMs, reusedMs } and the minor page faults the
 * process took during each kind of copy (freshFaults, reusedFaults), which show where the time of
 * a copy into new memory goes.
 */
export function measureCopyCost(n, reps = 3) {
  const memory = new WebAssembly.Memory({ initial: Math.ceil((4 * n) / 65536) });
  const heap = new Float32Array(memory.buffer, 0, n);
  for (let i = 0; i < n; i += 1024) heap[i] = i; // touch every page of the source once
  const reused = new Float32Array(n);
  reused.set(heap);
  const fresh = [], again = [], freshFaults = [], againFaults = [];
  for (let r = 0; r < reps; r++) {
    let f0 = minorFaults(), t0 = now();
    const a = new Float32Array(n);
    a.set(heap);
    fresh.push(now() - t0);
    freshFaults.push(minorFaults() - f0);
    f0 = minorFaults();
    t0 = now();
    reused.set(heap);
    again.push(now() - t0);
    againFaults.push(minorFaults() - f0);
    if (a[n - 1] !== heap[n - 1]) throw new Error('copy check failed'); // keeps `a` alive until here
  }
  return {
    floats: n, freshMs: median(fresh), reusedMs: median(again),
    freshFaults: median(freshFaults), reusedFaults: median(againFaults),
  };
}
