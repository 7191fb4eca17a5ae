// The exercises of the chapter “heads” (heads: multi-head attention): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { shape, word, sentenceOf, analyzeArgs, strongest } from '../../exercises/helpers.js';

export const EXERCISES = [
  {
    id: 'heads.d_k', chapter: 'heads', kind: 'number',
    setup({ state, config: c }) {
      const live = state.d_k === '' && state.d_v === '';
      const d_model = live ? c.d_model : 1024, n_heads = live ? c.n_heads : 16;
      return {
        params: { d_model, n_heads },
        prompt: `d_model = ${fmt.int(d_model)} and h = ${n_heads} heads, with d_k left to its default. What is d_k?`,
        tolerance: {},
        calls: [{ op: 'resolveView', args: { d_model, n_heads, n_q: 1 } }],
      };
    },
    reveal({ d_model, n_heads }, [view]) {
      const d_k = view.dims.d_k;
      return {
        expected: d_k,
        explanation: `The core resolves d_k = ${d_k}: the ${n_heads} heads split the model's width, and ${n_heads} heads of ${d_k} columns fill d_model = ${fmt.int(d_model)} again when concatenated. ` +
          'Usual mistake: giving each head the full d_model, which would multiply the parameters and FLOPs by h.',
      };
    },
  },
  {
    id: 'heads.concat-shape', chapter: 'heads', kind: 'shape',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `This layer: batch ${c.batch}, n_q = ${c.n_q}, ${c.n_heads} heads of d_v = ${c.d_v}. What is the shape of Concat(head_1, …, head_h), as batch × n_q × width?`,
        calls: [{ op: 'analyze', args: analyzeArgs(c) }],
      };
    },
    reveal(_, [a]) {
      const concat = a.shapes.find((s) => s.name.startsWith('Concat')), heads = a.shapes.find((s) => s.name.startsWith('head_i'));
      return {
        expected: concat.dims,
        explanation: `The core's shape trace: the heads are ${shape(heads.dims)} (batch × h × n_q × d_v) and Concat is ${shape(concat.dims)}: ` +
          'the heads are laid side by side along the feature axis, which Wᴼ then maps back to d_model. Usual mistake: stacking the heads as a new axis of length h.',
      };
    },
  },
  {
    id: 'heads.previous-token', chapter: 'heads', kind: 'cell',
    setup({ state, config: c }) {
      const n = c.n_q, i = Math.min(3, n - 1), words = sentenceOf(c, n);
      return {
        params: { i, words },
        prompt: `A head is built to look at the previous token (on this sentence). Which key will query ${word(words, i)} attend to most?`,
        grid: { rows: n, cols: n, row: i, labels_q: words, labels_k: words },
        calls: [{ op: 'patternTrace', args: { d_model: c.d_model, n_heads: c.n_heads, pattern: 'previous', words, input_seed: Number(state.input_seed) || 1, query_index: i } }],
      };
    },
    reveal({ i, words }, [trace]) {
      const best = strongest(trace.weights);
      return {
        expected: best[0], accept: best, weights: trace.weights,
        explanation: `The core's row for query ${i}: ${fmt.num(trace.weights[best[0]], 3)} of the weight is on key ${word(words, best[0])}. ` +
          'A previous-token head matches each query with the key one position back, whatever the words are. Usual mistakes: picking the query itself, or the next token (attention has no direction of its own; the head was built to look back).',
      };
    },
  },
];
