// Backward-pass benchmark: multi-head self-attention at d_model 768, n_heads 12, n 512 (batch 1),
// forward alone against mha.backward (which runs the forward pass and then the backward pass),
// SIMD module, one thread. The bar: forward + backward ≤ 3 × forward.
// Runs alone (`node bench/backward.mjs`, prints its section) and as a section of `npm run bench`.
import { fileURLToPath } from 'node:url';
import { makeInput, makeWeights } from './data.mjs';
import { loadOurs } from './ours_mha.mjs';
import { median, now } from './stats.mjs';
import { measuringScript } from '../scripts/cli.mjs';

export const BACKWARD_BAR = 3;

// CPU time of this process in ms: on a machine shared with other work it counts only the time
// this process ran, which wall time does not.
function cpuMs() {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/**
 * Times forward and backward, alternated after a warm-up, both with new result arrays (the API's
 * default) and both writing into arrays made once (`into`). Returns medians in ms, wall and CPU:
 * { dims, runs, wall: { forward, backward, forwardInto, backwardInto }, cpu: { ... } }.
 */
export async function measureBackward({ d_model = 768, n_heads = 12, n = 512, runs = 15, attn } = {}) {
  attn ??= await loadOurs({ simd: true });
  const d_k = d_model / n_heads, dims = { d_model, n_heads, d_k, d_v: d_k, batch: 1, n };
  const mha = new attn.MultiHeadAttention({ d_model, n_heads, bias: true, seed: 1 });
  try {
    mha.setWeights(makeWeights(dims));
    const query = makeInput({ batch: 1, n, d_model });
    const grad_output = makeInput({ batch: 1, n, d_model }, 3);
    const args = { query, n_q: n };
    // The backward's output is the forward's (the whole-row path it shares with need_weights):
    // checked before anything is timed. Its results give the sizes of the `into` arrays.
    const first = mha.backward({ ...args, grad_output });
    const fwd = mha.forward({ ...args, need_weights: true }).output;
    if (!first.output.every((x, i) => x === fwd[i])) throw new Error('the output of backward differs from that of forward');
    const forwardInto = { output: new Float32Array(first.output.length) };
    const backwardInto = { output: new Float32Array(first.output.length), grads: {} };
    for (const [name, g] of Object.entries(first.grads)) if (g) backwardInto.grads[name] = new Float32Array(g.length);

    const calls = {
      forward: () => mha.forward(args),
      backward: () => mha.backward({ ...args, grad_output }),
      forwardInto: () => mha.forward({ ...args, into: forwardInto }),
      backwardInto: () => mha.backward({ ...args, grad_output, into: backwardInto }),
    };
    for (let i = 0; i < 3; i++) for (const call of Object.values(calls)) call(); // V8 tiers the wasm up first
    const wall = {}, cpu = {};
    for (const name of Object.keys(calls)) [wall[name], cpu[name]] = [[], []];
    for (let r = 0; r < runs; r++) {
      for (const [name, call] of Object.entries(calls)) {
        const c0 = cpuMs(), t0 = now();
        call();
        wall[name].push(now() - t0);
        cpu[name].push(cpuMs() - c0);
      }
    }
    const medians = (times) => Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)]));
    return { dims, runs, wall: medians(wall), cpu: medians(cpu) };
  } finally {
    mha.delete();
  }
}

/** The report section for one measurement. */
export function renderBackward(b, note = '') {
  const f = (x, digits) => x.toFixed(digits);
  const { d_model, n_heads, n } = b.dims;
  const row = (what, fwd, bwd) => `| ${what} | ${f(b.wall[fwd], 1)} | ${f(b.wall[bwd], 1)} | **${f(b.wall[bwd] / b.wall[fwd], 2)}** | ` +
    `${f(b.cpu[fwd], 1)} | ${f(b.cpu[bwd], 1)} | **${f(b.cpu[bwd] / b.cpu[fwd], 2)}** |`;
  const ratio = b.wall.backward / b.wall.forward;
  return [
    `## Backward pass: d_model = ${d_model}, n_heads = ${n_heads}, n = ${n}`, '',
    '`mha.backward` (the forward pass, then the gradients of every weight, bias and input) against `mha.forward`, ' +
      `SIMD module, self-attention, batch 1, medians of ${b.runs} alternated runs after warm-up (bench/backward.mjs). ` +
      'Both calls return new arrays (the default), or both write into arrays made once (`into`). CPU time counts only ' +
      `the time this process ran, so it is the steadier figure on a machine busy with other work.${note}`, '',
    '| results | forward ms | forward + backward ms | ratio | forward CPU ms | forward + backward CPU ms | CPU ratio |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    row('new arrays', 'forward', 'backward'),
    row('into', 'forwardInto', 'backwardInto'), '',
    `Forward + backward ÷ forward with new arrays: **${f(ratio, 2)}**; the bar is ≤ ${BACKWARD_BAR}: ` +
      `${ratio <= BACKWARD_BAR ? 'met' : '**not met**'}.`, '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  measuringScript({ seconds: 600, usage: 'usage: node bench/backward.mjs [--timeout S]   (its section of bench/results.md, on stdout)' });
  measureBackward().then((b) => process.stdout.write(renderBackward(b)), (e) => {
    process.stderr.write(`bench/backward.mjs FAILED: ${e.message}\n`);
    process.exit(1);
  });
}
