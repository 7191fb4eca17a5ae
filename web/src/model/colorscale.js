// How attention weights become colours (pure, no DOM). A long or masked sequence has a few large
// weights and many tiny ones: a log scale or a per-row scale shows the structure a linear one hides.

export const COLOR_SCALES = ['linear', 'log', 'row'];
const LOG_DECADES = 3; // the log scale spans max/1000 … max

/**
 * Maps one head's weights [rows × cols] to t in [0, 1]: 'linear' = w / max, 'log' = position of
 * log10 w within the top three decades below max, 'row' = w / (largest weight in its row).
 */
export function colorPositions(data, rows, cols, mode, max) {
  if (data.length !== rows * cols) throw new Error(`colorPositions: ${data.length} values, expected ${rows}×${cols}`);
  const out = new Float32Array(data.length);
  if (mode === 'row') {
    for (let r = 0; r < rows; r++) {
      let rowMax = 0;
      for (let c = 0; c < cols; c++) rowMax = Math.max(rowMax, data[r * cols + c]);
      for (let c = 0; c < cols; c++) out[r * cols + c] = rowMax > 0 ? data[r * cols + c] / rowMax : 0;
    }
  } else if (mode === 'log') {
    const top = Math.log10(max > 0 ? max : 1), bottom = top - LOG_DECADES;
    for (let k = 0; k < data.length; k++) {
      out[k] = data[k] > 0 ? Math.min(1, Math.max(0, (Math.log10(data[k]) - bottom) / LOG_DECADES)) : 0;
    }
  } else {
    const scale = max > 0 ? 1 / max : 1;
    for (let k = 0; k < data.length; k++) out[k] = data[k] * scale;
  }
  return out;
}

/** The legend's two ends for a mode: [left label, right label]. */
export function legendEnds(mode, max, format) {
  if (mode === 'row') return ['0', 'row max'];
  if (mode === 'log') return [`≤ ${format(max / 10 ** LOG_DECADES)}`, format(max)];
  return ['0', format(max)];
}
