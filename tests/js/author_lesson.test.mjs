// An author's lesson file (web/src/author/): the check names every problem by its path; every quantity
// the engine computes for an author's exercise against an independent float64 or closed-form reference,
// for several layers; an author's exercise graded by the same session and rules (hint, second try,
// reveal, progress, xAPI statements that validate); text overrides looked up when shown; the
// lesson-template script prints every id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../web/src/engine/attention.js';
import { validate } from '../../web/src/model/validate.js';
import { defaults, withChanges } from '../../web/src/model/schema.js';
import { LayerCache, prepareRun, forwardArguments } from '../../web/src/model/job.js';
import { handlers } from '../../web/src/features/exercises/handler.js';
import { createExerciseSession } from '../../web/src/lesson/exercises/session.js';
import { EXERCISES } from '../../web/src/lesson/exercises/catalogue.js';
import * as STATEMENTS from '../../web/src/lms/event_statements.js';
import { readLesson, checkTextIds } from '../../web/src/author/lesson.js';
import { STEP_COUNTS } from '../../web/src/lesson/chapter_names.js';
import { lessonProblems, placeholdersOf } from '../../web/src/author/lesson_form.js';
import { QUANTITIES, QUANTITY_NAMES } from '../../web/src/author/quantities.js';
import { CHAPTER_NAMES } from '../../web/src/lesson/chapter_names.js';
import '../../web/src/lesson/chapters.js'; // registers the chapters' words
import { readdirSync, readFileSync } from 'node:fs';
// Every panel's words too (the page registers them as each panel's code arrives).
for (const name of readdirSync(new URL('../../web/src/lesson/panels/', import.meta.url))) await import(`../../web/src/lesson/panels/${name}`);
import { ALL_IDS } from '../../web/src/lesson/exercises/index.js';
import { text, textsOf, useText, hasText } from '../../web/src/lesson/text.js';
import { linear, mhaReference } from './reference.mjs';

const attn = await loadAttention();
const validateStatement = createRequire(import.meta.url)('xapi-validation').default;
const context = { chapters: CHAPTER_NAMES, exerciseIds: ALL_IDS, knownText: hasText };

const good = () => ({
  text: { 'chapter.attention.title': 'Attention, in your words' },
  exercises: [{ id: 'course.weight', chapter: 'attention', kind: 'number', prompt: 'Head {head_number}: the weight of {query_word} on {key_word}?',
    answer: { quantity: 'attention_weight', head: 1, query: 3, key: 2 }, tolerance: { abs: 0.01 } }],
});

