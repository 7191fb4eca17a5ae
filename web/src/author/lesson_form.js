// The form of an author's lesson file (JSON: the element's <script type="application/json" slot="lesson">,
// the page's `lesson=`, the widget's `lesson` key), checked before anything of it is used: every problem
// is named by its path (`exercises[2].answer.quantity`), all of them at once, and nothing unknown is
// silently ignored. The form: { "text": { <lesson text id>: <words> }, "exercises": [ { id, chapter,
// step?, kind, prompt, answer: { quantity, …its arguments }, tolerance?, choices?, hint?, explanation? } ] }.

import { QUANTITIES, ARGS } from './quantities.js';
import { PLACEHOLDER } from '../lesson/text.js';
import { STEP_COUNTS } from '../lesson/chapter_names.js';

export const KINDS = Object.freeze(['number', 'choice', 'shape']);
const TOP = ['text', 'exercises'];
const EXERCISE_FIELDS = ['id', 'chapter', 'step', 'kind', 'prompt', 'answer', 'tolerance', 'choices', 'hint', 'explanation'];
const ID = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$/i;
const MAX_TEXT = 4000; // characters in one sentence: a pasted book is a mistake
const MAX_EXERCISES = 100;

/** The live layer's sizes a prompt may name: {d_model}, {n_heads}, … */
export const LAYER_PLACEHOLDERS = Object.freeze(['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'n_q', 'n_k', 'batch']);

/** The placeholders a prompt of an exercise asking `quantity` may use (its arguments' and their words). */
export function placeholdersOf(quantity) {
  const spec = QUANTITIES[quantity];
  const args = [...(spec?.args ?? []), ...(spec?.optional ?? [])];
  const extra = { head: ['head', 'head_number'], query: ['query', 'query_word'], key: ['key', 'key_word'], item: ['item'] };
  return [...LAYER_PLACEHOLDERS, ...args.flatMap((a) => extra[a])];
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const quote = (v) => JSON.stringify(v)?.slice(0, 60) ?? String(v);

/**
 * The problems of `lesson` as "path: what is wrong" lines ([] = good). context: { chapters (the chapter
 * names), exerciseIds (the lesson's own ids, which an author's may not reuse), knownText(id) → whether
 * the lesson has that sentence (null: text ids are checked later, once every panel's words are loaded) }.
 */
export function lessonProblems(lesson, { chapters, exerciseIds = [], knownText = null }) {
  const out = [];
  const say = (path, message) => out.push(`${path}: ${message}`);
  if (!isObject(lesson)) return [`lesson: expected an object { "text": …, "exercises": … }, got ${quote(lesson)}`];
  for (const key of Object.keys(lesson)) if (!TOP.includes(key)) say(key, `unknown field (the fields are ${TOP.join(', ')})`);
  if (lesson.text !== undefined) textProblems(lesson.text, knownText, say);
  if (lesson.exercises !== undefined) {
    if (!Array.isArray(lesson.exercises)) say('exercises', `expected a list, got ${quote(lesson.exercises)}`);
    else if (lesson.exercises.length > MAX_EXERCISES) say('exercises', `${lesson.exercises.length} exercises; at most ${MAX_EXERCISES}`);
    else {
      const seen = new Set();
      lesson.exercises.forEach((e, i) => exerciseProblems(e, `exercises[${i}]`, { chapters, exerciseIds, seen }, say));
    }
  }
  return out;
}

function textProblems(text, knownText, say) {
  if (!isObject(text)) return say('text', `expected an object of lesson text ids and their words, got ${quote(text)}`);
  for (const [id, words] of Object.entries(text)) {
    if (typeof words !== 'string') say(`text["${id}"]`, `expected words (a string), got ${quote(words)}`);
    else if (words.length > MAX_TEXT) say(`text["${id}"]`, `${words.length} characters; at most ${MAX_TEXT}`);
    if (knownText && !knownText(id)) say(`text["${id}"]`, 'unknown lesson text id (npm run lesson-template prints every id)');
  }
}

function exerciseProblems(e, path, { chapters, exerciseIds, seen }, say) {
  if (!isObject(e)) return say(path, `expected an exercise object, got ${quote(e)}`);
  for (const key of Object.keys(e)) if (!EXERCISE_FIELDS.includes(key)) say(`${path}.${key}`, `unknown field (an exercise's fields are ${EXERCISE_FIELDS.join(', ')})`);
  if (typeof e.id !== 'string' || !ID.test(e.id)) say(`${path}.id`, `expected an id such as "mycourse.weight-1" (letters, digits, - and _, with at least one dot), got ${quote(e.id)}`);
  else if (exerciseIds.includes(e.id)) say(`${path}.id`, `"${e.id}" is an exercise of the lesson already: choose another id`);
  else if (seen.has(e.id)) say(`${path}.id`, `"${e.id}" is given twice`);
  else seen.add(e.id);
  if (!chapters.includes(e.chapter) || e.chapter === 'reference') say(`${path}.chapter`, `expected one of ${chapters.filter((c) => c !== 'reference').join(', ')}, got ${quote(e.chapter)}`);
  const steps = Object.hasOwn(STEP_COUNTS, e.chapter) ? STEP_COUNTS[e.chapter] : undefined; // not "constructor"'s
  if (e.step !== undefined && steps && !(Number.isInteger(e.step) && e.step >= 1 && e.step <= steps)) say(`${path}.step`, `expected a step of the chapter “${e.chapter}”, 1 to ${steps}, got ${quote(e.step)}`);
  if (!KINDS.includes(e.kind)) say(`${path}.kind`, `expected one of ${KINDS.join(', ')}, got ${quote(e.kind)}`);
  const quantity = answerProblems(e.answer, `${path}.answer`, say);
  if (quantity && KINDS.includes(e.kind) && !QUANTITIES[quantity].kinds.includes(e.kind)) {
    say(`${path}.kind`, `${quantity} grades ${QUANTITIES[quantity].kinds.join(' or ')} exercises, not ${e.kind}`);
  }
  const names = quantity ? placeholdersOf(quantity) : null;
  for (const field of ['prompt', 'hint', 'explanation']) {
    const required = field === 'prompt';
    if (e[field] === undefined && !required) continue;
    if (typeof e[field] !== 'string' || !e[field].trim()) { say(`${path}.${field}`, `expected words (a string), got ${quote(e[field])}`); continue; }
    if (e[field].length > MAX_TEXT) say(`${path}.${field}`, `${e[field].length} characters; at most ${MAX_TEXT}`);
    if (!names) continue;
    const allowed = field === 'explanation' ? [...names, 'expected'] : names;
    const unknown = [...e[field].matchAll(PLACEHOLDER)].map((m) => m[1]).filter((n) => !allowed.includes(n));
    if (unknown.length) say(`${path}.${field}`, `unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `{${n}}`).join(', ')} (this exercise may use ${allowed.map((n) => `{${n}}`).join(', ')})`);
  }
  toleranceProblems(e, quantity, path, say);
  choiceProblems(e, quantity, path, say);
}

/** The answer's problems; returns its quantity's name when that is known. */
function answerProblems(answer, path, say) {
  if (!isObject(answer)) { say(path, `expected { "quantity": …, and its arguments }, got ${quote(answer)}`); return null; }
  const spec = typeof answer.quantity === 'string' && Object.hasOwn(QUANTITIES, answer.quantity) ? QUANTITIES[answer.quantity] : null;
  if (!spec) { say(`${path}.quantity`, `unknown quantity ${quote(answer.quantity)} (EMBED.md lists them: ${Object.keys(QUANTITIES).slice(0, 6).join(', ')}, …)`); return null; }
  const takes = [...spec.args, ...(spec.optional ?? [])];
  for (const key of Object.keys(answer)) {
    if (key !== 'quantity' && !takes.includes(key)) say(`${path}.${key}`, `unknown field: ${answer.quantity} takes ${takes.length ? takes.join(', ') : 'no arguments'}`);
  }
  for (const arg of takes) {
    const v = answer[arg];
    if (v === undefined) { if (spec.args.includes(arg)) say(`${path}.${arg}`, `${answer.quantity} needs ${arg} (a whole number from 0, under ${ARGS[arg]})`); continue; }
    if (!Number.isInteger(v) || v < 0) say(`${path}.${arg}`, `expected a whole number from 0 (0-based, under ${ARGS[arg]}), got ${quote(v)}`);
  }
  return answer.quantity;
}

function toleranceProblems(e, quantity, path, say) {
  const t = e.tolerance;
  if (t === undefined) {
    if (quantity && QUANTITIES[quantity].measured && e.kind === 'number') say(`${path}.tolerance`, `${quantity} is a measured number: give a tolerance such as { "abs": 0.01 } or { "rel": 0.05 }`);
    return;
  }
  if (e.kind !== 'number') return say(`${path}.tolerance`, `only a number exercise has a tolerance (this one is ${quote(e.kind)})`);
  if (!isObject(t)) return say(`${path}.tolerance`, `expected { "abs": … } or { "rel": … }, got ${quote(t)}`);
  for (const [key, v] of Object.entries(t)) {
    if (!['abs', 'rel'].includes(key)) say(`${path}.tolerance.${key}`, 'unknown field (the fields are abs, rel)');
    else if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) say(`${path}.tolerance.${key}`, `expected a number ≥ 0, got ${quote(v)}`);
  }
  // {} is an exact answer, which a measured number (computed in float32) cannot be asked for.
  if (quantity && QUANTITIES[quantity].measured && t.abs === undefined && t.rel === undefined) {
    say(`${path}.tolerance`, `${quantity} is a measured number: the tolerance needs "abs" or "rel" (e.g. { "abs": 0.01 }), got ${quote(t)}`);
  }
}

function choiceProblems(e, quantity, path, say) {
  if (e.kind !== 'choice') {
    if (e.choices !== undefined) say(`${path}.choices`, `only a choice exercise has choices (this one is ${quote(e.kind)})`);
    return;
  }
  if (!Array.isArray(e.choices) || e.choices.length < 2) return say(`${path}.choices`, `expected a list of at least two { "key": …, "label": … }, got ${quote(e.choices)}`);
  const keys = new Set();
  e.choices.forEach((c, i) => {
    const at = `${path}.choices[${i}]`;
    if (!isObject(c)) return say(at, `expected { "key": …, "label": … }, got ${quote(c)}`);
    for (const key of Object.keys(c)) if (!['key', 'label'].includes(key)) say(`${at}.${key}`, 'unknown field (the fields are key, label)');
    if (typeof c.key !== 'string' || !c.key) say(`${at}.key`, `expected a string, got ${quote(c.key)}`);
    else if (keys.has(c.key)) say(`${at}.key`, `"${c.key}" is given twice`);
    else keys.add(c.key);
    if (typeof c.label !== 'string' || !c.label.trim()) say(`${at}.label`, `expected words (a string), got ${quote(c.label)}`);
  });
  const values = quantity ? QUANTITIES[quantity].values : null;
  // A key index (strongest_key): the answer is "0", "1", …, so every key must be one for a choice to be right.
  if (quantity && !values && [...keys].some((k) => !/^(0|[1-9]\d*)$/.test(k))) {
    say(`${path}.choices`, `${quantity} answers with a key's index: each choice's key must be "0", "1", … (got ${[...keys].map((k) => `"${k}"`).join(', ')})`);
  }
  const missing = (values ?? []).filter((v) => !keys.has(v));
  if (missing.length) say(`${path}.choices`, `${quantity} can be ${values.map((v) => `"${v}"`).join(' or ')}: no choice has the key${missing.length > 1 ? 's' : ''} ${missing.map((v) => `"${v}"`).join(', ')}`);
}

/** An author's lesson refused: `problems` lists every path and what is wrong there. */
export class LessonError extends Error {
  constructor(problems) {
    super(`the lesson file is refused: ${problems.slice(0, 12).join('; ')}${problems.length > 12 ? `; and ${problems.length - 12} more` : ''}`);
    this.name = 'LessonError';
    this.problems = problems;
  }
}

/** `lesson` if it is good, else throws a LessonError naming every problem (context: lessonProblems'). */
export function checkLesson(lesson, context) {
  const problems = lessonProblems(lesson, context);
  if (problems.length) throw new LessonError(problems);
  return lesson;
}
