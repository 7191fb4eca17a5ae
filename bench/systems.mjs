// The systems under test, loaded once with their wasm memories captured, each exposing the
// same interface: label, create(dims, weights, need_weights) -> runner, memoryBytes(). The
// multi-core ones (this project's worker pool, ORT with its wasm threads) run their wasm in other
// threads, whose memories this thread cannot see: their memoryBytes() is null.
import os from 'node:os';
import { configureOrt, createOrtRunner, ortFillsPreallocatedOutputs } from './ort_mha.mjs';
import { startOrtThreads } from './ort_threads.mjs';
import { createOursRunner, loadOurs } from './ours_mha.mjs';
import { createPoolRunner, startPool } from './pool_mha.mjs';
import { createTfjsRunner, initTfjs, tfjsHeapBytes } from './tfjs_mha.mjs';
import { loadWithMemoryCapture, wasmMemoryBytes } from './wasm_memory.mjs';

export const OURS_SIMD = 'ours-simd';           // the SIMD module called as the peers are: new arrays
export const OURS_SIMD_INTO = 'ours-simd-into'; // the same module writing into reused arrays
export const POOL_THREADS = 2;                  // the multi-core rows: 2 workers, ORT numThreads 2
export const OURS_POOL = 'ours-pool-2';         // the worker pool, new arrays (like ours-simd)
export const OURS_POOL_INTO = 'ours-pool-2-into';
export const OURS_POOL_ALL = 'ours-pool-all';   // one worker per logical core, when there are more than 2
export const ORT_THREADS = 'ort-2';

export async function loadSystems() {
  const simd = await loadWithMemoryCapture(OURS_SIMD, () => loadOurs({ simd: true }));
  const scalar = await loadWithMemoryCapture('ours-scalar', () => loadOurs({ simd: false }));

  const ortInfo = configureOrt();
  // ORT instantiates its wasm lazily on the first session: create a tiny one now, inside the
  // capture, so its Memory is found (and so init time never lands in a timed run).
  await loadWithMemoryCapture('ort', async () => {
    const tiny = { d_model: 8, n_heads: 2, d_k: 4, d_v: 4, batch: 1, n: 2, need_weights: false };
    const z = (k) => new Float32Array(k);
    const r = await createOrtRunner(tiny, { wq: z(64), wk: z(64), wv: z(64), wo: z(64), bq: z(8), bk: z(8), bv: z(8), bo: z(8) });
    await r.run(z(16));
    await r.dispose();
  });
  if (wasmMemoryBytes('ort') === null) throw new Error('ORT: its WebAssembly.Memory was not found');
  // ORT gets caller-owned outputs too if its wasm backend fills them (checked, not assumed).
  const ortPreallocated = await ortFillsPreallocatedOutputs();

  const tfInfo = await loadWithMemoryCapture('tfjs', () => initTfjs());

  const cores = os.availableParallelism();
  const pool = await startPool(POOL_THREADS);
  const poolAll = cores > POOL_THREADS ? await startPool(cores) : null;
  const ortThreads = await startOrtThreads(POOL_THREADS);
  // numThreads N runs on the calling thread plus N − 1 pthreads (0 extra threads with N = 1, checked).
  if (!(ortThreads.info.threadsStarted >= POOL_THREADS - 1)) {
    throw new Error(`ORT with numThreads ${POOL_THREADS} started ${ortThreads.info.threadsStarted} extra threads, expected ${POOL_THREADS - 1}`);
  }

  const systems = [
    {
      key: OURS_SIMD, label: `this project (${simd.isa})`, api: simd,
      create: (dims, w) => createOursRunner(simd, dims, w, { reuse: false }),
      memoryBytes: () => simd.memoryBytes(),
    },
    {
      key: OURS_SIMD_INTO, label: `this project (${simd.isa}, into)`, api: simd,
      create: (dims, w) => createOursRunner(simd, dims, w, { reuse: true }),
      memoryBytes: () => simd.memoryBytes(),
    },
    {
      key: 'ours-scalar', label: `this project (${scalar.isa} baseline, into)`, api: scalar,
      create: (dims, w) => createOursRunner(scalar, dims, w, { reuse: true }),
      memoryBytes: () => scalar.memoryBytes(),
    },
    {
      key: 'ort', label: `ONNX Runtime Web ${ortInfo.version}`,
      create: (dims, w, need_weights) => createOrtRunner({ ...dims, need_weights }, w, { preallocated: ortPreallocated }),
      memoryBytes: () => wasmMemoryBytes('ort'),
    },
    {
      key: 'tfjs', label: `TF.js wasm ${tfInfo.version}`,
      create: (dims, w) => createTfjsRunner(dims, w),
      memoryBytes: () => wasmMemoryBytes('tfjs') ?? tfjsHeapBytes(),
    },
    {
      key: OURS_POOL, label: `this project, pool of ${POOL_THREADS} workers (${pool.isa})`,
      create: (dims, w) => createPoolRunner(pool, dims, w, { reuse: false }),
      memoryBytes: () => null,
    },
    {
      key: OURS_POOL_INTO, label: `this project, pool of ${POOL_THREADS} workers (${pool.isa}, into)`,
      create: (dims, w) => createPoolRunner(pool, dims, w, { reuse: true }),
      memoryBytes: () => null,
    },
    ...(poolAll ? [{
      key: OURS_POOL_ALL, label: `this project, pool of ${cores} workers (${poolAll.isa})`,
      create: (dims, w) => createPoolRunner(poolAll, dims, w, { reuse: false }),
      memoryBytes: () => null,
    }] : []),
    {
      key: ORT_THREADS, label: `ONNX Runtime Web ${ortThreads.info.version}, numThreads ${POOL_THREADS}`,
      create: (dims, w, need_weights) => ortThreads.createRunner({ ...dims, need_weights }, w),
      memoryBytes: () => null,
    },
  ];
  const versions = { ort: ortInfo.version, ortPreallocated, tfjs: tfInfo.version, tfjsThreads: tfInfo.threads,
    cores, poolThreshold: pool.splitFlops, ortThreadsStarted: ortThreads.info.threadsStarted };
  const close = async () => {
    await pool.close();
    await poolAll?.close();
    await ortThreads.close();
  };
  return { systems, versions, simd, scalar, close };
}