test('a good lesson passes; each bad field is refused with its path named', () => {
  assert.deepEqual(lessonProblems(good(), context), []);
  const cases = [
    [(l) => { l.extra = 1; }, 'extra: unknown field'],
    [(l) => { l.text = []; }, 'text: expected an object'],
    [(l) => { l.text['no.such.id'] = 'x'; }, 'text["no.such.id"]: unknown lesson text id'],
    [(l) => { l.text['chapter.attention.title'] = 3; }, 'text["chapter.attention.title"]: expected words'],
    [(l) => { l.exercises = {}; }, 'exercises: expected a list'],
    [(l) => { l.exercises.push(7); }, 'exercises[1]: expected an exercise object'],
    [(l) => { l.exercises[0].colour = 'red'; }, 'exercises[0].colour: unknown field'],
    [(l) => { l.exercises[0].id = 'nodot'; }, 'exercises[0].id: expected an id'],
    [(l) => { l.exercises[0].id = 'cost.dominant'; }, 'exercises[0].id: "cost.dominant" is an exercise of the lesson already'],
    [(l) => { l.exercises.push({ ...l.exercises[0] }); }, 'exercises[1].id: "course.weight" is given twice'],
    [(l) => { l.exercises[0].chapter = 'nope'; }, 'exercises[0].chapter: expected one of attention'],
    [(l) => { l.exercises[0].chapter = 'reference'; }, 'exercises[0].chapter: expected one of'],
    [(l) => { l.exercises[0].kind = 'essay'; }, 'exercises[0].kind: expected one of number, choice, shape'],
    [(l) => { l.exercises[0].step = 99; }, 'exercises[0].step: expected a step of the chapter “attention”, 1 to'],
    [(l) => { l.exercises[0].step = '2'; }, 'exercises[0].step: expected a step of the chapter “attention”, 1 to'],
    [(l) => { l.exercises[0].kind = 'shape'; delete l.exercises[0].tolerance; }, 'exercises[0].kind: attention_weight grades number exercises, not shape'],
    [(l) => { delete l.exercises[0].prompt; }, 'exercises[0].prompt: expected words'],
    [(l) => { l.exercises[0].prompt = 'What is {colour}?'; }, 'exercises[0].prompt: unknown placeholder {colour}'],
    [(l) => { l.exercises[0].hint = 'Look at {nothing}'; }, 'exercises[0].hint: unknown placeholder {nothing}'],
    [(l) => { l.exercises[0].explanation = '{expected} from {made_up}'; }, 'exercises[0].explanation: unknown placeholder {made_up}'],
    [(l) => { l.exercises[0].answer = 'attention_weight'; }, 'exercises[0].answer: expected { "quantity"'],
    [(l) => { l.exercises[0].answer.quantity = 'params.everything'; }, 'exercises[0].answer.quantity: unknown quantity "params.everything"'],
    [(l) => { l.exercises[0].answer.layer = 2; }, 'exercises[0].answer.layer: unknown field: attention_weight takes head, query, key, item'],
    [(l) => { delete l.exercises[0].answer.key; }, 'exercises[0].answer.key: attention_weight needs key'],
    [(l) => { l.exercises[0].answer.head = -1; }, 'exercises[0].answer.head: expected a whole number from 0'],
    [(l) => { l.exercises[0].answer.query = 1.5; }, 'exercises[0].answer.query: expected a whole number from 0'],
    [(l) => { delete l.exercises[0].tolerance; }, 'exercises[0].tolerance: attention_weight is a measured number'],
    [(l) => { l.exercises[0].tolerance = { abs: -1 }; }, 'exercises[0].tolerance.abs: expected a number ≥ 0'],
    [(l) => { l.exercises[0].tolerance = { within: 1 }; }, 'exercises[0].tolerance.within: unknown field'],
    [(l) => { l.exercises[0].tolerance = 0.1; }, 'exercises[0].tolerance: expected { "abs"'],
    // A hostile probe: {} passed (an exact answer, which a float32 weight never is); names every object has
    // crashed the check ("a.args is not iterable") or were read as a step count ("1 to function Object()").
    [(l) => { l.exercises[0].tolerance = {}; }, 'exercises[0].tolerance: attention_weight is a measured number: the tolerance needs "abs" or "rel"'],
    [(l) => { l.exercises[0].answer.quantity = 'constructor'; }, 'exercises[0].answer.quantity: unknown quantity "constructor"'],
    [(l) => { l.exercises[0].answer.quantity = '__proto__'; }, 'exercises[0].answer.quantity: unknown quantity "__proto__"'],
    [(l) => { l.exercises[0].chapter = 'constructor'; l.exercises[0].step = 2; }, 'exercises[0].chapter: expected one of attention'],
    [(l) => { l.exercises[0].choices = []; }, 'exercises[0].choices: only a choice exercise has choices'],
  ];
  for (const [change, want] of cases) {
    const lesson = good();
    change(lesson);
    const problems = lessonProblems(lesson, context);
    assert.ok(problems.some((p) => p.startsWith(want)), `${want}\n  got: ${problems.join('\n       ')}`);
  }
  // Choices: the values the quantity can take must be keys; a choice's own fields are checked too.
  const choice = { id: 'course.dominant', chapter: 'cost', kind: 'choice', prompt: 'Which dominates at n_q = {n_q}?', answer: { quantity: 'flops.dominant' },
    choices: [{ key: 'projections', label: 'the projections' }, { key: 'attention', label: 'the attention matrix' }] };
  assert.deepEqual(lessonProblems({ exercises: [choice] }, context), []);
  const bad = (change) => { const e = structuredClone(choice); change(e); return lessonProblems({ exercises: [e] }, context); };
  assert.match(bad((e) => { e.choices[1].key = 'softmax'; }).join('\n'), /^exercises\[0\]\.choices: flops\.dominant can be "projections" or "attention": no choice has the key "attention"$/m);
  assert.match(bad((e) => { e.choices[1].key = 'projections'; }).join('\n'), /^exercises\[0\]\.choices\[1\]\.key: "projections" is given twice/m);
  assert.match(bad((e) => { e.choices[0].tip = 'x'; }).join('\n'), /^exercises\[0\]\.choices\[0\]\.tip: unknown field/m);
  assert.match(bad((e) => { e.choices = [e.choices[0]]; }).join('\n'), /^exercises\[0\]\.choices: expected a list of at least two/m);
  assert.match(bad((e) => { e.tolerance = { abs: 1 }; }).join('\n'), /^exercises\[0\]\.tolerance: only a number exercise has a tolerance/m);
  // A key index as a choice (strongest_key answers "0", "1", …): keys that are not indices could never be right.
  const strongest = { ...structuredClone(choice), id: 'course.strongest', prompt: 'Which key does query 2 weight most in head 1?', answer: { quantity: 'strongest_key', head: 0, query: 2 },
    choices: [{ key: '0', label: 'the' }, { key: '1', label: 'cat' }, { key: '2', label: 'sat' }] };
  assert.deepEqual(lessonProblems({ exercises: [strongest] }, context), []);
  strongest.choices[0].key = 'a';
  assert.match(lessonProblems({ exercises: [strongest] }, context).join('\n'), /^exercises\[0\]\.choices: strongest_key answers with a key's index: each choice's key must be "0", "1", … \(got "a", "1", "2"\)$/m);
  // The lesson as text: JSON that breaks is named; readLesson throws every problem at once.
  assert.throws(() => readLesson('{ "exercises": [ }'), /the lesson file is refused: lesson: not JSON/);
  assert.throws(() => readLesson({ exercises: [{ id: 'x' }], colour: 1 }), (err) => err.problems.length >= 5 && /colour: unknown field/.test(err.message) && /exercises\[0\]\.id/.test(err.message));
  assert.throws(() => readLesson(new Error('HTTP 404')), /lesson: HTTP 404/);
  assert.throws(() => checkTextIds({ 'chapter.attention.title': 'ok', 'not.an.id': 'x' }), /text\["not\.an\.id"\]: unknown lesson text id/);
  assert.doesNotThrow(() => checkTextIds({ 'chapter.attention.title': 'ok' }));
  // A placeholder its sentence does not fill would reach the learner as written: named, with the ones it fills.
  assert.throws(() => checkTextIds({ 'exercise.attention.with_causal_mask_this': 'Mit {n_qq} Abfragen und {n_k} Schlüsseln: wie viele für {labels}?' }),
    (e) => e.name === 'LessonError' && /text\["exercise\.attention\.with_causal_mask_this"\]: unknown placeholder \{n_qq\} \(this sentence fills \{n_q\}, \{n_k\}, \{labels\}\)$/m.test(e.message));
  assert.throws(() => checkTextIds({ 'chapter.attention.title': 'Attention for {nheads} heads' }), /unknown placeholder \{nheads\} \(this sentence fills none\)/);
  // A name some sentence fills may be given to this one too (a hint gets all its exercise's values: {n_k} is one).
  assert.doesNotThrow(() => checkTextIds({ 'exercise.hint.attention.causal-row': 'Query {i} of {n_q}, {n_k} keys: count them.' }));
  assert.doesNotThrow(() => checkTextIds({ 'exercise.attention.with_causal_mask_this': 'Causal mask, query {labels}: how many keys? ({n_q} × {n_k})' }), 'its own placeholders, any order, some left out');
  // A formula (TeX): its braces are TeX's groups as much as placeholders, so they are not looked at.
  assert.doesNotThrow(() => checkTextIds({ 'query.scale.formula': '\\tfrac{{score}}{\\sqrt{{d_k}}} = {scaled}\\ (x^{a})' }));
});

