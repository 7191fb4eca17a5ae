// The heatmaps' literal colour table (render/viridis_lut.js) is viridis() of render/viridis.js at i / 255,
// byte for byte, and the file is what scripts/viridis_lut.mjs writes (so a palette change cannot leave it behind).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { viridis } from '../../web/src/render/viridis.js';
import { VIRIDIS_LUT } from '../../web/src/render/viridis_lut.js';
import { lutModule } from '../../scripts/viridis_lut.mjs';

test('the literal table holds viridis(i / 255) for every i', () => {
  assert.equal(VIRIDIS_LUT.length, 256 * 3);
  const wrong = [];
  for (let i = 0; i < 256; i++) {
    const want = viridis(i / 255);
    const got = [...VIRIDIS_LUT.subarray(i * 3, i * 3 + 3)];
    if (want.some((v, k) => v !== got[k])) wrong.push(`${i}: ${got} instead of ${want}`);
  }
  assert.deepEqual(wrong, [], `colours that differ from viridis():\n${wrong.slice(0, 8).join('\n')}`);
  // The ends are viridis's own first and last anchors (#440154, #fde725), as published.
  assert.deepEqual([...VIRIDIS_LUT.subarray(0, 3)], [0x44, 0x01, 0x54]);
  assert.deepEqual([...VIRIDIS_LUT.subarray(765)], [0xfd, 0xe7, 0x25]);
});

test('viridis_lut.js is exactly what scripts/viridis_lut.mjs writes', () => {
  const file = readFileSync(new URL('../../web/src/render/viridis_lut.js', import.meta.url), 'utf8');
  assert.ok(file === lutModule(), 'web/src/render/viridis_lut.js is not current: run node scripts/viridis_lut.mjs');
});
