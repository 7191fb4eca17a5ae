// Where splitting a forward pass over the worker pool starts to pay, measured on any JavaScript engine
// the pool runs on (Node: bench/pool_threshold.mjs; Chromium, from a Web Worker as the page's compute
// worker does: bench/pool_threshold_browser.mjs). For a ladder of sizes (by matmul FLOPs,
// self-attention, batch 1, need_weights off and on) it times the pass on the calling thread and split
// over the workers, alternating the two, and reports calling ÷ split.
import { makeInput, makeWeights } from './data.mjs';
import { median, now } from './stats.mjs';

// [d_model, n_heads, n]: from ~0.1 to ~300 MFLOP, wide-and-short and narrow-and-long shapes mixed.
const LADDER = [
  [32, 2, 8], [64, 4, 8], [64, 4, 16], [64, 4, 32], [128, 4, 16], [64, 4, 64], [128, 4, 32], [128, 8, 48],
  [128, 4, 64], [256, 4, 32], [128, 4, 128], [256, 8, 64], [64, 4, 512], [256, 8, 128], [512, 8, 64],
  [512, 8, 128], [768, 12, 128],
];
const BUDGET_MS = 400; // timed time per variant and size: enough for a stable median at these sizes

/**
 * Runs the ladder with pools made by `createAttentionPool` (options { workers, simd, splitFlops, ... } +
 * `poolOptions`), printing each row with `log(line)`. Resolves to the smallest MFLOP count from which
 * every larger pass of the ladder ran faster split, or null.
 */
export async function poolLadder({ createAttentionPool, workers, log, poolOptions = {} }) {
  // The single-threaded side is the pool's own fallback (its calling thread's engine), so both
  // sides run the same module; splitFlops is pinned per pool: Infinity never splits, 0 always does.
  const whole = await createAttentionPool({ workers, simd: true, splitFlops: Infinity, ...poolOptions });
  const split = await createAttentionPool({ workers, simd: true, splitFlops: 0, ...poolOptions });
  try {
    log('d_model n_heads     n need_weights    MFLOP  calling ms  split ms  calling/split');
    const rows = [];
    for (const need_weights of [false, true]) {
      for (const [d_model, n_heads, n] of LADDER) {
        const d_k = d_model / n_heads, dims = { d_model, n_heads, d_k, d_v: d_k, batch: 1, n };
        const weights = makeWeights(dims), query = makeInput(dims);
        const config = { d_model, n_heads, d_k, d_v: d_k };
        const layers = [await whole.layer(config), await split.layer(config)];
        for (const layer of layers) await layer.setWeights(weights);
        const input = { query, n_q: n, need_weights };
        const times = [[], []];
        for (let i = 0; i < 5; i++) for (const layer of layers) await layer.forward(input); // warm-up
        const started = now();
        while (now() - started < 2 * BUDGET_MS || times[0].length < 7) {
          for (const [k, layer] of layers.entries()) {
            const t0 = now();
            await layer.forward(input);
            times[k].push(now() - t0);
          }
        }
        if (layers[0].lastWorkers !== 0 || layers[1].lastWorkers < 2) throw new Error('a pass did not run where it was meant to');
        const [a, b] = times.map(median);
        const mflop = layers[1].forwardFlops(1, n, n) / 1e6; // the core's count, as the pool's threshold
        rows.push({ mflop, ratio: a / b });
        log(`${String(d_model).padStart(7)} ${String(n_heads).padStart(7)} ${String(n).padStart(5)} ` +
          `${(need_weights ? 'on' : 'off').padEnd(12)} ${mflop.toFixed(2).padStart(8)} ${a.toFixed(3).padStart(11)} ` +
          `${b.toFixed(3).padStart(9)} ${(a / b).toFixed(2).padStart(14)}`);
        for (const layer of layers) layer.delete();
      }
    }
    // The threshold: the smallest count from which every larger pass in the ladder ran faster split.
    rows.sort((x, y) => x.mflop - y.mflop);
    let from = null;
    for (let i = rows.length - 1; i >= 0 && rows[i].ratio > 1; i--) from = rows[i].mflop;
    log(from === null
      ? 'splitting did not pay for the largest passes: is the machine busy?'
      : `splitting paid from ${from.toFixed(1)} MFLOP on (every larger pass of the ladder, both need_weights)`);
    return from;
  } finally {
    await whole.close();
    await split.close();
  }
}
