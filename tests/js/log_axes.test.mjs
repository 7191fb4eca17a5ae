// render/log_axes.js: the log-log charts' axes. uPlot hands a label it leaves out (it does not fit a
// narrow chart, or the decade filter drops it) as null; it must come out blank, never formatted
// (fmt.int(null) is "0": a phone's √d_k chart once read "0 0 16 0 0 128 0 0 1,024").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logLogAxes } from '../../web/src/render/log_axes.js';
import * as fmt from '../../web/src/model/format.js';

const xs = [4, 8, 16, 32, 64, 128, 256, 512, 1024];
const { scales, axes } = logLogAxes(xs, { colours: { muted: '#777', grid: '#ddd' },
  x: { label: 'd_k', format: fmt.int }, y: { label: 'y', size: 60, format: (v) => `1e${Math.round(Math.log10(v))}` } });

test('x: the measured points are the splits; left-out labels are blank, the others formatted', () => {
  assert.deepEqual(axes[0].splits(), xs);
  const shown = [null, null, 16, null, null, 128, null, null, 1024];
  assert.deepEqual(axes[0].values(null, shown), ['', '', '16', '', '', '128', '', '', '1,024']);
});

test('y: only powers of ten are kept, and what the filter drops is blank', () => {
  const splits = [0.001, 0.002, 0.005, 0.01, 0.1, 0.3, 1];
  const kept = axes[1].filter(null, splits);
  assert.deepEqual(kept, [0.001, null, null, 0.01, 0.1, null, 1]);
  assert.deepEqual(axes[1].values(null, kept), ['1e-3', '', '', '1e-2', '1e-1', '', '1e0']);
});

test('scales: log₂ x with a margin either side of the points, log₁₀ y', () => {
  assert.equal(scales.x.distr, 3);
  assert.equal(scales.x.log, 2);
  assert.ok(scales.x.range[0] < xs[0] && scales.x.range[1] > xs[xs.length - 1], JSON.stringify(scales.x.range));
  assert.equal(scales.y.distr, 3);
});
