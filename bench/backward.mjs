// Backward-pass benchmark: multi-head self-attention at d_model 768, n_heads 12, n 512 (batch 1),
// forward alone against mha.backward (which runs the forward pass and then the backward pass),
// SIMD module, one thread. The bar: forward + backward ≤ 3 × forward.
// Runs alone (`node bench/backward.mjs`, prints its section) and as a section of `npm run bench`.
import { fileURLToPath } from 'node:url';
import { makeInput, makeWeights } from './data.mjs';
import { loadOurs } from './ours_mha.mjs';
import { median, now } from './stats.mjs';

export const BACKWARD_BAR = 3;

/**
 * Times forward (new arrays, and into reused arrays) and backward, alternated, after a warm-up.
 * Returns { dims, runs, forwardMs, forwardIntoMs, backwardMs, ratio, ratioInto } (medians in ms).
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
    const into = { output: new Float32Array(n * d_model) };
    // The backward's output is the forward's (the whole-row path it shares with need_weights):
    // checked before anything is timed.
    const check = mha.backward({ ...args, grad_output }).output;
    const fwd = mha.forward({ ...args, need_weights: true }).output;
    if (!check.every((x, i) => x === fwd[i])) throw new Error('the output of backward differs from that of forward');
    for (let i = 0; i < 3; i++) { // warm-up: V8 tiers the wasm up over the first calls
      mha.forward(args);
      mha.forward({ ...args, into });
      mha.backward({ ...args, grad_output });
    }
    const times = { forward: [], forwardInto: [], backward: [] };
    const time = (list, f) => {
      const t0 = now();
      f();
      list.push(now() - t0);
    };
    for (let r = 0; r < runs; r++) {
      time(times.forward, () => mha.forward(args));
      time(times.forwardInto, () => mha.forward({ ...args, into }));
      time(times.backward, () => mha.backward({ ...args, grad_output }));
    }
    const forwardMs = median(times.forward), forwardIntoMs = median(times.forwardInto), backwardMs = median(times.backward);
    return { dims, runs, forwardMs, forwardIntoMs, backwardMs, ratio: backwardMs / forwardMs, ratioInto: backwardMs / forwardIntoMs };
  } finally {
    mha.delete();
  }
}

/** The report section for one measurement. */
export function renderBackward(b, note = '') {
  const f = (x, digits) => x.toFixed(digits);
  const { d_model, n_heads, n } = b.dims;
  return [
    `## Backward pass: d_model = ${d_model}, n_heads = ${n_heads}, n = ${n}`, '',
    `\`mha.backward\` (the forward pass and the gradients of every weight, bias and input, all returned as new ` +
      `arrays) against \`mha.forward\`, SIMD module, self-attention, batch 1, median of ${b.runs} alternated runs ` +
      `after warm-up (bench/backward.mjs).${note}`, '',
    '| call | ms (median) | ÷ forward |',
    '| --- | ---: | ---: |',
    `| forward (new arrays) | ${f(b.forwardMs, 1)} | 1.00 |`,
    `| forward (into) | ${f(b.forwardIntoMs, 1)} | ${f(b.forwardIntoMs / b.forwardMs, 2)} |`,
    `| forward + backward | ${f(b.backwardMs, 1)} | **${f(b.ratio, 2)}** |`, '',
    `Forward + backward ÷ forward: **${f(b.ratio, 2)}** (${f(b.ratioInto, 2)} against forward into reused arrays); ` +
      `the bar is ≤ ${BACKWARD_BAR}: ${b.ratio <= BACKWARD_BAR ? 'met' : '**not met**'}.`, '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  measureBackward().then((b) => process.stdout.write(renderBackward(b)), (e) => {
    process.stderr.write(`bench/backward.mjs FAILED: ${e.message}\n`);
    process.exit(1);
  });
}
