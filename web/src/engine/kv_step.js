// decodeStep's option keys and its error for a `cache` that is not a KV cache: shared by the cache's
// code (kv_cache.js, loaded with the labs) and the labs' front (labs.js, in the first view), so a call
// that meets no cache before the labs are loaded gets the same message without loading them.
import * as check from './checks.js';

export const STEP_KEYS = Object.freeze(['x', 'cache', 'scale', 'positional', 'rope_base']);

/** Throws decodeStep's error for a `cache` that is not a KV cache (the other options checked first). */
export function notACache(args) {
  const o = check.options('decodeStep', args, STEP_KEYS);
  throw new Error(`decodeStep: cache must be a KV cache made by layer.createKVCache({ max_len }), got ${check.describe(o.cache)}`);
}
