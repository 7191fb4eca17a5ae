// xAPI statements (web/src/lms/xapi.js) checked by an independent validator (xapi-validation, Learning
// Locker's rules of the xAPI 1.0.3 statement), and the exact fields this playground promises: the ADL
// verbs, a stable object IRI per exercise, result.score/success/response/duration, the chapter as the
// parent activity. Also the shared pieces: ISO 8601 and SCORM 1.2 durations, response formats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { answeredStatement, completedStatement, exerciseIri, chapterIri, VERBS } from '../../web/src/lms/xapi.js';
import { isoDuration, scorm12Time } from '../../web/src/lms/time.js';
import { decimalText, interactionOf } from '../../web/src/lms/responses.js';
import { anonymous } from '../../web/src/lms/event_statements.js';

const validate = createRequire(import.meta.url)('xapi-validation').default;
const actor = { mbox: 'mailto:learner@example.org', name: 'A learner' };

/** The validator's warnings as "path: type" lines (empty: valid). */
const problems = (statement) => validate(statement).map((w) => `${w.path.join('.')}: ${w.typeName ?? w.name} (${JSON.stringify(w.data)})`);

// Attempts as the playground's `attempt` event carries them (lesson/exercises/session.js), one per kind.
const ATTEMPTS = [
  [{ id: 'cost.params-bias', chapter: 'cost', correct: true, answer: 16640, expected: 16640, attempts: 1 }, 'number', 'numeric', '16640', ['16640']],
  [{ id: 'attention.uniform', chapter: 'attention', correct: false, answer: 0.25, expected: 0.1, attempts: 2 }, 'number', 'numeric', '0.25', ['0.1']],
  [{ id: 'cost.attention-shape', chapter: 'cost', correct: true, answer: [1, 4, 10, 10], expected: [1, 4, 10, 10], attempts: 1 }, 'shape', 'fill-in', '1x4x10x10', ['1x4x10x10']],
  [{ id: 'cost.dominant', chapter: 'cost', correct: false, answer: 'softmax', expected: 'projections', attempts: 1 }, 'choice', 'choice', 'softmax', ['projections']],
  [{ id: 'attention.strongest-key', chapter: 'attention', correct: true, answer: 1, expected: [1, 3], attempts: 1 }, 'cell', 'numeric', '1', ['1', '3']],
];

test('answered: each kind makes a statement the validator accepts, with the promised fields', () => {
  for (const [detail, kind, type, response, patterns] of ATTEMPTS) {
    const s = answeredStatement(detail, { actor, kind, prompt: `Prompt of ${detail.id}`, durationMs: 12340, timestamp: '2026-11-28T10:00:00Z' });
    assert.deepEqual(problems(s), [], detail.id);
    assert.equal(s.verb.id, 'http://adlnet.gov/expapi/verbs/answered');
    assert.equal(s.object.id, `urn:attention-playground:exercise:${detail.id}`);
    assert.equal(s.object.definition.type, 'http://adlnet.gov/expapi/activities/cmi.interaction');
    assert.equal(s.object.definition.interactionType, type, detail.id);
    assert.deepEqual(s.object.definition.correctResponsesPattern, patterns, detail.id);
    assert.equal(s.object.definition.description['en-US'], `Prompt of ${detail.id}`);
    assert.deepEqual(s.result, { score: { scaled: detail.correct ? 1 : 0, raw: detail.correct ? 1 : 0, min: 0, max: 1 }, success: detail.correct, completion: true, response, duration: 'PT12.34S' });
    assert.deepEqual(s.context.contextActivities.parent.map((p) => p.id), [`urn:attention-playground:chapter:${detail.chapter}`]);
    assert.equal(s.timestamp, '2026-11-28T10:00:00.000Z');
    assert.deepEqual(s.actor, { objectType: 'Agent', ...actor });
    // Without the kind (an iframe's message carries none) the answer's type decides, the same for these.
    if (kind !== 'cell') assert.equal(answeredStatement(detail, { actor }).object.definition.interactionType, type);
  }
});

