// The scales and axes of the playground's log-log charts (time against n, the √d_k gradients): x at the
// measured points, y labelled at powers of ten only, both in the theme's muted colours. One place for
// uPlot's convention that a label left out (it does not fit, or the filter drops it) arrives as null:
// written as a blank, never passed to a formatter (fmt.int(null) is "0").

/** True when v is a power of ten (up to rounding). */
const decade = (v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;

/** Labels for uPlot's `values`: each split through `format`, a left-out one (null) blank. */
const labels = (format) => (u, splits) => splits.map((v) => (v == null ? '' : format(v)));

/**
 * { scales, axes } for uPlot: xs (ascending, > 0) are the x splits, on a log₂ scale with a margin;
 * y is log₁₀. x: { label, format }, y: { label, format, size }; colours: { muted, grid }.
 */
export function logLogAxes(xs, { x, y, colours }) {
  const axis = { stroke: colours.muted, grid: { stroke: colours.grid, width: 1 }, ticks: { stroke: colours.grid } };
  return {
    scales: { x: { time: false, distr: 3, log: 2, range: [xs[0] / 1.3, xs[xs.length - 1] * 1.3] }, y: { distr: 3 } },
    axes: [
      { ...axis, label: x.label, labelSize: 20, splits: () => xs, values: labels(x.format) },
      { ...axis, label: y.label, labelSize: 20, size: y.size,
        filter: (u, splits) => splits.map((v) => (decade(v) ? v : null)), values: labels(y.format) },
    ],
  };
}
