// The compute a playground connects to: a worker (forward passes, sweep, peak) and a main-thread
// engine (analysis, examples, encodings: cheap and synchronous). Every playground of a page that uses
// the same module and asset folder shares them; each keeps its own session. When the last one is
// removed, both are let go after a short grace (a playground moved in the page reconnects at once).

import { loadAttention } from '../engine/attention.js';
import { EngineClient, InPageWorker, startModuleWorker } from '../worker/client.js';

const GRACE_MS = 3000;
const shared = new Map(); // `${base}|${simd}` → { refs, client, engine, timer }

/**
 * Connects a playground: { client, session, engine (a promise of the main-thread API), release() }.
 * simd: undefined = automatic, false = the baseline module, true = insist on SIMD. base: the asset folder.
 * doc: the playground's document (its origin decides how the worker starts).
 */
export function acquireCompute({ simd, base, doc }) {
  const key = `${base}|${simd}`;
  let entry = shared.get(key);
  if (!entry) {
    const wasmDir = new URL('wasm/', base).href;
    const options = simd === undefined ? { wasmDir } : { simd, wasmDir };
    const origin = doc.defaultView?.origin ?? new URL(base).origin;
    const client = new EngineClient({
      simd,
      start: () => startModuleWorker(new URL('worker.js', base).href, origin),
      fallback: () => new InPageWorker(import('../worker/handlers.js').then(({ createHandlers, handle }) => ({
        handle, handlers: createHandlers((s) => loadAttention(s === undefined ? { wasmDir } : { simd: s, wasmDir })),
      }))),
    });
    const engine = loadAttention(options);
    engine.catch(() => {}); // the playground reports it
    entry = { refs: 0, client, engine, timer: 0 };
    shared.set(key, entry);
  }
  clearTimeout(entry.timer);
  entry.refs++;
  const session = entry.client.session();
  let released = false;
  return {
    client: entry.client,
    session,
    engine: entry.engine,
    release() {
      if (released) return;
      released = true;
      session.close();
      entry.refs--;
      if (entry.refs > 0) return;
      entry.timer = setTimeout(() => {
        if (entry.refs > 0) return;
        entry.client.close();
        shared.delete(key);
      }, GRACE_MS);
    },
  };
}

/** How many engines are alive (for leak checks). */
export const liveComputes = () => shared.size;
