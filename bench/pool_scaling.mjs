// `node bench/pool_scaling.mjs`: the ceiling a pool of 2 workers can reach on this machine, with no
// pool at all. Two worker_threads each hold the whole single-threaded layer; each forward pass
// (into reused arrays: no page faults, no messages but a tiny one) is timed alone in one worker,
// then in both at once. 2 × alone ÷ at-once is the machine's own 2-thread scaling for that work:
// shared caches, memory bandwidth, and whatever else runs on the machine. The pool's speed-up over
// one thread cannot exceed it. A pool's pass also waits for the slower of its workers, so the
// second figure, 2 × alone ÷ the slower of the two, is the ceiling for a pass that ends when both
// have: the gap between the two is what the machine's second-to-second noise costs a split pass.
// POOL_SCALING_SIZES=768x12x512[,...] picks sizes (need_weights off, then on); POOL_SCALING_REPS=k
// sets the timed passes per case (default 7).
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { median } from './stats.mjs';
import { measuringScript } from '../scripts/cli.mjs';

const SIZES = process.env.POOL_SCALING_SIZES?.split(',').map((s) => s.split('x').map(Number)) ??
  [[768, 12, 512], [768, 12, 2048], [1024, 16, 1024]];
const REPS = Number(process.env.POOL_SCALING_REPS ?? 7);

if (isMainThread) {
  measuringScript({
    seconds: 900,
    usage: `usage: node bench/pool_scaling.mjs [--timeout S]
  POOL_SCALING_SIZES=768x12x512[,...], POOL_SCALING_REPS=k (default 7)`,
  });
  for (const need_weights of [false, true]) {
    for (const [d_model, n_heads, n] of SIZES) {
      const start = () => new Worker(new URL(import.meta.url), { workerData: { d_model, n_heads, n, need_weights } });
      const workers = [start(), start()];
      const reply = (w) => new Promise((resolve, reject) => {
        const failed = (e) => {
          w.off('message', replied);
          reject(e);
        };
        const replied = (value) => {
          w.off('error', failed);
          resolve(value);
        };
        w.once('message', replied);
        w.once('error', failed);
      });
      const run = (w) => {
        const r = reply(w);
        w.postMessage('run');
        return r;
      };
      await Promise.all(workers.map(reply)); // loaded and warmed up
      const alone = [], together = [], slower = [];
      for (let i = 0; i < REPS; i++) { // alternated, so drift hits both alike
        alone.push(await run(workers[i % 2]));
        const both = await Promise.all(workers.map(run));
        together.push((both[0] + both[1]) / 2);
        slower.push(Math.max(both[0], both[1]));
      }
      const a = median(alone), t = median(together), m = median(slower);
      console.log(`${d_model}/${n_heads}/${n} need_weights ${need_weights ? 'on ' : 'off'}: alone ${a.toFixed(1)} ms, ` +
        `both at once ${t.toFixed(1)} ms each → 2-thread scaling ${(2 * a / t).toFixed(2)}; ` +
        `the slower of the two ${m.toFixed(1)} ms → ${(2 * a / m).toFixed(2)}`);
      await Promise.all(workers.map((w) => w.terminate()));
    }
  }
} else {
  const { loadAttention } = await import('../web/src/engine/attention.js');
  const { makeInput, makeWeights } = await import('./data.mjs');
  const { d_model, n_heads, n, need_weights } = workerData;
  const dims = { d_model, n_heads, d_k: d_model / n_heads, d_v: d_model / n_heads, batch: 1, n };
  const attn = await loadAttention({ simd: true });
  const mha = new attn.MultiHeadAttention({ d_model, n_heads, bias: true });
  mha.setWeights(makeWeights(dims));
  const query = makeInput(dims);
  const into = { output: new Float32Array(n * d_model) };
  if (need_weights) into.weights = new Float32Array(n_heads * n * n);
  const forward = () => mha.forward({ query, n_q: n, need_weights, into });
  for (let i = 0; i < 3; i++) forward();
  parentPort.postMessage('ready');
  parentPort.on('message', () => {
    const t0 = performance.now();
    forward();
    parentPort.postMessage(performance.now() - t0);
  });
}