// ---- every quantity against a reference computed here ----

/** The live layer of a state, with the worker's side (the real handler, without the worker). */
function layerOf(changes) {
  const state = withChanges(defaults(), changes);
  const check = validate(state, { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget });
  assert.ok(check.config, `the layer ${JSON.stringify(changes)} is valid: ${JSON.stringify(check.errors)}`);
  const cache = new LayerCache();
  const side = { attn, labs: () => attn.labs(), prepared: (config) => { const { layer, inputs } = prepareRun(attn, config, cache, null); return { layer, inputs, args: forwardArguments(config, inputs) }; } };
  return { state, check, config: check.config, side };
}

/** Every quantity's value for the layer `c`, from closed forms and float64 loops (never the core's analysis). */
function references(c, side, args) {
  const { d_model: d, n_heads: h, n_kv_heads: g, d_k, d_v, n_q, n_k, batch } = c;
  const bias = c.bias ? 1 : 0;
  const w = { q: d * h * d_k, k: d * g * d_k, v: d * g * d_v, o: h * d_v * d };
  const weights = w.q + w.k + w.v + w.o, biases = h * d_k + g * d_k + g * d_v + d; // counted as with bias=1; the total leaves them out without
  const n = n_q; // self-attention: n_q = n_k
  const out = {
    'params.total': weights + bias * biases, 'params.weights': weights, 'params.biases': biases,
    'params.w_q': w.q, 'params.w_k': w.k, 'params.w_v': w.v, 'params.w_o': w.o,
    // The lesson's count (LESSON.md) per sequence of the batch: projections n·d², scores and weighted sum n²·d each, softmax h·n²,
    // with d the width of the heads together (h·d_k, h·d_v: d_model when d_k = d_v = d_model / h).
    'flops.projections': batch * n * d * h * d_k, 'flops.scores': batch * n * n * h * d_k, 'flops.weighted_sum': batch * n * n * h * d_v,
    'flops.softmax': batch * h * n * n, 'flops.total': batch * (n * d * h * d_k + n * n * h * d_k + n * n * h * d_v),
    // Every operation: four projections (2 per multiply-add, + a bias add per output), scores (2·d_k, + the scale),
    // the softmax (5 per weight), the weighted sum (2·d_v).
    'flops.exact': batch * (n * (2 * d * h * d_k + bias * h * d_k) + n * (2 * d * g * d_k + bias * g * d_k) + n * (2 * d * g * d_v + bias * g * d_v)
      + n * (2 * h * d_v * d + bias * d) + h * n * n * (2 * d_k + 1) + 5 * h * n * n + h * n * n * 2 * d_v),
    'flops.dominant': n < d ? 'projections' : 'attention',
    'memory.attention_weights': 4 * batch * h * n_q * n_k,
    'kv_cache.bytes_per_token': 4 * g * (d_k + d_v),
    'shape.input': [batch, n_q, d], 'shape.q': [batch, n_q, h * d_k], 'shape.k': [batch, n_k, g * d_k], 'shape.v': [batch, n_k, g * d_v],
    'shape.q_heads': [batch, h, n_q, d_k], 'shape.k_heads': [batch, g, n_k, d_k], 'shape.v_heads': [batch, g, n_k, d_v],
    'shape.scores': [batch, h, n_q, n_k], 'shape.weights': [batch, h, n_q, n_k], 'shape.heads': [batch, h, n_q, d_v],
    'shape.concat': [batch, n_q, h * d_v], 'shape.output': [batch, n_q, d],
  };
  // One pair of one head: the layer's own weights and inputs, projected and attended in float64.
  const { head, query, key, item = 0 } = args;
  const { layer, inputs } = side.prepared(c);
  const lw = layer.getWeights();
  const x = inputs.query;
  const Q = linear(x, batch * n_q, d, lw.wq, lw.bq, h * d_k), K = linear(x, batch * n_k, d, lw.wk, lw.bk, g * d_k);
  const kvHead = Math.floor((head * g) / h);
  const logits = Array.from({ length: n_k }, (_, j) => {
    let s = 0;
    for (let t = 0; t < d_k; t++) s += Q[(item * n_q + query) * h * d_k + head * d_k + t] * K[(item * n_k + j) * g * d_k + kvHead * d_k + t];
    return s / Math.sqrt(d_k);
  });
  const top = Math.max(...logits), e = logits.map((l) => Math.exp(l - top)), sum = e.reduce((a, b) => a + b, 0);
  const row = e.map((v) => v / sum);
  // The same row from the tests' independent multi-head reference (the whole layer at once).
  const ref = mhaReference({ query: x, key: x, value: x, batch, n_q, n_k, d_model: d, n_heads: h, d_k, d_v, weights: lw, mask: forwardArguments(c, inputs).mask, scale: c.scale });
  const refRow = Array.from(ref.weights.subarray(((item * h + head) * n_q + query) * n_k, ((item * h + head) * n_q + query + 1) * n_k));
  row.forEach((v, j) => assert.ok(Math.abs(v - refRow[j]) < 1e-12, `the two float64 references differ at key ${j}: ${v} vs ${refRow[j]}`));
  Object.assign(out, { attention_weight: row[key], attention_logit: logits[key], strongest_key: row.indexOf(Math.max(...row)) });
  return out;
}

