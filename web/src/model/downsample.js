// Downsampling of attention weights for drawing (pure, no DOM): a heatmap never needs more cells
// than it has pixels, and a 4,096² matrix per head would not even fit in a message comfortably.
// (The cells the mask hides come from the engine: attn.maskGrid.)

/** Largest side a heatmap is drawn at cell resolution; longer sides are averaged in blocks. */
export const MAX_SIDE = 256;

/** The block size that brings `n` down to at most `maxSide` cells. */
export const blockFor = (n, maxSide = MAX_SIDE) => Math.max(1, Math.ceil(n / maxSide));

/**
 * Averages each head's n_q×n_k matrix over blocks: `weights` is [heads, n_q, n_k] (one batch item).
 * Returns { heads, rows, cols, rowStep, colStep, data: Float32Array [heads, rows, cols] }; with
 * steps of 1 the data is the weights themselves, so values shown equal values computed.
 */
export function downsampleHeads(weights, heads, n_q, n_k, maxSide = MAX_SIDE) {
  if (weights.length !== heads * n_q * n_k) {
    throw new Error(`downsampleHeads: ${weights.length} weights, expected heads×n_q×n_k = ${heads}×${n_q}×${n_k}`);
  }
  const rowStep = blockFor(n_q, maxSide), colStep = blockFor(n_k, maxSide);
  if (rowStep === 1 && colStep === 1) {
    return { heads, rows: n_q, cols: n_k, rowStep, colStep, data: weights };
  }
  const rows = Math.ceil(n_q / rowStep), cols = Math.ceil(n_k / colStep);
  const data = new Float32Array(heads * rows * cols);
  for (let h = 0; h < heads; h++) {
    for (let r = 0; r < rows; r++) {
      const i1 = Math.min(n_q, (r + 1) * rowStep);
      for (let c = 0; c < cols; c++) {
        const j1 = Math.min(n_k, (c + 1) * colStep);
        let sum = 0, count = 0;
        for (let i = r * rowStep; i < i1; i++) {
          const row = (h * n_q + i) * n_k;
          for (let j = c * colStep; j < j1; j++) { sum += weights[row + j]; count++; }
        }
        data[(h * rows + r) * cols + c] = sum / count;
      }
    }
  }
  return { heads, rows, cols, rowStep, colStep, data };
}
