// An author's exercise (checked by lesson_form.js) as an exercise of the catalogue (the form of
// lesson/exercises/helpers.js): its prompt filled from the live layer, its answer the core's value of the
// named quantity (quantities.js), graded by the same session and rules as the lesson's own.

import * as fmt from '../model/format.js';
import { fill, text } from '../lesson/text.js';
import { wordsOf } from '../lesson/exercises/helpers.js';
import { QUANTITIES, ARGS } from './quantities.js';
import { STEP_COUNTS } from '../lesson/chapter_names.js';
import '../lesson/author_text.js';

/** The values a prompt's placeholders take for the live layer `c` and the answer's arguments `args`. */
function valuesOf(c, args) {
  const values = { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, n_q: c.n_q, n_k: c.n_k, batch: c.batch };
  if ('head' in args) Object.assign(values, { head: args.head, head_number: args.head + 1 });
  if ('item' in args) values.item = args.item;
  const item = args.item ?? 0;
  if ('query' in args) Object.assign(values, { query: args.query, query_word: wordsOf(c, 'q', item)?.[args.query] ?? `${args.query}` });
  if ('key' in args) Object.assign(values, { key: args.key, key_word: wordsOf(c, 'k', item)?.[args.key] ?? `${args.key}` });
  return values;
}

/** How the core's value reads in an explanation. */
const shown = (kind, value) => (kind === 'shape' ? value.join('×') : typeof value === 'number' && !Number.isInteger(value) ? fmt.num(value, 4) : String(value));

/** The catalogue's exercise for a checked author's exercise `e`. */
export function authoredExercise(e) {
  const spec = QUANTITIES[e.answer.quantity];
  const { quantity, ...args } = e.answer;
  return Object.freeze({
    id: e.id, chapter: e.chapter, kind: e.kind, authored: true,
    step: e.step ?? STEP_COUNTS[e.chapter], // the step it is shown at (1-based; default the chapter's last)
    setup({ config: c }) {
      for (const [arg, v] of Object.entries(args)) {
        const bound = c[ARGS[arg]];
        if (v >= bound) throw new Error(text('author.argument_outside_layer', { id: e.id, arg, value: v, bound: ARGS[arg], count: bound, max: bound - 1 }));
      }
      const values = valuesOf(c, args);
      const made = { params: values, prompt: fill(e.prompt, values), calls: spec.calls(c, args) };
      if (e.kind === 'number') made.tolerance = e.tolerance ?? {};
      if (e.kind === 'choice') made.choices = e.choices.map((choice) => ({ key: choice.key, label: fill(choice.label, values) }));
      return made;
    },
    reveal(params, results) {
      const value = spec.read(results, args);
      // A quantity with ties (strongest_key) gives every key that carries the largest weight: the first is the answer.
      const expected = spec.ties ? (e.kind === 'choice' ? String(value[0]) : value[0]) : value;
      const words = { ...params, expected: shown(e.kind, expected) };
      const explanation = e.explanation ? fill(e.explanation, words) : text('author.engine_computed', { quantity, expected: words.expected });
      return { expected, explanation };
    },
    hint: (params) => (e.hint ? fill(e.hint, params ?? {}) : text('author.default_hint', { quantity })),
  });
}