const LAYERS = [
  { source: 'random', n_q: '6', d_model: '16', n_heads: '4', bias: '1', seed: '3', input_seed: '5' },
  { source: 'random', n_q: '24', d_model: '12', n_heads: '3', bias: '0', batch: '2', seed: '9' },
  { source: 'random', n_q: '5', d_model: '32', n_heads: '2', d_k: '8', d_v: '6', bias: '1' },
];

test('every quantity: the engine\'s value is the float64 / closed-form reference, for several layers', async () => {
  assert.deepEqual(QUANTITY_NAMES.filter((q) => !QUANTITIES[q].kinds.length), []);
  for (const changes of LAYERS) {
    const { config: c, side } = layerOf(changes);
    const args = { head: c.n_heads - 1, query: c.n_q - 1, key: 1, item: c.batch - 1 };
    const want = references(c, side, args);
    assert.deepEqual(QUANTITY_NAMES.filter((q) => !(q in want)), [], 'every quantity has a reference');
    for (const name of QUANTITY_NAMES) {
      const spec = QUANTITIES[name];
      const taken = Object.fromEntries([...spec.args, ...(spec.optional ?? [])].map((a) => [a, args[a]]));
      const { results } = await handlers.solve({ calls: spec.calls(c, taken) }, side);
      let got = spec.read(results, taken);
      if (spec.ties) got = got[0];
      const where = `${name} for ${JSON.stringify(changes)}`;
      if (spec.measured) assert.ok(Math.abs(got - want[name]) <= 1e-5 * Math.max(1, Math.abs(want[name])), `${where}: ${got} vs ${want[name]}`);
      else assert.deepEqual(got, want[name], where);
    }
  }
});