test('the object IRI is stable per exercise, and an author\'s base gives resolvable ones', () => {
  const [detail] = ATTEMPTS[0];
  assert.equal(answeredStatement(detail, { actor }).object.id, answeredStatement({ ...detail, correct: false, attempts: 3 }, { actor }).object.id);
  assert.notEqual(exerciseIri('cost.params-bias'), exerciseIri('cost.params-nobias'));
  const s = answeredStatement(detail, { actor, base: 'https://courses.example.org/attention/' });
  assert.equal(s.object.id, 'https://courses.example.org/attention/exercises/cost.params-bias');
  assert.equal(s.context.contextActivities.parent[0].id, 'https://courses.example.org/attention/chapters/cost');
  assert.deepEqual(problems(s), []);
  assert.equal(chapterIri('gqa'), 'urn:attention-playground:chapter:gqa');
});

test('completed: only once every exercise is done; score, success against mastery, validated', () => {
  assert.equal(completedStatement({ chapter: 'cost', done: 4, total: 5, score: 0.6 }, { actor }), null);
  const s = completedStatement({ chapter: 'cost', done: 5, total: 5, score: 0.6 }, { actor, mastery: 80, durationMs: 61000 });
  assert.deepEqual(problems(s), []);
  assert.equal(s.verb.id, 'http://adlnet.gov/expapi/verbs/completed');
  assert.deepEqual(s.verb, VERBS.completed);
  assert.equal(s.object.id, 'urn:attention-playground:chapter:cost');
  assert.deepEqual(s.result, { score: { scaled: 0.6, raw: 3, min: 0, max: 5 }, completion: true, success: false, duration: 'PT1M1S' });
  assert.equal(completedStatement({ chapter: 'cost', done: 5, total: 5, score: 0.8 }, { actor, mastery: 80 }).result.success, true);
  assert.equal('success' in completedStatement({ chapter: 'cost', done: 5, total: 5, score: 0.8 }, { actor }).result, false);
});

