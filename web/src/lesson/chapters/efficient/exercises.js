// The exercises of the chapter “efficient” (efficient: memory and work as n grows): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { visible } from '../../exercises/helpers.js';

export const EXERCISES = [
  {
    id: 'efficient.memory-double', chapter: 'efficient', kind: 'number',
    setup({ config: c }) {
      const n = c.n_q;
      return {
        params: { n },
        prompt: `This layer's attention weights (batch ${c.batch}, ${c.n_heads} heads, float32) at n = ${fmt.int(n)} queries and keys. How many bytes do they take at n = ${fmt.int(2 * n)}?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n, need_weights: true } },
          { op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n: 2 * n, need_weights: true } }],
      };
    },
    reveal({ n }, [a, b]) {
      return {
        expected: b.attention_weight_bytes,
        explanation: `The core: ${fmt.bytes(a.attention_weight_bytes)} at n = ${fmt.int(n)}, ${fmt.bytes(b.attention_weight_bytes)} at n = ${fmt.int(2 * n)}. ` +
          'Each matrix is n×n, so doubling n makes it four times larger. Usual mistake: doubling the bytes; that is what K, V and the output do, not the attention matrix.',
      };
    },
  },
  {
    id: 'efficient.weights-off', chapter: 'efficient', kind: 'number',
    setup({ config: c }) {
      const n = Math.max(c.n_q, 1024);
      return {
        params: { n },
        prompt: `At n = ${fmt.int(n)} with need_weights off (the engine streams over keys), how many bytes does one pass of this layer hold for the n×n attention weights?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n, need_weights: false } },
          { op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n, need_weights: true } }],
      };
    },
    reveal({ n }, [off, on]) {
      return {
        expected: off.memory.weights,
        explanation: `The core's memory plan: ${fmt.bytes(off.memory.weights)} for the weights with need_weights off (pass total ${fmt.bytes(off.memory.total)}), ` +
          `against ${fmt.bytes(on.memory.weights)} with it on (total ${fmt.bytes(on.memory.total)}). It takes a few rows of scores at a time and keeps a running softmax, so no n×n matrix exists. ` +
          'Usual mistake: thinking attention must materialise the whole matrix; only returning it does.',
      };
    },
  },
  {
    id: 'efficient.flash-same', chapter: 'efficient', kind: 'choice',
    setup({ config: c }) {
      const n = Math.min(c.n_q, 256), d_k = Math.min(c.d_k, 256); // the core runs both on random inputs: kept small
      return {
        params: { n, d_k },
        prompt: `FlashAttention never holds the ${n}×${n} matrix: it takes the keys in blocks of 4 and keeps a running softmax (a running maximum, sum and output). Compared with standard attention on the same q, k and v (d_k = ${d_k}), its output is:`,
        choices: [
          { key: 'same', label: 'The same, up to float rounding' },
          { key: 'approx', label: 'An approximation that gets better with larger blocks' },
          { key: 'top', label: 'The output of the largest weights only' },
        ],
        calls: [{ op: 'flashVsStandard', args: { n, d_k, block: 4, seed: 1 } }],
      };
    },
    reveal({ n }, [f]) {
      return {
        expected: f.max_difference < 1e-4 ? 'same' : 'approx',
        explanation: `The core ran both on the same random inputs: ${f.key_blocks} key blocks per query block, and the outputs differ by at most ${fmt.num(f.max_difference, 9)}. ` +
          'Each new block rescales what was summed so far by e^(m_old − m_new), so after the last block the result is exactly softmax(S)·V; only the order of the work changed. ' +
          'Usual mistake: taking FlashAttention for an approximation, like sparse or linear attention; it saves memory traffic, not accuracy.',
      };
    },
  },
  {
    id: 'efficient.linear-crossover', chapter: 'efficient', kind: 'choice',
    setup({ config: c }) {
      return {
        params: { n: c.n_q, d_k: c.d_k, d_v: c.d_v },
        prompt: `Linear attention (φ(q)ᵀ·Σ φ(k)·vᵀ) costs about n·d_k·d_v, softmax attention about n²·d. For n = ${fmt.int(c.n_q)}, d_k = ${c.d_k} and d_v = ${c.d_v}, which needs fewer FLOPs?`,
        choices: [
          { key: 'linear', label: 'Linear attention' },
          { key: 'softmax', label: 'Softmax attention' },
        ],
        calls: [{ op: 'linearAttentionCost', args: { n: c.n_q, d_k: c.d_k, d_v: c.d_v } }],
      };
    },
    reveal({ n }, [cost]) {
      return {
        expected: cost.linear.total < cost.softmax.total ? 'linear' : 'softmax',
        explanation: `The core counts ${fmt.int(cost.softmax.total)} FLOPs for softmax attention and ${fmt.int(cost.linear.total)} for linear attention at n = ${fmt.int(n)}; ` +
          `linear attention wins from n = ${fmt.int(cost.crossover_n)} on. Usual mistake: taking linear attention as always cheaper; below about n = d it is not, and its output is not softmax attention's either.`,
      };
    },
  },
  {
    id: 'efficient.kv-step', chapter: 'efficient', kind: 'number',
    setup({ config: c }) {
      const t = c.n_q;
      return {
        params: { t },
        prompt: `Decoding with a K/V cache: ${t} tokens are cached, and a new token arrives. Its query attends to how many keys?`,
        tolerance: {},
        calls: [{ op: 'maskGrid', args: { mask: 'causal', n_q: t + 1, n_k: t + 1 } },
          { op: 'decodeCost', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, t: t + 1 } }],
      };
    },
    reveal({ t }, [grid, cost]) {
      const seen = visible(grid, t, t + 1);
      return {
        expected: seen.length,
        explanation: `The new token is row ${t} of a causal mask over ${t + 1} positions; the core's grid leaves ${seen.length} keys visible: the ${t} cached ones and its own. ` +
          `The earlier rows are not computed again: the core counts ${fmt.int(cost.step_flops)} FLOPs for this step against ${fmt.int(cost.recompute_flops)} to recompute the prefix ` +
          `(${fmt.num(cost.speedup, 1)}× less), and the cache holds ${fmt.bytes(cost.cache_bytes)}. Usual mistake: leaving out the new token's own key, or recomputing the whole prefix.`,
      };
    },
  },
];
