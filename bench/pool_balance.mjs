// `node bench/pool_balance.mjs`: where a split pass of the worker pool spends its time, against our
// single thread in the same process. Each pass of the pool ends when its slower worker replies, so
// its time is: the mean of the workers' engine times (the work itself, halved), plus the gap from
// that mean to the slower worker (the two groups have the same heads here, so the gap is the two
// cores running at different speeds during the pass), plus the rest (copies, messages, summing the
// partial outputs, placing the attention weights). Both write into arrays reused across passes
// (`into`), so no pass takes page faults for new result arrays. Single thread and pool are
// alternated (each goes first every other time), with a full GC and a 50 ms pause before every
// timed pass, as in `npm run bench`. POOL_BALANCE_SIZES=768x12x512[,...], POOL_BALANCE_WEIGHTS=on|off
// and POOL_BALANCE_REPS=k (default 15) pick the cases.
import { makeInput, makeWeights } from './data.mjs';
import { loadOurs } from './ours_mha.mjs';
import { startPool } from './pool_mha.mjs';
import { median, now } from './stats.mjs';
import { POOL_THREADS } from './systems.mjs';
import { settle } from './settle.mjs';
import { measuringScript } from '../scripts/cli.mjs';

measuringScript({
  seconds: 1200,
  usage: `usage: node bench/pool_balance.mjs [--timeout S]
  POOL_BALANCE_SIZES=768x12x512[,...], POOL_BALANCE_WEIGHTS=on|off, POOL_BALANCE_REPS=k (default 15)`,
});
const SIZES = process.env.POOL_BALANCE_SIZES?.split(',').map((s) => s.split('x').map(Number)) ??
  [[768, 12, 512], [768, 12, 2048], [1024, 16, 1024]];
const WEIGHTS = { on: [true], off: [false] }[process.env.POOL_BALANCE_WEIGHTS] ?? [false, true];
const REPS = Number(process.env.POOL_BALANCE_REPS ?? 15);
const WARMUP = 2;
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
      const into = { output: new Float32Array(n * d_model) };
      if (need_weights) into.weights = new Float32Array(n_heads * n * n);
      const input = { query, batch: 1, n_q: n, need_weights, into };
      const single = new attn.MultiHeadAttention(config);
      single.setWeights(weights);
      const layer = await pool.layer(config);
      await layer.setWeights(weights);
      await layer.sendWeights();
      const rows = [];
      try {
        const time = async (pass) => {
          await settle();
          const t0 = now();
          await pass();
          return now() - t0;
        };
        for (let rep = 0; rep < WARMUP + REPS; rep++) {
          let singleMs, poolMs;
          if (rep % 2 === 0) {
            singleMs = await time(() => single.forward(input));
            poolMs = await time(() => layer.forward(input));
          } else {
            poolMs = await time(() => layer.forward(input));
            singleMs = await time(() => single.forward(input));
          }
          if (layer.lastWorkers !== POOL_THREADS) throw new Error(`the pass used ${layer.lastWorkers} workers, not ${POOL_THREADS}`);
          if (rep < WARMUP) continue;
          const engineMs = layer.lastWorkerMs, mean = engineMs.reduce((a, b) => a + b, 0) / engineMs.length, slower = Math.max(...engineMs);
          rows.push({ singleMs, poolMs, mean, gap: slower - mean, rest: poolMs - slower, workers: engineMs });
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