// ---- an author's exercise in the session ----

function sessionWith(lesson, changes, events) {
  const { state, check, config, side } = layerOf(changes);
  const { authored: exercises } = readLesson(lesson, hasText);
  const session = createExerciseSession({
    catalogue: EXERCISES, authored: exercises, statements: () => STATEMENTS,
    solve: (payload) => handlers.solve(payload, side), state: () => ({ ...state, chapter: 'attention' }), check: () => check,
    emit: (type, detail) => events.push({ type, detail }),
  });
  return { session, config, side };
}

test('an author\'s exercise: prompt filled from the run, graded by the core, hint → second try → answer, progress, xAPI', async () => {
  const events = [];
  const lesson = good();
  lesson.exercises[0].hint = 'Row {query} of head {head_number} sums to 1.';
  lesson.exercises.push({ id: 'course.scores-shape', chapter: 'attention', kind: 'shape', prompt: 'The shape of S_i for batch {batch}?', answer: { quantity: 'shape.scores' } });
  const { session, config, side } = sessionWith(lesson, LAYERS[0], events);
  const ids = session.view().items.map((i) => i.id);
  assert.deepEqual(ids.slice(-2), ['course.weight', 'course.scores-shape'], 'after the chapter\'s own exercises');
  const weight = references(config, side, { head: 1, query: 3, key: 2 }).attention_weight;
  // Posed: the list gives its prompt once the catalogue is in.
  await session.answer('course.scores-shape', '1×4×6×6');
  const listed = session.list().find((e) => e.id === 'course.weight');
  assert.equal(listed.prompt, 'Head 2: the weight of 3 on 2?');
  assert.equal(listed.kind, 'number');
  // A first wrong answer: the author's hint, filled; no answer shown.
  const wrong = await session.answer('course.weight', String(weight + 0.05));
  assert.deepEqual(wrong, { correct: false, hint: 'Row 3 of head 2 sums to 1.' });
  // The second try, right within the tolerance: the core's answer and the default explanation.
  const right = await session.answer('course.weight', String(weight + 0.009));
  assert.equal(right.correct, true);
  assert.ok(Math.abs(right.expected - weight) < 1e-5, `${right.expected} vs ${weight}`);
  assert.match(right.explanation, /The engine computes attention_weight = 0\.\d+ for this layer\./);
  assert.equal(right.first_try, false);
  // Progress counts them; the attempts and the completion carry statements that validate.
  const attempts = events.filter((e) => e.type === 'attempt').map((e) => e.detail);
  assert.equal(attempts.length, 3);
  for (const a of attempts) {
    assert.deepEqual(validateStatement(a.statement), [], JSON.stringify(a.statement));
    assert.equal(a.statement.object.id, `urn:attention-playground:exercise:${a.id}`);
    assert.equal(a.statement.result.success, a.correct);
    assert.equal(a.statement.context.contextActivities.parent[0].id, 'urn:attention-playground:chapter:attention');
  }
  assert.equal(attempts[0].statement.object.definition.interactionType, 'fill-in');
  assert.equal(attempts[1].statement.object.definition.description['en-US'], 'Head 2: the weight of 3 on 2?');
  const last = events.filter((e) => e.type === 'progress').at(-1).detail;
  const mine = ['course.weight', 'course.scores-shape'];
  assert.equal(mine.every((id) => session.view().items.find((i) => i.id === id).status.correct), true);
  assert.equal(last.total, ids.length);
  assert.equal('statement' in last, false, 'no "completed" statement before every exercise of the chapter is done');
});

