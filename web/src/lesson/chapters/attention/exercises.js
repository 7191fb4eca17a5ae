// The exercises of the chapter “attention” (attention: scaled dot-product attention): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { word, list, wordsOf, sentenceOf, strongest, visible, shownHead, PATTERN_WORDS } from '../../exercises/helpers.js';
import { text } from './exercise_text.js';
import { MORE_EXERCISES } from './more_exercises.js';
import { SKETCH_EXERCISES } from './sketch_exercises.js';
import { DESIGN_EXERCISES } from './design_exercises.js';
import { STEP_EXERCISES } from './step_exercises.js';
import { otherCase } from '../../exercises/other_case.js';

export const EXERCISES = [
  {
    id: 'attention.causal-row', chapter: 'attention', kind: 'number', objective: 1,
    setup({ config: c }) {
      const i = Math.min(3, c.n_q - 1), labels = wordsOf(c, 'q');
      return {
        params: { i, n_q: c.n_q, n_k: c.n_k, labels, item: 0 },
        prompt: text('exercise.attention.with_causal_mask_this', { n_q: c.n_q, n_k: c.n_k, labels: word(labels, i) }),
        tolerance: {},
        calls: [{ op: 'maskGrid', args: { mask: 'causal', n_q: c.n_q, n_k: c.n_k } },
          { op: 'trace', args: { config: c, item: 0, head: 0, query_index: i, mask: 'causal' } }],
      };
    },
    reveal({ i, n_k }, [grid, trace]) {
      const seen = visible(grid, i, n_k);
      return {
        expected: seen.length,
        explanation: text('exercise.attention.causal_mask_lets_query', { i, length: seen.length }) +
          text('exercise.attention.head_1_their_weights', { value: list(seen.map((j) => trace.weights[j])) }) +
          text('exercise.attention.usual_mistakes_leaving_out'),
      };
    },
  },
  {
    id: 'attention.strongest-key', chapter: 'attention', kind: 'cell', objective: 1,
    setup({ state, config: c }) {
      const { head, pattern } = shownHead(state, c);
      const item = Math.min(c.item ?? 0, c.batch - 1), i = Math.min(2, c.n_q - 1);
      const labels_q = wordsOf(c, 'q', item), labels_k = wordsOf(c, 'k', item);
      return {
        params: { head, pattern, item, i, labels_k },
        prompt: text('exercise.attention.head_this_layer_which', { value: head + 1, part: PATTERN_WORDS[pattern] ?? pattern, labels_q: word(labels_q, i) }),
        grid: { rows: c.n_q, cols: c.n_k, row: i, labels_q, labels_k },
        calls: [{ op: 'trace', args: { config: c, item, head, query_index: i } }],
      };
    },
    reveal({ head, pattern, i, labels_k }, [trace]) {
      const best = strongest(trace.weights);
      return {
        expected: best[0], accept: best, weights: trace.weights,
        explanation: text('exercise.attention.core_s_row_query', { i, value: head + 1, value2: fmt.num(trace.weights[best[0]], 3), labels_k: word(labels_k, best[0]) }) +
          text('exercise.attention.whose_scaled_score_q', { part: best.length > 1 ? text('exercise.attention.tied_with', { keys: best.slice(1).map((j) => word(labels_k, j)).join(', ') }) : '', value: fmt.num(trace.logits[best[0]], 3) }) +
          (pattern === 'random' ? text('exercise.attention.this_head_random_no') : '') +
          text('exercise.attention.usual_mistake_expecting_query'),
      };
    },
  },
  {
    id: 'attention.uniform', chapter: 'attention', kind: 'number', objective: 1,
    setup({ state, config: c }) {
      const n = c.n_k;
      return {
        params: { n },
        prompt: text('exercise.attention.head_whose_w_all', { n }),
        tolerance: { abs: 0.001 },
        calls: [{ op: 'patternTrace', args: { d_model: c.d_model, n_heads: c.n_heads, pattern: 'uniform', words: sentenceOf(c, n), input_seed: Number(state.input_seed) || 1, query_index: 0 } }],
      };
    },
    reveal({ n }, [trace]) {
      return {
        expected: trace.weights[0],
        explanation: text('exercise.attention.core_s_row_every', { n, value: fmt.num(trace.weights[0], 5) }) +
          text('exercise.attention.usual_mistake_reading_score'),
      };
    },
  },
  {
    id: 'attention.cross-qkv', chapter: 'attention', kind: 'choice', objective: 1,
    setup({ config: c }) {
      const n_q = c.n_q, n_k = c.cross ? c.n_k : otherCase(c, { n_k: { from: 'n_q', plus: 3 } }).n_k;
      return {
        params: { n_q, n_k },
        prompt: text('exercise.attention.cross_attention_decoder_tokens', { n_q, n_k }),
        choices: [
          { key: 'q-decoder', label: text('exercise.attention.q_from_decoder_k') },
          { key: 'q-encoder', label: text('exercise.attention.q_from_encoder_k') },
          { key: 'all-decoder', label: text('exercise.attention.q_k_v_all') },
          { key: 'qk-encoder', label: text('exercise.attention.q_k_from_encoder') },
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
        explanation: text('exercise.attention.core_s_shapes_this', { q, k, v }) +
          text('exercise.attention.weights_are_each_decoder', { n_q, n_k }) +
          text('exercise.attention.usual_mistake_taking_k'),
      };
    },
  },
  ...MORE_EXERCISES,
  ...SKETCH_EXERCISES,
  ...DESIGN_EXERCISES,
  ...STEP_EXERCISES,
];
