// The figures' SVG is well-formed XML whatever the labels hold (issue 35, item 11): token labels and
// titles with control characters, lone surrogates and U+FFFE/U+FFFF (which XML 1.0 cannot carry, even
// as &#1;) are shown as visible stand-ins, and the markup characters are escaped. The check here is the
// XML 1.0 Char production itself, code point by code point; tests/browser/import_limits.test.mjs parses
// the figure with the browser's XML parser and makes the PNG from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heatmapSvg, figureGrid, THEMES } from '../../web/src/export/figure.js';

/** The first code point XML 1.0 does not allow (Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]), or null. */
function firstIllegal(text) {
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i);
    if (c > 0xffff) {
      i++;
      continue;
    }
    const ok = c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd);
    if (!ok) return `U+${c.toString(16).toUpperCase().padStart(4, '0')} at ${i}`;
  }
  return null;
}

const controls = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join('');
const labels = [`a${controls}b`, 'lone \ud800 high', 'lone \udc00 low', 'non-chars \ufffe\uffff', 'fine 😀 <&>"\'', '\u0000', 'pair 😀\udc00', 'y'];

test('labels and titles with control characters make well-formed XML, shown as visible stand-ins', () => {
  const fig = heatmapSvg({ title: `map ${controls}`, data: new Float32Array(64).fill(1 / 8), rows: 8, cols: 8, rowLabels: labels, colLabels: labels, theme: THEMES.light });
  assert.equal(firstIllegal(fig.svg), null, 'a character XML 1.0 does not allow');
  assert.ok(fig.svg.includes('a\u2400\u2401'), 'NUL and SOH shown as the control pictures ␀ ␁');
  assert.ok(fig.svg.includes('&lt;&amp;&gt;&quot;&#39;'), 'markup escaped');
  assert.ok(fig.svg.includes('😀'), 'characters outside the BMP kept');
  assert.ok(fig.svg.includes('pair 😀\ufffd'), 'a pair kept, the lone surrogate after it replaced');
  const grid = figureGrid({ title: `all ${controls}`, tiles: [fig, fig], theme: THEMES.light });
  assert.equal(firstIllegal(grid.svg), null);
});

test('labels of 100,000 characters are clipped in the figure: its size does not grow with them', () => {
  const long = Array.from({ length: 8 }, (_, i) => `${i}`.repeat(100000));
  const t0 = performance.now();
  const fig = heatmapSvg({ title: 'long', data: new Float32Array(64).fill(1 / 8), rows: 8, cols: 8, rowLabels: long, colLabels: long, theme: THEMES.light });
  const took = performance.now() - t0;
  const short = heatmapSvg({ title: 'long', data: new Float32Array(64).fill(1 / 8), rows: 8, cols: 8, rowLabels: long.map((s) => s.slice(0, 16)), colLabels: long.map((s) => s.slice(0, 16)), theme: THEMES.light });
  assert.ok(fig.svg.length <= short.svg.length + 100, `the figure holds ${fig.svg.length} characters; with 16-character labels ${short.svg.length}`);
  assert.ok(fig.svg.includes('…'), 'a clipped label ends with …');
  assert.ok(took < 500, `${took.toFixed(0)} ms`);
});
