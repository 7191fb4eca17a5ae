// Loads playwright-core for the browser tests' Node processes (the lanes of run.mjs, lane.mjs; until
// 2026-11-29 a process per file, ~58 a stage): loaded as CommonJS, which it is (an ESM `import` of it
// first runs Node's export scanner over its 7 MB of bundled JS), with its two big bundles compiled from
// V8's code cache kept in build/. The load took 1.26 CPU-s as an import, 0.86 as CommonJS, 0.62 with the
// cache (2026-11-29, load ~12 on 2 cores). Node 20 has no compile cache of its own (22's
// module.enableCompileCache). A cache that does not fit (another Node, another V8 flag, a file changed) is
// rejected by its key or by V8 itself, and the file is then compiled as usual and the cache written anew.
import Module, { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
/** Where the caches are kept (build/ is never committed; a clean clone starts without them); a test may say another. */
const CACHE_DIR = process.env.ATTN_CODE_CACHE_DIR || resolve(here, '../../build/code-cache');
/** Only files at least this big are worth a cache of their own (playwright-core's two bundles: 3.4 and 3.6 MB). */
const BIG = 1 << 20;

/** playwright-core, as harness.mjs uses it. */
export function loadPlaywright() {
  return requireWithCodeCache('playwright-core', import.meta.url);
}

/**
 * require(`specifier`) from `from` (a file URL or path); every file of at least BIG characters it loads is
 * compiled with a code cache. Files required later (lazily) compile as usual.
 */
export function requireWithCodeCache(specifier, from) {
  const original = Module.prototype._compile;
  Module.prototype._compile = function compile(content, filename) {
    if (content.length < BIG) return original.call(this, content, filename);
    return compileCached(this, content, filename);
  };
  try {
    return createRequire(from)(specifier);
  } finally {
    Module.prototype._compile = original;
  }
}

/**
 * The cache file of `filename`: its path, size and time, Node's version and the process's options in the
 * name. V8 checks its flags and the source's length itself and rejects a cache made under others; the
 * options in the name keep processes started with other flags (run.mjs, a file run with V8 options) from
 * rejecting and rewriting each other's cache in turn.
 */
function cachePath(filename) {
  const { size, mtimeMs } = statSync(filename);
  const key = [filename, size, mtimeMs, process.version, process.arch, process.execArgv.join(' '), process.env.NODE_OPTIONS ?? ''].join('\n');
  return join(CACHE_DIR, `${basename(filename)}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.bin`);
}

/** What Node's own _compile does for a CommonJS file, through a vm.Script that reads (or later writes) the cache. */
function compileCached(module, content, filename) {
  const path = cachePath(filename);
  let cachedData;
  try { cachedData = readFileSync(path); } catch { /* none yet */ }
  const script = new vm.Script(Module.wrap(content), { filename, cachedData });
  const rejected = script.cachedDataRejected === true;
  if (!cachedData || rejected) process.once('exit', () => writeCache(script, path, rejected));
  const wrapper = script.runInThisContext({ displayErrors: true });
  const require = createRequire(filename);
  return wrapper.call(module.exports, module.exports, require, module, filename, dirname(filename));
}

/**
 * Writes the cache at the process's end, so it holds the functions the run compiled too (V8 compiles most
 * lazily, when first called), unless another process has written one meanwhile (a rejected one is replaced). Written whole or not at
 * all (a temporary file renamed): processes that run side by side never read half a cache.
 */
function writeCache(script, path, rejected) {
  if (!rejected && existsSync(path)) return;
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const temporary = `${path}.${process.pid}`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, path);
  } catch { /* a cache is an optimization: without one the next process compiles as usual */ }
}
