// tests/browser/code_cache.mjs (how the browser tests load playwright-core): a big CommonJS file loads the
// same with a code cache as without, the cache is written at the process's end, and a cache that is
// garbage or made for other contents is rejected and replaced, never trusted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const loader = fileURLToPath(new URL('../browser/code_cache.mjs', import.meta.url));

/** A CommonJS file over the loader's 1 MB threshold that requires a small neighbour and exports `value`. */
function bigModule(dir, value) {
  writeFileSync(join(dir, 'small.js'), 'module.exports = 40;\n');
  const filler = `// ${'x'.repeat(1 << 20)}\n`;
  writeFileSync(join(dir, 'big.js'), `${filler}module.exports = { value: require('./small') + ${value}, file: __filename, dir: __dirname };\n`);
}

/** Loads big.js through the loader in a new Node process (the cache is written at its end); returns what it exported. */
function load(dir, cache) {
  const script = `import { requireWithCodeCache } from ${JSON.stringify(loader)};
    console.log(JSON.stringify(requireWithCodeCache('./big.js', ${JSON.stringify(join(dir, 'from.js'))})));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ATTN_CODE_CACHE_DIR: cache } });
  return JSON.parse(out);
}

test('a big file loads the same without a cache, with one, and with a bad one, which is then replaced', () => {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  try {
    const cache = join(dir, 'cache');
    bigModule(dir, 2);
    const expected = { value: 42, file: join(dir, 'big.js'), dir };
    assert.deepEqual(load(dir, cache), expected, 'first load, no cache');
    const written = readdirSync(cache);
    assert.equal(written.length, 1, `one cache file for big.js (small.js is under the threshold): ${written}`);
    assert.match(written[0], /^big\.js-[0-9a-f]{16}\.bin$/);
    const good = readFileSync(join(cache, written[0]));
    assert.ok(good.length > 0);
    assert.deepEqual(load(dir, cache), expected, 'second load, from the cache');
    // Garbage in the cache: V8 rejects it, the file compiles as usual and a good cache replaces it.
    writeFileSync(join(cache, written[0]), Buffer.from('not a code cache'));
    assert.deepEqual(load(dir, cache), expected, 'load with a garbage cache');
    assert.ok(readFileSync(join(cache, written[0])).length > 100, 'the garbage cache was replaced');
    // The file changed (another value, another size): another key, so another cache, and the new value.
    bigModule(dir, 12345);
    assert.deepEqual(load(dir, cache), { ...expected, value: 12385 }, 'changed file');
    assert.equal(readdirSync(cache).length, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
