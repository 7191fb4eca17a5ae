// The √d_k-gradient chart's y axis is labelled at powers of ten in one format (issue 24): it used the
// panel's number format, which writes 0.01 as "0.01" but 0.001 as "1.0×10⁻³", so one axis mixed both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decadeLabel, sci } from '../../web/src/features/gradients/panel.js';

test('every decade of the gradient axis is written as a power of ten', () => {
  const ticks = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100];
  const labels = ticks.map(decadeLabel);
  assert.deepEqual(labels, ['10⁻⁶', '10⁻⁵', '10⁻⁴', '10⁻³', '10⁻²', '10⁻¹', '10⁰', '10¹', '10²']);
  assert.ok(labels.every((l) => /^10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+$/.test(l)), 'one format for the whole axis');
  // What the axis used before, for the record: two formats on one axis.
  assert.notEqual(/×/.test(sci(1e-3)), /×/.test(sci(1e-2)));
  // Ticks that are a rounding error off a decade still get the decade's label.
  assert.equal(decadeLabel(0.0009999999999), '10⁻³');
});
