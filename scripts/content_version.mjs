// A file's content version: the first 10 hex digits of its SHA-256. make_dist.mjs writes each wasm
// module's version into the bundles and index.html, so the engine asks for `<module>.wasm?v=<version>`,
// a URL whose content never changes; serve.mjs lets a browser keep a file asked for with its own
// version without asking again (issue 34: on a second visit the wasm no longer waits for a revalidation).
import { createHash } from 'node:crypto';

export const VERSION_DIGITS = 10;

/** The version of `bytes` (a Buffer or Uint8Array): VERSION_DIGITS lowercase hex digits. */
export function contentVersion(bytes) {
  return createHash('sha256').update(bytes).digest('hex').slice(0, VERSION_DIGITS);
}
