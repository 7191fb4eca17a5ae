// `node bench/pool_balance.mjs`: where a split pass of the worker pool spends its time, against our
// single thread in the same process. Each pass of the pool ends when its slower worker replies, so
// its time is: the mean of the workers' engine times (the work itself, halved), plus the gap from
// that mean to the slower worker (what splitting into fixed groups costs when the two cores run
// at different speeds during the pass), plus the rest (copies, messages, summing the partial
// outputs). Single thread and pool are alternated, with a full GC and a 50 ms pause before every
// timed pass, as in `npm run bench`. POOL_BALANCE_SIZES=768x12x512[,...], POOL_BALANCE_WEIGHTS=on|off
// and POOL_BALANCE_REPS=k (default 15) pick the cases.
import { makeInput, makeWeights } from './data.mjs';
import { collectGarbage } from './gc.mjs';
import { loadOurs } from './ours_mha.mjs';
import { startPool } from './pool_mha.mjs';
import { median, now } from './stats.mjs';
import { POOL_THREADS } from './systems.mjs';
import { SETTLE_MS } from './measure_case.mjs';

const SIZES = process.env.POOL_BALANCE_SIZES?.split(',').map((s) => s.split('x').map(Number)) ??
  [[768, 12, 512], [768, 12, 2048], [1024, 16, 1024]];
const WEIGHTS = { on: [true], off: [false] }[process.env.POOL_BALANCE_WEIGHTS] ?? [false, true];
const REPS = Number(process.env.POOL_BALANCE_REPS ?? 15);
const WARMUP = 2;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const f1 = (x) => x.toFixed(1).padStart(8);

const attn = await loadOurs({ simd: true });
const pool = await startPool(POOL_THREADS);
try {
  console.log(`pool of ${POOL_THREADS} workers; medians of ${REPS} passes each, ms. "gap": slower worker − mean of the ` +
    'workers; "rest": pass − slower worker');
  console.log('d_model/n_heads/n weights   single     pool  workers   w mean      gap     rest  single/pool  single/(pool−gap)');
  for (const need_weights of WEIGHTS) {
    for (const [d_model, n_heads, n] of SIZES) {
      const dims = { d_model, n_heads, d_k: d_model / n_heads, d_v: d_model / n_heads, batch: 1, n };
      const config = { d_model, n_heads, d_k: dims.d_k, d_v: dims.d_v, bias: true, seed: 1 };
      const weights = makeWeights(dims), query = makeInput(dims);
      const input = { query, batch: 1, n_q: n, need_weights };
      const single = new attn.MultiHeadAttention(config);
      single.setWeights(weights);
      const layer = await pool.layer(config);
      await layer.setWeights(weights);
      await layer.sendWeights();
      const rows = [];
      try {
        for (let rep = 0; rep < WARMUP + REPS; rep++) {
          collectGarbage();
          await sleep(SETTLE_MS);
          let t0 = now();
          single.forward(input);
          const singleMs = now() - t0;
          collectGarbage();
          await sleep(SETTLE_MS);
          t0 = now();
          await layer.forward(input);
          const poolMs = now() - t0;
          if (layer.lastWorkers !== POOL_THREADS) throw new Error(`the pass used ${layer.lastWorkers} workers, not ${POOL_THREADS}`);
          if (rep < WARMUP) continue;
          const w = layer.lastWorkerMs, mean = w.reduce((a, b) => a + b, 0) / w.length, slower = Math.max(...w);
          rows.push({ singleMs, poolMs, mean, gap: slower - mean, rest: poolMs - slower, workers: w });
        }
      } finally {
        single.delete();
        layer.delete();
      }
      const m = (key) => median(rows.map((r) => r[key]));
      const balanced = median(rows.map((r) => r.poolMs - r.gap));
      const each = Array.from({ length: POOL_THREADS }, (_, i) => median(rows.map((r) => r.workers[i])).toFixed(0)).join('/');
      console.log(`${`${d_model}/${n_heads}/${n}`.padEnd(15)} ${(need_weights ? 'on' : 'off').padEnd(7)} ${f1(m('singleMs'))} ` +
        `${f1(m('poolMs'))} ${each.padStart(8)} ${f1(m('mean'))} ${f1(m('gap'))} ${f1(m('rest'))} ` +
        `${(m('singleMs') / m('poolMs')).toFixed(2).padStart(12)} ${(m('singleMs') / balanced).toFixed(2).padStart(18)}`);
    }
  }
} finally {
  await pool.close();
}
