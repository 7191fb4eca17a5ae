// The pool's head split takes the core's kv_head_of and gives the groups the division of head
// counts used to give (same groups, same order: the extra key/value head to the first groups);
// pool.js has no fallback for an n_kv_heads the layer always reports; and measurements with
// their dates live in bench/results.md, not in source comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsFiles } from './source_files.mjs';
import { modules } from './modules.mjs';
import { headGroups } from '../../web/src/engine/pool_split.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The split as it was computed before, written out: query head i reads key/value head ⌊i / (n_heads / n_kv_heads)⌋. */
function formerGroups(n_heads, n_kv_heads, parts) {
  const per = n_heads / n_kv_heads, count = Math.max(1, Math.min(parts, n_kv_heads)), out = [];
  for (let g = 0, kv0 = 0; g < count; g++) {
    const n_kv = Math.floor(n_kv_heads / count) + (g < n_kv_heads % count ? 1 : 0);
    out.push({ h0: kv0 * per, h: n_kv * per, kv0, n_kv });
    kv0 += n_kv;
  }
  return out;
}

test('headGroups from the core\'s kv_head_of gives the groups of the former formula', () => {
  for (const [n_heads, n_kv_heads] of [[1, 1], [8, 8], [12, 12], [8, 2], [8, 1], [16, 4], [6, 3], [12, 4], [12, 6], [64, 8]]) {
    const view = modules.simd.resolveView({ d_model: 4 * n_heads, n_heads, n_kv_heads, n_q: 1 });
    assert.equal(view.ok, true, view.message);
    for (const parts of [1, 2, 3, 4, 5, 7, 16]) {
      assert.deepEqual(headGroups({ n_kv_heads, kv_head_of: view.dims.kv_head_of }, parts), formerGroups(n_heads, n_kv_heads, parts),
        `n_heads ${n_heads}, n_kv_heads ${n_kv_heads}, ${parts} parts`);
    }
  }
});

test('pool.js has no fallback for n_kv_heads, which a layer always reports', () => {
  const pool = readFileSync(join(ROOT, 'web/src/engine/pool.js'), 'utf8');
  assert.doesNotMatch(pool, /n_kv_heads\s*\?\?/, 'a ?? fallback for n_kv_heads');
  assert.doesNotMatch(pool, /withKvHeads|n_kv_heads\s*!==\s*undefined/, 'a test of whether the layer has n_kv_heads');
  assert.doesNotMatch(pool, /local\[key\]\s*!==\s*undefined/, 'a test of whether the layer reports a size');
  const split = readFileSync(join(ROOT, 'web/src/engine/pool_split.js'), 'utf8');
  assert.doesNotMatch(split, /n_kv_heads\s*=\s*n_heads/, 'a default n_kv_heads in pool_split.js');
});


test('dated measurements are in bench/results.md, not in web/src comments', () => {
  for (const path of jsFiles(join(ROOT, 'web/src'))) {
    const text = readFileSync(path, 'utf8');
    assert.doesNotMatch(text, /\b20\d\d-\d\d-\d\d\b/, `${path.slice(ROOT.length)} holds a date`);
    assert.doesNotMatch(text, /three runs on|measured at \d|1\.6–3\.3 G/, `${path.slice(ROOT.length)} holds measured figures`);
  }
  const results = readFileSync(join(ROOT, 'bench/results.md'), 'utf8');
  const section = results.slice(results.indexOf('## Constants of the source'));
  assert.ok(results.includes('## Constants of the source'), 'the section is there');
  for (const figure of ['bench/pool_threshold.mjs', 'bench/pool_threshold_browser.mjs 2', '2026-11-23', '1.6–3.3 G', 'SPLIT_FLOPS', 'PAGE_SPLIT_FLOPS']) {
    assert.ok(section.includes(figure), `bench/results.md's section names ${figure}`);
  }
});