test('a "completed" statement rides on the progress event that finishes the set, once', async () => {
  const events = [];
  const lesson = { exercises: [{ id: 'course.total', chapter: 'attention', kind: 'number', prompt: 'Parameters of this layer (d_model {d_model})?', answer: { quantity: 'params.total' } },
    { id: 'course.dom', chapter: 'attention', kind: 'choice', prompt: 'Which dominates?', answer: { quantity: 'flops.dominant' },
      choices: [{ key: 'projections', label: 'projections' }, { key: 'attention', label: 'attention' }], explanation: 'The engine says {expected}.' }] };
  const { state, check, side } = layerOf(LAYERS[0]);
  const { authored: exercises } = readLesson(lesson, hasText);
  const session = createExerciseSession({ catalogue: EXERCISES, authored: exercises, statements: () => STATEMENTS, solve: (payload) => handlers.solve(payload, side),
    state: () => ({ ...state, exercises: 'course.total,course.dom' }), check: () => check, emit: (type, detail) => events.push({ type, detail }) });
  const c = check.config;
  const total = references(c, side, { head: 0, query: 0, key: 0 })['params.total'];
  assert.equal((await session.answer('course.total', String(total))).correct, true);
  const dom = await session.answer('course.dom', 'attention'); // n_q 6 < d_model 16: projections
  assert.equal(dom.correct, false);
  const revealed = await session.reveal('course.dom');
  assert.equal(revealed.expected, 'projections');
  assert.equal(revealed.explanation, 'The engine says projections.');
  const progress = events.filter((e) => e.type === 'progress').map((e) => e.detail);
  const stated = progress.filter((p) => p.statement);
  assert.equal(stated.length, 1, 'one completion');
  assert.deepEqual(validateStatement(stated[0].statement), []);
  assert.equal(stated[0].statement.verb.id, 'http://adlnet.gov/expapi/verbs/completed');
  assert.deepEqual(stated[0].statement.result.score, { scaled: 0.5, raw: 1, min: 0, max: 2 });
  await session.answer('course.dom', 'projections'); // practice after done: no second completion
  assert.equal(events.filter((e) => e.type === 'progress' && e.detail.statement).length, 1);
});

