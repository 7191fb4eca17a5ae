// One small interface over the two worker APIs the pool runs on: module Web Workers in a page
// and worker_threads in Node. The pool sees post(), terminate(), ref()/unref() and two callbacks,
// and nothing else of either API.

import { startModuleWorker } from './module_worker.js';

const isNode = typeof process === 'object' && !!process.versions?.node;

/** The number of logical cores this JavaScript engine reports (at least 1). */
export async function coreCount() {
  if (isNode) return (await import('node:os')).availableParallelism();
  return Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1);
}

/**
 * Resolves to spawn(url, { onMessage(data), onDeath(reason) }) → handle. onDeath may be called
 * more than once for one worker (Node reports 'error' then 'exit'); the caller keeps the first.
 */
export async function workerSpawner() {
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    return (url, { onMessage, onDeath }) => {
      // Workers inherit the process's flags, and --input-type (node --input-type=module -e ...)
      // makes a worker fail at start: it only applies to the main script.
      const worker = new Worker(url, { execArgv: process.execArgv.filter((a) => !a.startsWith('--input-type')) });
      worker.on('message', onMessage);
      worker.on('messageerror', (e) => onDeath(`a message from it could not be read: ${e?.message ?? e}`));
      worker.on('error', (e) => onDeath(`it threw ${e?.message ?? e}`));
      worker.on('exit', (code) => onDeath(`it exited with code ${code}`));
      return {
        post: (message, transfer) => worker.postMessage(message, transfer),
        terminate: () => worker.terminate(),
        // An idle pool must not keep Node running; a pool with a call in flight must.
        ref: () => worker.ref(),
        unref: () => worker.unref(),
        native: worker,
      };
    };
  }
  return (url, { onMessage, onDeath }) => {
    // A pool started inside the compute worker of an element loaded from another origin: the script is
    // cross-origin to the worker starting it, so it starts from a same-origin blob: URL.
    const worker = startModuleWorker(url, globalThis.origin ?? globalThis.location?.origin, 'attention-pool');
    worker.onmessage = (e) => onMessage(e.data);
    worker.onmessageerror = () => onDeath('a message from it could not be read');
    worker.onerror = (e) => {
      e.preventDefault?.();
      onDeath(e.message || 'its script could not be loaded');
    };
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      terminate: async () => worker.terminate(),
      ref: () => {},
      unref: () => {},
      native: worker,
    };
  };
}
