// Writes web/src/render/viridis_lut.js: the heatmaps' 256 colours, viridis(i / 255) of render/viridis.js
// for i = 0…255, as a literal table. The first view's script makes it in 0.5 ms instead of computing it
// (4–15 ms in a fresh tab's interpreter). tests/js/viridis_lut.test.mjs fails when the two differ.
// Usage: node scripts/viridis_lut.mjs [--check]   (--check: exit 1, and say so, if the file is not current)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { viridis } from '../web/src/render/viridis.js';

/** The character of a step of 0 ('O'): steps -3…3 are the letters L…R. */
const ZERO = 79;
const target = join(dirname(fileURLToPath(import.meta.url)), '../web/src/render/viridis_lut.js');

/**
 * The module's text. The table is smooth: each byte differs from the same channel's byte of the colour
 * before by -3…3, so it is stored as the first colour and those 765 steps, one character each ('O' + step):
 * 200 bytes gzipped where the 768 numbers written out took 878, in the element's 200 kB budget.
 */
export function lutModule() {
  const lut = [];
  for (let i = 0; i < 256; i++) lut.push(...viridis(i / 255));
  const steps = lut.slice(3).map((v, i) => v - lut[i]);
  if (steps.some((d) => d < -3 || d > 3)) throw new Error('a step of the table is outside -3…3: change the encoding');
  const text = String.fromCharCode(...steps.map((d) => ZERO + d));
  const rows = text.match(/.{1,96}/g).map((row) => `  '${row}'`).join(' +\n');
  return `// The heatmaps' colour table: viridis(i / 255) of viridis.js for i = 0…255, as bytes [r, g, b, r, g, b, …].
// Written by scripts/viridis_lut.mjs (do not edit): decoding it costs the first view a fraction of a
// millisecond where computing the 256 colours took 4–15 ms in a fresh tab. tests/js/viridis_lut.test.mjs
// checks it against viridis(). Stored as the first colour and each byte's step from the same channel of
// the colour before (-3…3), one character each: '${String.fromCharCode(ZERO)}' is 0, one character further is +1.
const FIRST = [${lut.slice(0, 3).join(', ')}];
const STEPS =
${rows};

export const VIRIDIS_LUT = new Uint8Array(256 * 3);
VIRIDIS_LUT.set(FIRST);
for (let i = 3; i < VIRIDIS_LUT.length; i++) VIRIDIS_LUT[i] = VIRIDIS_LUT[i - 3] + STEPS.charCodeAt(i - 3) - ${ZERO};
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const usage = 'usage: node scripts/viridis_lut.mjs [--check]\nwrites web/src/render/viridis_lut.js from render/viridis.js; --check only says whether it is current';
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(usage);
    process.exit(0);
  }
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length) {
    console.error(`viridis_lut.mjs: unknown argument ${unknown.join(' ')}\n${usage}`);
    process.exit(2);
  }
  const text = lutModule();
  if (args.includes('--check')) {
    const found = existsSync(target) ? readFileSync(target, 'utf8') : null;
    const current = found === text;
    console.log(current ? 'viridis_lut.js is current'
      : `viridis_lut.js ${found === null ? 'is missing' : 'differs from viridis()'}: run node scripts/viridis_lut.mjs`);
    process.exit(current ? 0 : 1);
  }
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