test('an argument outside the live layer makes the exercise unavailable, naming it', () => {
  const lesson = good();
  lesson.exercises[0].answer.head = 9;
  const { session } = sessionWith(lesson, LAYERS[0], []);
  return session.answer('course.weight', '0.1').then(() => assert.fail('answered'), (err) => {
    assert.match(err.message, /course\.weight asks about head 9, outside this layer \(0…3: n_heads is 4\)/);
    // It keeps its step, so that step's exercises say why (a hostile probe: it was shown at no step, yet counted).
    const item = session.view().items.find((i) => i.id === 'course.weight');
    assert.match(item.unavailable, /head 9, outside this layer/);
    assert.equal(item.step, lesson.exercises[0].step ?? STEP_COUNTS[lesson.exercises[0].chapter]);
  });
});

test('overrides are looked up when shown: a table built at load shows an author\'s words registered later', () => {
  const table = textsOf({ title: 'chapter.attention.title' }, { fixed: 'kept' });
  const before = table.title;
  const release = useText({ 'chapter.attention.title': 'Mine' }, 'en', { check: false });
  assert.equal(table.title, 'Mine');
  assert.equal(text('chapter.attention.title'), 'Mine');
  release();
  assert.equal(table.title, before);
  assert.equal(table.fixed, 'kept');
  assert.throws(() => useText({ 'no.such': 'x' }), /unknown lesson text id: no\.such/);
  // The placeholders a quantity's prompt may name include the layer's sizes and its own arguments.
  assert.deepEqual(placeholdersOf('params.total'), ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'n_q', 'n_k', 'batch']);
  assert.ok(placeholdersOf('attention_weight').includes('key_word'));
});

test('npm run lesson-template prints every lesson text id with its English words, as a lesson file', () => {
  const script = fileURLToPath(new URL('../../scripts/lesson_ids.mjs', import.meta.url));
  const printed = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  assert.deepEqual(Object.keys(printed), ['text']);
  const ids = Object.keys(printed.text);
  assert.ok(ids.length > 500, `${ids.length} ids`);
  for (const id of ['chapter.attention.title', 'exercise.hint.cost.dominant', 'heatmaps.built_look_token_just', 'author.default_hint']) {
    assert.ok(ids.includes(id), id);
  }
  assert.equal(printed.text['chapter.attention.title'], text('chapter.attention.title'));
  // A translation is that file with the words changed: it passes the check as it is.
  assert.deepEqual(lessonProblems(printed, context), []);
});

// ---- web/EMBED.md's own section, held to the code ----

const EMBED = readFileSync(new URL('../../web/EMBED.md', import.meta.url), 'utf8');
const OWN = EMBED.slice(EMBED.indexOf('## Your own words and exercises'), EMBED.indexOf('## Grades in an LMS'));

test('EMBED.md lists every quantity, in order, with its kinds, arguments and meaning from quantities.js', () => {
  const block = /<!-- quantities:start[^>]*-->\n([\s\S]*?)<!-- quantities:end -->/.exec(OWN)?.[1];
  assert.ok(block, 'the quantities table is between its markers');
  const rows = block.trim().split('\n').slice(2).map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim()));
  assert.deepEqual(rows.map(([name]) => name), QUANTITY_NAMES.map((n) => `\`${n}\``));
  for (const [name, kinds, args, what] of rows) {
    const q = QUANTITIES[name.slice(1, -1)];
    assert.equal(kinds, q.kinds.join(', '), name);
    assert.equal(args, [...q.args, ...(q.optional ?? []).map((a) => `${a}?`)].join(', ') || '—', name);
    assert.equal(what, q.what, name);
  }
});

test('EMBED.md\'s example lesson is a good lesson file, and the placeholders it documents are the ones allowed', () => {
  const snippet = /```html\n([\s\S]*?)```/.exec(OWN)[1];
  const json = /<script type="application\/json" slot="lesson">([\s\S]*?)<\/script>/.exec(snippet)[1];
  const lesson = JSON.parse(json);
  assert.deepEqual(lessonProblems(lesson, context), []);
  assert.deepEqual(lesson.exercises.map((e) => e.answer.quantity), ['attention_weight', 'params.total', 'flops.dominant']);
  const documented = [...OWN.split('\n').find((l) => l.startsWith('| `prompt` |')).matchAll(/`\{(\w+)\}`/g)].map((m) => m[1]);
  assert.deepEqual(documented.sort(), placeholdersOf('attention_weight').sort());
});
