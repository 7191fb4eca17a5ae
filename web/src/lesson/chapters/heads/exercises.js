// The exercises of the chapter “heads” (heads: multi-head attention): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { shape, word, sentenceOf, analyzeArgs, strongest } from '../../exercises/helpers.js';
import { text } from './exercise_text.js';
import { MORE_EXERCISES } from './more_exercises.js';
import { SKETCH_EXERCISES } from './sketch_exercises.js';
import { otherCase } from '../../exercises/other_case.js';

export const EXERCISES = [
  {
    id: 'heads.d_k', chapter: 'heads', kind: 'number', objective: 2,
    setup({ state, config: c }) {
      // Not the live layer (the chapter writes its d_k out): twice the live d_model with the live heads.
      const { d_model, n_heads } = otherCase(c, { d_model: { times: 2 } });
      return {
        params: { d_model, n_heads },
        prompt: text('exercise.heads.d_model_h_heads', { d_model: fmt.int(d_model), n_heads }),
        tolerance: {},
        calls: [{ op: 'resolveView', args: { d_model, n_heads, n_q: 1 } }],
      };
    },
    reveal({ d_model, n_heads }, [view]) {
      const d_k = view.dims.d_k;
      return {
        expected: d_k,
        explanation: text('exercise.heads.core_resolves_d_k', { d_k, n_heads, d_model: fmt.int(d_model) }) +
          text('exercise.heads.usual_mistake_giving_each'),
      };
    },
  },
  {
    id: 'heads.concat-shape', chapter: 'heads', kind: 'shape', objective: 1,
    setup({ config: c }) {
      // A batch other than the live one: the derivation on screen shows this layer's Concat for one batch item.
      const batch = c.batch === 4 ? 8 : 4;
      return {
        params: {},
        prompt: text('exercise.heads.this_layer_batch_n', { batch, n_q: c.n_q, n_heads: c.n_heads, d_v: c.d_v }),
        calls: [{ op: 'analyze', args: analyzeArgs(c, { batch }) }],
      };
    },
    reveal(_, [a]) {
      const concat = a.shapes.find((s) => s.name.startsWith('Concat')), heads = a.shapes.find((s) => s.name.startsWith('head_i'));
      return {
        expected: concat.dims,
        explanation: text('exercise.heads.core_s_shape_trace', { dims: shape(heads.dims), dims2: shape(concat.dims) }) +
          text('exercise.heads.heads_are_laid_side'),
      };
    },
  },
  {
    id: 'heads.previous-token', chapter: 'heads', kind: 'cell', objective: 5,
    setup({ state, config: c }) {
      const n = c.n_q, i = Math.min(3, n - 1), words = sentenceOf(c, n);
      return {
        params: { i, words },
        prompt: text('exercise.heads.head_built_look_previous', { words: word(words, i) }),
        grid: { rows: n, cols: n, row: i, labels_q: words, labels_k: words },
        calls: [{ op: 'patternTrace', args: { d_model: c.d_model, n_heads: c.n_heads, pattern: 'previous', words, input_seed: Number(state.input_seed) || 1, query_index: i } }],
      };
    },
    reveal({ i, words }, [trace]) {
      const best = strongest(trace.weights);
      return {
        expected: best[0], accept: best, weights: trace.weights,
        explanation: text('exercise.heads.core_s_row_query', { i, value: fmt.num(trace.weights[best[0]], 3), words: word(words, best[0]) }) +
          text('exercise.heads.previous_token_head_matches'),
      };
    },
  },
  ...MORE_EXERCISES,
  ...SKETCH_EXERCISES,
];