test('bad input is refused naming the problem; the validator does reject a broken statement', () => {
  const [detail] = ATTEMPTS[0];
  assert.throws(() => answeredStatement(detail, {}), /needs the learner as actor.*mbox/);
  assert.throws(() => answeredStatement(detail, { actor: { name: 'no ifi' } }), /needs the learner as actor/);
  assert.throws(() => answeredStatement({ id: 'x' }, { actor }), /needs an attempt event's detail/);
  assert.throws(() => answeredStatement(detail, { actor, base: 'courses' }), /base "courses" is not an IRI prefix/);
  assert.throws(() => completedStatement({ done: 1 }, { actor }), /needs a progress event's detail/);
  // The independent check can fail: a statement with a relative verb and a bad duration is flagged.
  const broken = { ...answeredStatement(detail, { actor }), verb: { id: 'answered' } };
  broken.result = { ...broken.result, duration: '12 seconds' };
  assert.deepEqual(problems(broken).map((p) => p.split(':')[0]).sort(), ['statement.result.duration', 'statement.verb.id']);
});

test('durations: ISO 8601 (xAPI, SCORM 2004) and SCORM 1.2\'s CMITimespan', () => {
  const iso = [[0, 'PT0S'], [12340, 'PT12.34S'], [12300, 'PT12.3S'], [60000, 'PT1M'], [3723450, 'PT1H2M3.45S'], [3600000, 'PT1H'], [-5, 'PT0S']];
  for (const [ms, text] of iso) assert.equal(isoDuration(ms), text, `${ms} ms`);
  const cmi = [[0, '0000:00:00.00'], [12345, '0000:00:12.35'], [3723450, '0001:02:03.45'], [1e12, '9999:46:40.00']];
  for (const [ms, text] of cmi) assert.equal(scorm12Time(ms), text, `${ms} ms`);
  // Every ISO duration made matches the xAPI validator's own pattern.
  for (const [ms] of iso) assert.deepEqual(problems({ actor, verb: VERBS.answered, object: { id: 'urn:x:y' }, result: { duration: isoDuration(ms) } }), []);
});

test('responses: plain decimals for SCORM (no exponent), fill-in when a value does not fit its type', () => {
  assert.equal(decimalText(1.5e-7), '0.00000015');
  assert.equal(decimalText(0.1 + 0.2), '0.3');
  assert.equal(decimalText(-3), '-3');
  assert.equal(decimalText(1e11), null, 'more than 10 digits before the point');
  assert.deepEqual(interactionOf('number', 1e11), { type: 'fill-in', response: '100000000000' });
  assert.deepEqual(interactionOf('choice', 'two words'), { type: 'fill-in', response: 'two words' });
  assert.deepEqual(interactionOf('cell', 3), { type: 'numeric', response: '3' });
  assert.deepEqual(interactionOf(undefined, [2, 4]), { type: 'fill-in', response: '2x4' });
  // Every kind of exercise (lesson/exercises/answers.js KINDS) names its answer as text, never "[object Object]".
  assert.deepEqual(interactionOf('design', { d_k: 16, heads: 4 }), { type: 'fill-in', response: '{"d_k":16,"heads":4}' });
  assert.deepEqual(interactionOf('sketch', [0.1, 0.9]), { type: 'fill-in', response: '0.1,0.9' });
  assert.deepEqual(interactionOf('step', 0.25), { type: 'numeric', response: '0.25' });
  assert.deepEqual(interactionOf(undefined, { a: 1 }), { type: 'fill-in', response: '{"a":1}' });
});

test('a first wrong answer names no correct response; a right answer after the answer was shown scores nothing', () => {
  for (const [kind, answer] of [['choice', 'softmax'], ['number', 3], ['shape', [1, 2]], ['sketch', [0.5, 0.5]], ['design', { heads: 2 }], ['step', 1]]) {
    const s = answeredStatement({ id: 'cost.dominant', chapter: 'cost', correct: false, answer, attempts: 1 }, { actor, kind });
    assert.equal('correctResponsesPattern' in s.object.definition, false, `${kind}: ${JSON.stringify(s.object.definition.correctResponsesPattern)}`);
    assert.deepEqual(problems(s), []);
    assert.deepEqual(s.result.score, { scaled: 0, raw: 0, min: 0, max: 1 }, 'a wrong try scores 0');
  }
  const practice = answeredStatement({ id: 'cost.dominant', chapter: 'cost', correct: true, answer: 'projections', expected: 'projections', attempts: 2, revealed: true }, { actor, kind: 'choice' });
  assert.deepEqual([practice.result.success, 'score' in practice.result], [true, false]);
  assert.deepEqual(problems(practice), []);
});

test('the actor has exactly one identifier, an mbox is a mailto: address, a timestamp is a time', () => {
  const [detail] = ATTEMPTS[0];
  assert.throws(() => answeredStatement(detail, { actor: { mbox: 'mailto:a@b.org', account: { homePage: 'https://lms.example.org/', name: 'a' } } }), /exactly one of mbox/);
  assert.throws(() => answeredStatement(detail, { actor: { mbox: 'a@b.org' } }), /mbox must be a mailto: address/);
  assert.throws(() => answeredStatement(detail, { actor, timestamp: 'yesterday' }), /timestamp "yesterday" is not a time/);
  // The playground's own anonymous learner: an account whose homePage is a web address (the page's origin).
  assert.deepEqual(anonymous({ protocol: 'https:', origin: 'https://course.example.org' }).account, { homePage: 'https://course.example.org/', name: 'anonymous' });
  const s = answeredStatement(detail, { actor: anonymous({ protocol: 'http:', origin: 'http://127.0.0.1:8080' }) });
  assert.deepEqual(problems(s), []);
  assert.match(anonymous(undefined).account.homePage, /^https?:\/\//, 'outside a page too');
});
