// xAPI statements from the playground's events (pure: no DOM, no network): an `attempt` event's detail
// becomes an "answered" statement about that exercise, a `progress` detail with every exercise done a
// "completed" statement about the chapter. The host supplies the learner (actor), which the playground
// never knows, and posts the statements to its learning record store. Scores sent from a learner's
// browser can be forged: they are formative, not proof.

import { interactionOf, responseText } from './responses.js';
import { isoDuration } from './time.js';

export const VERBS = Object.freeze({
  answered: Object.freeze({ id: 'http://adlnet.gov/expapi/verbs/answered', display: Object.freeze({ 'en-US': 'answered' }) }),
  completed: Object.freeze({ id: 'http://adlnet.gov/expapi/verbs/completed', display: Object.freeze({ 'en-US': 'completed' }) }),
});
const INTERACTION = 'http://adlnet.gov/expapi/activities/cmi.interaction';
const LESSON = 'http://adlnet.gov/expapi/activities/lesson';
/** The default namespace of the activities' IRIs: the same for an exercise wherever it is hosted. */
export const DEFAULT_BASE = 'urn:attention-playground:';
const IFIS = ['mbox', 'mbox_sha1sum', 'openid', 'account'];

/** The stable IRI of an exercise and of a chapter under `base` (a URN prefix, or an http(s) folder ending in /). */
export const exerciseIri = (id, base = DEFAULT_BASE) => `${base}${base.endsWith(':') ? 'exercise:' : 'exercises/'}${encodeURIComponent(id)}`;
export const chapterIri = (chapter, base = DEFAULT_BASE) => `${base}${base.endsWith(':') ? 'chapter:' : 'chapters/'}${encodeURIComponent(chapter)}`;

function checkActor(actor) {
  const given = actor && typeof actor === 'object' ? IFIS.filter((k) => actor[k] != null) : [];
  if (given.length !== 1) {
    throw new Error(`an xAPI statement needs the learner as actor, an Agent with exactly one of ${IFIS.join(', ')} (e.g. { mbox: 'mailto:learner@example.org' }); got ${JSON.stringify(actor)}`);
  }
  if (actor.mbox != null && !/^mailto:[^@\s]+@[^@\s]+$/.test(String(actor.mbox))) {
    throw new Error(`the actor's mbox must be a mailto: address (e.g. 'mailto:learner@example.org'); got ${JSON.stringify(actor.mbox)}`);
  }
  return { objectType: 'Agent', ...actor };
}

/** A statement's timestamp as ISO 8601 text (from a Date or any text Date reads), or an error naming the value. */
function isoTime(timestamp) {
  const at = new Date(timestamp);
  if (Number.isNaN(at.getTime())) throw new Error(`timestamp ${JSON.stringify(String(timestamp))} is not a time (give a Date or ISO 8601 text)`);
  return at.toISOString();
}

function checkBase(base) {
  if (!/^(urn:[a-z0-9][a-z0-9-]{0,31}:|https?:\/\/[^\s]+\/)$/i.test(base)) throw new Error(`base ${JSON.stringify(base)} is not an IRI prefix: give a URN ending in ":" or an http(s) address ending in "/"`);
  return base;
}

const parentOf = (chapter, base) => ({
  objectType: 'Activity', id: chapterIri(chapter, base),
  definition: { type: LESSON, name: { 'en-US': `Attention Playground: ${chapter}` } },
});

/**
 * The "answered" statement of an `attempt` detail ({ id, chapter, correct, answer, expected, attempts }).
 * options: { actor (required), base, kind and prompt (the exercise's, from `exercises`; the kind is
 * guessed from the answer without it), durationMs (time spent on it), timestamp (a Date or ISO text) }.
 */
export function answeredStatement(detail, { actor, base = DEFAULT_BASE, kind, prompt, durationMs, timestamp } = {}) {
  if (!detail || typeof detail.id !== 'string' || typeof detail.correct !== 'boolean') {
    throw new Error('answeredStatement needs an attempt event\'s detail: { id, chapter, correct, answer, expected, attempts }');
  }
  checkBase(base);
  const { type, response } = interactionOf(kind, detail.answer);
  // The right answer when the learner has been told it (none after a first wrong try: the answer stays
  // hidden, so the statement names no correct response); a cell: every key that is right.
  const expected = detail.expected == null ? [] : Array.isArray(detail.expected) && type === 'numeric' ? detail.expected : [detail.expected];
  const patterns = expected.map((v) => responseText(type, v, kind)).filter((v) => v != null && v !== '');
  const definition = { type: INTERACTION, interactionType: type, name: { 'en-US': detail.id } };
  if (prompt) definition.description = { 'en-US': String(prompt) };
  if (patterns.length) definition.correctResponsesPattern = patterns;
  const result = { success: detail.correct, completion: true, response };
  // A right answer typed after the answer was shown is practice: it scores nothing (EMBED.md), so it carries no score.
  if (!(detail.correct && detail.revealed === true)) result.score = { scaled: detail.correct ? 1 : 0, raw: detail.correct ? 1 : 0, min: 0, max: 1 };
  if (durationMs != null) result.duration = isoDuration(durationMs);
  const statement = {
    actor: checkActor(actor), verb: VERBS.answered,
    object: { objectType: 'Activity', id: exerciseIri(detail.id, base), definition },
    result,
    context: { contextActivities: { parent: [parentOf(detail.chapter ?? detail.id.split('.')[0], base)] } },
  };
  if (timestamp) statement.timestamp = isoTime(timestamp);
  return statement;
}

/**
 * The "completed" statement of a `progress` detail ({ chapter, done, total, score }) once every
 * exercise is done, else null. options: { actor (required), base, mastery (0–100: adds success),
 * durationMs, timestamp }. The score is the share answered right (progress.score).
 */
export function completedStatement(progress, { actor, base = DEFAULT_BASE, mastery, durationMs, timestamp } = {}) {
  if (!progress || !Number.isInteger(progress.done) || !Number.isInteger(progress.total) || typeof progress.chapter !== 'string') {
    throw new Error('completedStatement needs a progress event\'s detail: { chapter, done, total, score }');
  }
  checkBase(base);
  if (!progress.total || progress.done < progress.total) return null;
  const scaled = Math.min(1, Math.max(0, Number(progress.score) || 0));
  const result = { score: { scaled, raw: Math.round(scaled * progress.total), min: 0, max: progress.total }, completion: true };
  if (mastery != null) result.success = scaled * 100 >= mastery;
  if (durationMs != null) result.duration = isoDuration(durationMs);
  const statement = { actor: checkActor(actor), verb: VERBS.completed, object: parentOf(progress.chapter, base), result };
  if (timestamp) statement.timestamp = isoTime(timestamp);
  return statement;
}
