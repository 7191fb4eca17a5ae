// The exercises of the chapter “attention” (attention: scaled dot-product attention): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { word, list, wordsOf, sentenceOf, strongest, visible, shownHead, PATTERN_WORDS } from '../../exercises/helpers.js';

export const EXERCISES = [
  {
    id: 'attention.causal-row', chapter: 'attention', kind: 'number',
    setup({ config: c }) {
      const i = Math.min(3, c.n_q - 1), labels = wordsOf(c, 'q');
      return {
        params: { i, n_q: c.n_q, n_k: c.n_k, labels, item: 0 },
        prompt: `With a causal mask on this layer (${c.n_q} queries, ${c.n_k} keys), how many keys can query ${word(labels, i)} give a non-zero weight to?`,
        tolerance: {},
        calls: [{ op: 'maskGrid', args: { mask: 'causal', n_q: c.n_q, n_k: c.n_k } },
          { op: 'trace', args: { config: c, item: 0, head: 0, query_index: i, mask: 'causal' } }],
      };
    },
    reveal({ i, n_k }, [grid, trace]) {
      const seen = visible(grid, i, n_k);
      return {
        expected: seen.length,
        explanation: `A causal mask lets query ${i} see keys 0…${i}: ${seen.length} keys, its own position included. The core sets the later keys' scores to −∞ before the softmax, ` +
          `so in head 1 their weights are exactly 0 and the visible ones (${list(seen.map((j) => trace.weights[j]))}) still add up to 1. ` +
          'Usual mistakes: leaving out the query itself (j ≤ i, not j < i), or thinking the mask zeroes weights after the softmax, which would leave a row summing to less than 1.',
      };
    },
  },
  {
    id: 'attention.strongest-key', chapter: 'attention', kind: 'cell',
    setup({ state, config: c }) {
      const { head, pattern } = shownHead(state, c);
      const item = Math.min(c.item ?? 0, c.batch - 1), i = Math.min(2, c.n_q - 1);
      const labels_q = wordsOf(c, 'q', item), labels_k = wordsOf(c, 'k', item);
      return {
        params: { head, pattern, item, i, labels_k },
        prompt: `Head ${head + 1} of this layer is ${PATTERN_WORDS[pattern] ?? pattern}. Which key will query ${word(labels_q, i)} attend to most? Pick the cell in its row.`,
        grid: { rows: c.n_q, cols: c.n_k, row: i, labels_q, labels_k },
        calls: [{ op: 'trace', args: { config: c, item, head, query_index: i } }],
      };
    },
    reveal({ head, pattern, i, labels_k }, [trace]) {
      const best = strongest(trace.weights);
      return {
        expected: best[0], accept: best, weights: trace.weights,
        explanation: `The core's row for query ${i} in head ${head + 1}: the largest weight, ${fmt.num(trace.weights[best[0]], 3)}, is on key ${word(labels_k, best[0])}` +
          `${best.length > 1 ? ` (tied with ${best.slice(1).map((j) => word(labels_k, j)).join(', ')})` : ''}, whose scaled score q·k/√d_k = ${fmt.num(trace.logits[best[0]], 3)} is the row's highest. ` +
          (pattern === 'random' ? 'This head is random, so no rule predicts it: only the scores do. ' : '') +
          'Usual mistake: expecting a query to attend most to itself or to a word that looks related; the weight follows q·k, which the learnt (or built) Wᴽ and Wᴷ decide.',
      };
    },
  },
  {
    id: 'attention.uniform', chapter: 'attention', kind: 'number',
    setup({ state, config: c }) {
      const n = c.n_k;
      return {
        params: { n },
        prompt: `A head whose Wᴽ is all zeros gives every score of a row the same value, 0. With ${n} keys and no mask, what weight does each key get?`,
        tolerance: { abs: 0.001 },
        calls: [{ op: 'patternTrace', args: { d_model: c.d_model, n_heads: c.n_heads, pattern: 'uniform', words: sentenceOf(c, n), input_seed: Number(state.input_seed) || 1, query_index: 0 } }],
      };
    },
    reveal({ n }, [trace]) {
      return {
        expected: trace.weights[0],
        explanation: `The core's row: every one of the ${n} weights is ${fmt.num(trace.weights[0], 5)}. A score of 0 becomes e⁰ = 1 before the normalisation, so equal scores share the weight equally. ` +
          'Usual mistake: reading a score of 0 as a weight of 0; only a score of −∞ (a mask) gives a weight of 0.',
      };
    },
  },
  {
    id: 'attention.cross-qkv', chapter: 'attention', kind: 'choice',
    setup({ config: c }) {
      const n_q = c.n_q, n_k = c.cross ? c.n_k : c.n_q + 3;
      return {
        params: { n_q, n_k },
        prompt: `In cross-attention (a decoder of ${n_q} tokens reading an encoder's output of ${n_k} tokens), where do Q, K and V come from?`,
        choices: [
          { key: 'q-decoder', label: 'Q from the decoder; K and V from the encoder' },
          { key: 'q-encoder', label: 'Q from the encoder; K and V from the decoder' },
          { key: 'all-decoder', label: 'Q, K and V all from the decoder' },
          { key: 'qk-encoder', label: 'Q and K from the encoder; V from the decoder' },
        ],
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, attention: 'cross', n_q, n_k } }],
      };
    },
    reveal({ n_q, n_k }, [a]) {
      const rows = (name) => a.shapes.find((s) => s.name.startsWith(name)).dims[1];
      const q = rows('query input'), k = rows('key input'), v = rows('value input');
      const fromDecoder = q === n_q && k === n_k && v === n_k;
      return {
        expected: fromDecoder ? 'q-decoder' : 'all-decoder',
        explanation: `The core's shapes for this cross-attention: the query input has ${q} rows (the decoder's tokens), the key and value inputs ${k} and ${v} rows (the encoder's), ` +
          `so the weights are ${n_q}×${n_k}: each decoder position asks the whole source. ` +
          'Usual mistake: taking K from the decoder because K and Q are multiplied together; K and V always come from the sequence being read.',
      };
    },
  },
];
