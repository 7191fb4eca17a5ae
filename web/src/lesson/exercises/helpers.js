// What the chapters' exercises share (lesson/chapters/<chapter>/exercises.js): the words of the live
// sentence, the analysis arguments of the live layer, the strongest key of a row, the lab's settings.
//
// An exercise: { id, chapter, kind, setup({ state, config }) → { params, prompt, calls, choices?, grid?,
// tolerance? }, reveal(params, results) → { expected, accept?, explanation } } and its hint, the words
// `exercise.hint.<id>` of its chapter's exercise_text.js (catalogue.js gives it as hint(params)); its
// kind is listed with its id in its chapter's chapter.js too. Nothing in an exercise
// computes an answer: it names the core calls that give it (`calls`, run by features/exercises/handler.js
// in the compute worker) and reads the answer out of their results; its reveal explains with those
// numbers and names the usual misconception. `accept` (cells only): every key that carries the row's
// largest weight. Ids are stable (web/EMBED.md lists them): never rename one.

import * as fmt from '../../model/format.js';
import { labelsFor, tokenize, PAD } from '../../model/inputs.js';
import { text } from './helper_text.js';
import { textsOf } from '../text.js';

export const shape = (list) => list.join('×');
export const word = (labels, i) => (labels ? `“${labels[i]}” (${i})` : `${i}`);
export const list = (xs, digits = 3) => xs.map((x) => fmt.num(x, digits)).join(', ');

/** The words of batch item `item` of the live layer (null for random or task inputs). */
export function wordsOf(config, which = 'q', item = 0) {
  const tokens = which === 'q' ? config.tokens_q : (config.cross ? config.tokens_kv : config.tokens_q);
  return tokens?.[item] ? labelsFor(tokens[item], which === 'q' ? config.n_q : config.n_k) : null;
}

/** Words for a layer built for an exercise: the live sentence, else neutral placeholders. */
export function sentenceOf(config, n) {
  const words = wordsOf(config, 'q');
  return words && words.length === n ? words : Array.from({ length: n }, (_, i) => `w${i}`);
}

/** attn.analyze's arguments for the live layer's sizes. */
export function analyzeArgs(c, extra = {}) {
  const base = { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, bias: c.bias, batch: c.batch };
  return { ...base, ...(c.cross ? { attention: 'cross', n_q: c.n_q, n_k: c.n_k } : { n_q: c.n_q }), need_weights: true, ...extra };
}

/** The keys of a weight row that carry its largest weight (ties within 1e-6 all count). */
export function strongest(weights) {
  let best = -Infinity;
  for (const w of weights) if (w > best) best = w;
  return weights.map((w, j) => (w >= best - 1e-6 ? j : -1)).filter((j) => j >= 0);
}

/** The keys a row of the core's mask grid leaves visible (0 = visible). */
export function visible(grid, row, cols) {
  const out = [];
  for (let j = 0; j < cols; j++) if (!grid[row * cols + j]) out.push(j);
  return out;
}

/** The patterns whose row has one place to look (a key a learner can predict from the head's job alone). */
const PEAKED = ['previous', 'same_word', 'first_token'];

/**
 * A built head of the live layer to ask about: the one shown enlarged (the learner's choice) when it was
 * built with a peaked pattern, else the layer's first such head, else none ({ head: null, pattern:
 * 'previous' }: the exercise then names the pattern alone).
 */
export function builtHead(state, config) {
  const shown = Math.min(Number(state.head) || 0, config.n_heads - 1);
  const patterns = config.heads ?? [];
  const head = PEAKED.includes(patterns[shown]) ? shown : patterns.findIndex((p) => PEAKED.includes(p));
  return head >= 0 ? { head, pattern: patterns[head] } : { head: null, pattern: 'previous' };
}

/** A sentence's tokens as the page splits its own (model/inputs.js tokenize), lower-cased as the engine reads them. */
export const tokensOf = (sentence) => tokenize(sentence).map((t) => t.toLowerCase());

/** The live layer's sentences (every batch item's queries and keys) as tokensOf gives them: their maps are on screen. */
export function liveSentences(c) {
  const rows = Array.from({ length: c.batch ?? 1 }, (_, b) => [wordsOf(c, 'q', b), wordsOf(c, 'k', b)]).flat().filter(Boolean);
  return rows.map((words) => words.filter((w) => w !== PAD).map((w) => w.toLowerCase()));
}

/** The last position of `words` whose word occurred before it (a same-word head then has a key to find), or -1. */
export function repeatedQuery(words) {
  for (let i = words.length - 1; i > 0; i--) if (words.indexOf(words[i]) < i) return i;
  return -1;
}

export const PATTERN_WORDS = textsOf({ // looked up when read: an author's words registered later still show
  previous: 'exercise.common.built_look_previous_token', same_word: 'exercise.common.built_look_other_occurrences',
  first_token: 'exercise.common.built_look_first_token', uniform: 'exercise.common.built_spread_weight_evenly', random: 'exercise.common.random_seeded_not_built',
});

/** The lab's settings of the live state, or the lab's defaults where a field is not a usable number. */
export function labSettings(state, task) {
  const pick = (key, def, lo, hi) => {
    const n = Number(state[key]);
    return Number.isInteger(n) && n >= lo && n <= hi ? n : def;
  };
  return { task, d_model: pick('train_d_model', 32, 4, 64), n_heads: pick('train_n_heads', 2, 1, 8), seq_len: pick('train_seq_len', 8, 4, 16), seed: pick('train_seed', 1, 0, 2 ** 31 - 1) };
}
