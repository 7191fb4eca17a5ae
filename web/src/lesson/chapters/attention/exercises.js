// The exercises of the chapter “attention” (attention: scaled dot-product attention): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { word, list, wordsOf, sentenceOf, strongest, visible, builtHead, repeatedQuery, tokensOf, liveSentences, PATTERN_WORDS } from '../../exercises/helpers.js';
import { text } from './exercise_text.js';
import { MORE_EXERCISES } from './more_exercises.js';
import { SKETCH_EXERCISES } from './sketch_exercises.js';
import { DESIGN_EXERCISES } from './design_exercises.js';
import { STEP_EXERCISES } from './step_exercises.js';
import { otherCase } from '../../exercises/other_case.js';
import { lessonText } from '../../text.js';

/**
 * The sentence attention.strongest-key asks about: the chapter's first one whose words up to the query asked do
 * not begin a sentence of the live layer (that row of its map would show the answer), read as the page reads
 * words; a blank author's version falls back to the lesson's.
 */
function askedSentence(c) {
  const live = liveSentences(c);
  const shown = (words) => {
    const upTo = queryOf(words) + 1, asked = words.slice(0, upTo).join(' ');
    return live.some((l) => l.length >= upTo && l.slice(0, upTo).join(' ') === asked);
  };
  const read = (given, id) => { const words = tokensOf(given); return words.length >= 2 ? words : tokensOf(lessonText(id)); };
  const sentences = [read(text('exercise.attention.strongest_sentence'), 'exercise.attention.strongest_sentence'),
    read(text('exercise.attention.strongest_sentence_2'), 'exercise.attention.strongest_sentence_2')];
  return sentences.find((words) => !shown(words)) ?? sentences[0];
}

/** The query asked in `words`: the last word that occurred before it, else the last. */
function queryOf(words) {
  const repeated = repeatedQuery(words);
  return repeated < 0 ? words.length - 1 : repeated;
}

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
    // Asked on a sentence that is not on screen: the large map shows this head's row for the live one.
    id: 'attention.strongest-key', chapter: 'attention', kind: 'cell', objective: 1,
    setup({ state, config: c }) {
      const words = askedSentence(c);
      // A sentence with no repeated word (a translator's) has nothing for a same-word head to find: a previous-token head is asked then.
      const built = builtHead(state, c), { head, pattern } = built.pattern === 'same_word' && repeatedQuery(words) < 0 ? { head: null, pattern: 'previous' } : built;
      const i = queryOf(words);
      const values = { sentence: words.join(' '), word: word(words, i), part: PATTERN_WORDS[pattern] };
      return {
        params: { head, pattern, i, words },
        prompt: head === null ? text('exercise.attention.strongest_prompt_any', values) : text('exercise.attention.strongest_prompt', { ...values, value: head + 1 }),
        grid: { rows: words.length, cols: words.length, row: i, labels_q: words, labels_k: words },
        calls: [{ op: 'patternTrace', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, pattern, words, input_seed: Number(state.input_seed) || 1, query_index: i } }],
      };
    },
    reveal({ pattern, i, words }, [trace]) {
      const best = strongest(trace.weights), { fit } = trace;
      // Too narrow a head for its job (a same-word head with no room for the words, whose row misses the earlier
      // occurrence): the core's row says what it could do, and why.
      const narrow = pattern === 'same_word' && fit && fit.word_dims < fit.matchable_words && !best.includes(words.indexOf(words[i])) ? text('exercise.attention.strongest_narrow', { d_k: fit.d_k, word_dims: fit.word_dims, matchable: fit.matchable_words }) : '';
      return {
        expected: best[0], accept: best, weights: trace.weights,
        explanation: narrow + text('exercise.attention.strongest_row', { word: word(words, i), value: fmt.num(trace.weights[best[0]], 3), key: word(words, best[0]) }) +
          text('exercise.attention.whose_scaled_score_q', { part: best.length > 1 ? text('exercise.attention.tied_with', { keys: best.slice(1).map((j) => word(words, j)).join(', ') }) : '', value: fmt.num(trace.logits[best[0]], 3) }) +
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
