// Issue 36's `step` kind (attention.follow-step): a faded worked example of one query through a tiny head.
// Every stage's answer (score, scaled score, max, exponential, sum, weight, output coordinate) against a
// naive float64 loop on the exercise's q, K and V; the session's place (right → next stage, a hint after a
// first wrong try, the stage's number after the second or on reveal()), the fading (each right answer
// hides one more of the next stage's numbers), the stored entry once the sequence ends, the events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/src/engine/attention.js';
import { validate } from '../../web/src/model/validate.js';
import { defaults, withChanges } from '../../web/src/model/schema.js';
import { handlers } from '../../web/src/features/exercises/handler.js';
import { createExerciseSession } from '../../web/src/lesson/exercises/session.js';
import { EXERCISES } from '../../web/src/lesson/exercises/catalogue.js';
import { STEP_CASE } from '../../web/src/lesson/chapters/attention/step_exercises.js';

const attn = await loadAttention();
const ID = 'attention.follow-step';

/** The stages in float64, straight from q, K and V: { score, scaled, max, exp, sum, weight, output } (rows). */
function float64Stages({ q, k, v }) {
  const scores = k.map((row) => row.reduce((s, x, t) => s + x * q[t], 0));
  const scaled = scores.map((s) => s / Math.sqrt(q.length));
  const max = Math.max(...scaled);
  const exp = scaled.map((s) => Math.exp(s - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  const weights = exp.map((e) => e / sum);
  const output = v[0].map((_, x) => weights.reduce((s, w, j) => s + w * v[j][x], 0));
  return { score: scores, scaled, max, exp, sum, weight: weights, output };
}
const REF = float64Stages(STEP_CASE);
const answerOf = (stage) => (stage.at === undefined ? REF[stage.name] : REF[stage.name][stage.at]);

function sessionFor(events = [], storage = null) {
  const state = { ...defaults(), exercises: ID };
  const check = validate(state, { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget });
  const side = { attn, labs: () => attn.labs(), prepared: () => { throw new Error('a step exercise needs no live layer'); } };
  return createExerciseSession({ catalogue: EXERCISES, solve: (payload) => handlers.solve(payload, side), state: () => state, check: () => check,
    scope: storage ? 'page' : null, storage, emit: (type, detail) => events.push({ type, detail }) });
}

test('every stage right at the first try, with float64 numbers: the worked example fades, the entry is right at the first try', async () => {
  const events = [];
  const session = sessionFor(events);
  assert.equal(session.view().items[0].kind, 'step');
  let worked = await session.worked(ID);
  // Stage 0 (a score): the other keys' scores are worked; nothing later is on show.
  assert.deepEqual(worked.rows.scores.map((x) => x === null), [false, true, false, false]);
  assert.equal(worked.rows.scaled.every((x) => x === null), true);
  assert.equal(worked.rows.max, null);
  for (const [i, stage] of STEP_CASE.stages.entries()) {
    worked = await session.worked(ID);
    assert.equal(worked.stage, i);
    assert.equal(worked.ask, stage.name);
    // The asked number is never on show; with i right answers before, i more of its row are hidden too.
    const row = worked.rows[{ score: 'scores', weight: 'weights' }[stage.name] ?? stage.name];
    if (Array.isArray(row)) {
      assert.equal(row[stage.at], null, `stage ${stage.name}: the asked number is hidden`);
      assert.equal(row.filter((x) => x === null).length, Math.min(row.length, i + 1), `stage ${stage.name}: ${i} right answers hide ${i} more`);
    } else assert.equal(row, null);
    // The stages before are whole, and equal float64 within float32 rounding.
    if (i > 0) assert.ok(Math.abs(worked.rows.scores[1] - REF.score[1]) < 1e-5);
    const r = await session.answer(ID, answerOf(stage));
    assert.equal(r.correct, true, `stage ${stage.name}: the float64 answer ${answerOf(stage)} is right (engine ${r.expected})`);
    assert.ok(Math.abs(r.expected - answerOf(stage)) <= 1e-5 * Math.max(1, Math.abs(answerOf(stage))), `stage ${stage.name}: engine ${r.expected}, float64 ${answerOf(stage)}`);
    assert.equal(r.stage, stage.name);
    assert.equal(r.next, STEP_CASE.stages[i + 1]?.name ?? null);
    assert.match(r.explanation, /Usual mistake/);
  }
  worked = await session.worked(ID);
  assert.equal(worked.ask, null, 'finished: nothing asked, every number shown');
  assert.ok(Object.values(worked.rows).every((row) => row !== null && (!Array.isArray(row) || row.every((x) => x !== null))));
  assert.deepEqual(session.progress().done, 1);
  assert.deepEqual({ score: session.progress().score, first_try: session.progress().first_try }, { score: 1, first_try: 1 });
  const attempts = events.filter((e) => e.type === 'attempt').map((e) => e.detail);
  assert.deepEqual(attempts.map((d) => d.stage), STEP_CASE.stages.map((s) => s.name), 'one attempt event per stage, naming it');
  assert.deepEqual([attempts.at(-1).first_try, attempts.at(-1).revealed], [true, false]);
});

test('a wrong try gets the stage\'s hint without its number; a second wrong one or reveal() gives it and moves on; the entry is then revealed', async () => {
  const session = sessionFor();
  const wrong = await session.answer(ID, 99);
  assert.deepEqual(Object.keys(wrong).sort(), ['correct', 'hint', 'stage']);
  assert.equal(wrong.correct, false);
  assert.doesNotMatch(wrong.hint, /\b3\b/);
  assert.equal((await session.worked(ID)).stage, 0, 'the same stage: a second try');
  const second = await session.answer(ID, '98');
  assert.equal(second.correct, false);
  assert.equal(second.expected, 3);
  assert.equal((await session.worked(ID)).stage, 1, 'after the second wrong try the next stage');
  const shown = await session.reveal(ID);
  assert.equal(shown.stage, 'scaled');
  assert.ok(Math.abs(shown.expected - REF.scaled[1]) < 1e-6);
  assert.equal((await session.worked(ID)).stage, 2);
  // A typo is an error naming the problem, and costs no try.
  await assert.rejects(session.answer(ID, 'max'), /attention\.follow-step expects a number, got “max”/);
  for (const stage of STEP_CASE.stages.slice(2)) assert.equal((await session.answer(ID, answerOf(stage))).correct, true);
  assert.deepEqual({ done: session.progress().done, score: session.progress().score, first_try: session.progress().first_try }, { done: 1, score: 0, first_try: 0 });
  // Done: an answer is practice against the last stage and scores nothing.
  const again = await session.answer(ID, answerOf(STEP_CASE.stages.at(-1)));
  assert.equal(again.correct, true);
  assert.equal(session.progress().score, 0);
});

test('the tolerance: within 1 % or ±0.005 of the engine\'s number counts', async () => {
  const session = sessionFor();
  assert.equal((await session.answer(ID, 3.02)).correct, true, 'a score 3.02 for 3 is within 1 %');
  const far = await session.answer(ID, REF.scaled[1] + 0.05);
  assert.equal(far.correct, false);
});
