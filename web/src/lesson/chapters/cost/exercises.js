// The exercises of the chapter “cost” (cost: parameters, FLOPs, memory): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { shape, analyzeArgs } from '../../exercises/helpers.js';

export const EXERCISES = [
  {
    id: 'cost.params-nobias', chapter: 'cost', kind: 'number',
    setup({ config: c }) {
      return {
        params: { d_model: c.d_model, n_heads: c.n_heads },
        prompt: `How many parameters does this layer have without biases (d_model = ${fmt.int(c.d_model)}, ${c.n_heads} heads, d_k = ${c.d_k}, d_v = ${c.d_v}, one key/value head per query head)?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: false, n: 1 } }],
      };
    },
    reveal({ n_heads }, [a]) {
      const p = a.params;
      return {
        expected: p.total,
        explanation: `The core counts Wᴽ ${fmt.int(p.w_q)}, Wᴷ ${fmt.int(p.w_k)}, Wⱽ ${fmt.int(p.w_v)} and Wᴼ ${fmt.int(p.w_o)}: ${fmt.int(p.total)} in all (4·d_model² when d_k = d_v = d_model/h). ` +
          `Usual mistake: multiplying by the ${n_heads} heads; each head has only a d_model×d_k slice, so the heads share out the same parameters.`,
      };
    },
  },
  {
    id: 'cost.params-bias', chapter: 'cost', kind: 'number',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `The same layer with biases (d_model = ${fmt.int(c.d_model)}, ${c.n_heads} heads, d_k = ${c.d_k}, d_v = ${c.d_v}): how many parameters?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: true, n: 1 } }],
      };
    },
    reveal(_, [a]) {
      const p = a.params;
      return {
        expected: p.total,
        explanation: `The core: ${fmt.int(p.weights)} weights plus ${fmt.int(p.biases)} biases (bᴽ ${fmt.int(p.b_q)}, bᴷ ${fmt.int(p.b_k)}, bⱽ ${fmt.int(p.b_v)}, bᴼ ${fmt.int(p.b_o)}) = ${fmt.int(p.total)}. ` +
          'Usual mistake: counting a bias per weight; a bias is one vector per output, so the biases add 4·d_model, not 4·d_model².',
      };
    },
  },
  {
    id: 'cost.dominant', chapter: 'cost', kind: 'choice',
    setup({ config: c }) {
      return {
        params: { n: c.n_q, d: c.d_model },
        prompt: `For n = ${fmt.int(c.n_q)} tokens and d = ${fmt.int(c.d_model)}, which term dominates the lesson's FLOP count of one attention layer?`,
        choices: [
          { key: 'projections', label: 'The projections (about n·d²)' },
          { key: 'attention', label: 'The attention matrix: scores and weighted sum (about n²·d)' },
          { key: 'softmax', label: 'The softmax (about n²)' },
        ],
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, n: c.n_q } }],
      };
    },
    reveal(_, [a]) {
      const f = a.flops, l = f.lesson;
      return {
        expected: f.projections_dominate_lesson ? 'projections' : 'attention',
        explanation: `The core's count: projections ${fmt.short(l.projections)}, scores ${fmt.short(l.scores)}, weighted sum ${fmt.short(l.weighted_sum)}, softmax ${fmt.short(l.softmax)}. ${f.dominant_reason}. ` +
          'Usual mistake: assuming attention is always the expensive part; it is quadratic in n, but below n = d the projections cost more.',
      };
    },
  },
  {
    id: 'cost.attention-shape', chapter: 'cost', kind: 'shape',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `One pass of this layer with batch ${c.batch}, ${c.n_heads} heads, ${c.n_q} queries and ${c.n_k} keys: what is the shape of all its attention weights A, as batch × heads × n_q × n_k?`,
        calls: [{ op: 'analyze', args: analyzeArgs(c) }],
      };
    },
    reveal(_, [a]) {
      const A = a.shapes.find((s) => s.name.startsWith('A_i')).dims;
      return {
        expected: A,
        explanation: `The core's shape trace: A is ${shape(A)}, one ${A[2]}×${A[3]} matrix for each of the ${A[1]} heads of each of the ${A[0]} batch items. ` +
          'Usual mistake: counting one matrix per layer; every head of every batch item has its own.',
      };
    },
  },
  {
    id: 'cost.attention-bytes', chapter: 'cost', kind: 'number',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `How many bytes do all the attention weights of that pass take in float32 (batch ${c.batch}, ${c.n_heads} heads, ${c.n_q}×${c.n_k} each)?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: analyzeArgs(c) }],
      };
    },
    reveal(_, [a]) {
      const A = a.shapes.find((s) => s.name.startsWith('A_i')).dims;
      return {
        expected: a.attention_weight_bytes,
        explanation: `The core: ${shape(A)} weights of 4 bytes each = ${fmt.bytes(a.attention_weight_bytes)}. (The lesson's P4: 8 heads × 32 items of 128×128 = 16.8 MB.) ` +
          'Usual mistakes: forgetting the batch or the heads, or counting one byte per weight.',
      };
    },
  },
];
