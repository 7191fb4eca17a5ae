// What the chapters' `sketch` exercises share: one exercise that asks the learner to draw the attention
// row a built head gives one query of a sentence that is not on screen, graded by total-variation
// distance against the engine's row (sketch_answer.js). The sentence and the words are the chapter's data.

import * as fmt from '../../model/format.js';
import { word, strongest } from './helpers.js';
import { text } from './sketch_text.js';

/**
 * A sketch exercise: { id, chapter, objective, pattern (a head pattern of setHeadPatterns), sentence()
 * → its words, query (the index asked), threshold (TV distance that still counts), prompt(values) and
 * explain(values) → the chapter's words }.
 */
export function sketchExercise({ id, chapter, objective, pattern, sentence, query, threshold, prompt, explain }) {
  return {
    id, chapter, kind: 'sketch', objective,
    setup({ state, config: c }) {
      const words = sentence(), i = Math.min(query, words.length - 1);
      return {
        params: { words, i },
        prompt: prompt({ sentence: words.join(' '), word: word(words, i), threshold: fmt.num(threshold, 2) }),
        threshold,
        sketch: { keys: words, query: i },
        calls: [{ op: 'patternTrace', args: { d_model: c.d_model, n_heads: c.n_heads, pattern, words, input_seed: Number(state.input_seed) || 1, query_index: i } }],
      };
    },
    reveal({ words, i }, [trace]) {
      const best = strongest(trace.weights)[0];
      return {
        expected: trace.weights, weights: trace.weights,
        explanation: explain({ word: word(words, i), best: word(words, best), value: fmt.num(trace.weights[best], 2) }) +
          text('exercise.common.sketch_distance', { threshold: fmt.num(threshold, 2) }),
      };
    },
  };
}
