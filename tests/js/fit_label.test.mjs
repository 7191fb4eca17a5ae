// The heatmap's label fitting (web/src/render/fit_label.js; issue 35, item 7): a label wider than its
// room is cut to the longest prefix that fits with "…", found by binary search on its length after
// capping it, so a label of 100,000 characters costs a few short measurements, not one per removed
// character (8 such labels froze the page 12.7 s before). Checked against a linear search on a fake
// font (each character its own width) and by counting the measurements and their lengths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fit from '../../web/src/render/fit_label.js';

/** A font where 'i' is 3 px, 'W' 11 px and everything else 7 px; counts calls and the longest text measured. */
function fakeFont() {
  const f = { calls: 0, longest: 0 };
  f.measure = (s) => {
    f.calls++;
    f.longest = Math.max(f.longest, s.length);
    let w = 0;
    for (const c of s) w += c === 'i' ? 3 : c === 'W' ? 11 : 7;
    return w;
  };
  return f;
}

/** The old way, one character at a time: the reference answer. */
function linear(measure, s, width) {
  if (measure(s) <= width) return s;
  let t = s;
  while (t.length > 1 && measure(`${t}…`) > width) t = t.slice(0, -1);
  return `${t}…`;
}

test('the fitted label is the longest prefix that fits, as a character-by-character search finds it', () => {
  assert.equal(typeof fit.fitLabel, 'function', 'render/fit_label.js exports fitLabel');
  const { measure } = fakeFont();
  for (const s of ['cat', 'a rather long token label', 'iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii', 'WWWWWWWWWWWWWW', 'Wi'.repeat(20), 'x', '']) {
    for (const width of [110, 40, 5]) assert.equal(fit.fitLabel(measure, s, width), linear(measure, s, width), `${JSON.stringify(s)} in ${width} px`);
  }
  assert.equal(fit.fitLabel(measure, '😀'.repeat(40), 110).at(-1), '…');
  assert.ok(!/[\ud800-\udbff]…$/.test(fit.fitLabel(measure, '😀'.repeat(40), 110)), 'never cut inside a surrogate pair');
});

test('8 labels of 100,000 characters take a few short measurements each', () => {
  const font = fakeFont();
  const t0 = performance.now();
  const labels = Array.from({ length: 8 }, (_, i) => fit.fitLabel(font.measure, `${'abcdefgh'[i]}`.repeat(100000), 110));
  const took = performance.now() - t0;
  assert.ok(labels.every((s) => s.endsWith('…') && font.measure(s) <= 110), labels.join(' '));
  assert.ok(font.calls <= 8 * 10, `${font.calls} measurements`);
  assert.ok(font.longest <= fit.LABEL_MAX_CHARS + 1, `measured a text of ${font.longest} characters`);
  assert.ok(took < 1000, `${took.toFixed(1)} ms (one measurement per removed character would take minutes)`);
});
