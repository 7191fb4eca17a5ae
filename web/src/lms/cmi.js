// SCORM's data model as this playground uses it (pure, no API calls): the two versions' function and
// element names, the score from first tries, the statuses against a mastery score, the values one
// attempt writes as an interaction, and the suspend_data that lets a relaunch resume what was answered.

import { scorm12Time, isoDuration } from './time.js';
import { entryOf, isDone } from '../lesson/exercises/index.js';

/** The names that differ between SCORM 1.2 and SCORM 2004 (4th edition). */
export const VERSIONS = Object.freeze({
  '1.2': Object.freeze({
    api: 'API', initialize: 'LMSInitialize', terminate: 'LMSFinish', getValue: 'LMSGetValue', setValue: 'LMSSetValue',
    commit: 'LMSCommit', lastError: 'LMSGetLastError', errorString: 'LMSGetErrorString', diagnostic: 'LMSGetDiagnostic',
    response: 'student_response', wrong: 'wrong', suspendMax: 4096, exit: 'cmi.core.exit', sessionTime: 'cmi.core.session_time',
    mastery: 'cmi.student_data.mastery_score', time: scorm12Time,
  }),
  2004: Object.freeze({
    api: 'API_1484_11', initialize: 'Initialize', terminate: 'Terminate', getValue: 'GetValue', setValue: 'SetValue',
    commit: 'Commit', lastError: 'GetLastError', errorString: 'GetErrorString', diagnostic: 'GetDiagnostic',
    response: 'learner_response', wrong: 'incorrect', suspendMax: 64000, exit: 'cmi.exit', sessionTime: 'cmi.session_time',
    mastery: 'cmi.scaled_passing_score', time: isoDuration,
  }),
});

/** The version a name ('1.2', 'scorm12', '2004', 'scorm2004') means, or null. */
export function versionOf(name) {
  const text = String(name ?? '').toLowerCase().replace(/^scorm/, '');
  if (text === '12' || text === '1.2') return '1.2';
  if (text === '2004') return '2004';
  return null;
}

/** A mastery score 0–100 from the LMS's value (1.2: 0–100; 2004: scaled −1…1) or the author's, or null. */
export function masteryOf(version, fromLms, fromAuthor) {
  const read = (text, scale) => (String(text ?? '').trim() === '' ? NaN : Number(text) * scale);
  const lms = read(fromLms, version === '2004' ? 100 : 1);
  if (Number.isFinite(lms) && lms >= 0 && lms <= 100) return lms;
  const author = read(fromAuthor, 1);
  return Number.isFinite(author) && author >= 0 && author <= 100 ? author : null;
}

/**
 * { done, total, right, raw } of the exercises `ids` in `record` ({ id: { attempts, correct, first, revealed } },
 * the playground's entries): done = right or shown (the page's own count, lesson/exercises/index.js isDone),
 * right = right on the first attempt, raw = right as a whole percentage of total.
 */
export function scoreOf(ids, record) {
  const done = ids.filter((id) => isDone(record[id])).length;
  const right = ids.filter((id) => record[id]?.first).length;
  return { done, total: ids.length, right, raw: ids.length ? Math.round((100 * right) / ids.length) : 0 };
}

/**
 * The statuses of a score: completion (every exercise done) and success against the mastery
 * score (passed once the score reaches it, failed when every exercise is done below it, unknown before
 * that or with no mastery score). SCORM 1.2 has one lesson_status for both.
 */
export function statusOf({ done, total, raw }, mastery) {
  const complete = done >= total;
  const success = mastery == null ? 'unknown' : raw >= mastery ? 'passed' : complete ? 'failed' : 'unknown';
  const lesson = success !== 'unknown' ? success : complete ? 'completed' : 'incomplete';
  return { completion: complete ? 'completed' : 'incomplete', success, lesson };
}

/** The [element, value] pairs that report a score and its statuses. */
export function scoreValues(version, score, mastery) {
  const status = statusOf(score, mastery);
  if (version === '1.2') {
    return [['cmi.core.score.min', '0'], ['cmi.core.score.max', '100'], ['cmi.core.score.raw', String(score.raw)], ['cmi.core.lesson_status', status.lesson]];
  }
  const pairs = [['cmi.score.min', '0'], ['cmi.score.max', '100'], ['cmi.score.raw', String(score.raw)], ['cmi.score.scaled', String(score.raw / 100)],
    ['cmi.progress_measure', String(score.total ? Math.round((score.done / score.total) * 1e4) / 1e4 : 1)], ['cmi.completion_status', status.completion]];
  return status.success === 'unknown' ? pairs : [...pairs, ['cmi.success_status', status.success]];
}

/**
 * The [element, value] pairs of one attempt as interaction n: { id, type, response, correct } (a 1.2
 * choice as fill-in) and, in 2004, description (the prompt, ≤ 250 characters) and timestamp (an ISO 8601 time, to the second).
 */
export function interactionValues(version, n, { id, type, response, correct, description, timestamp }) {
  const names = VERSIONS[version], at = `cmi.interactions.${n}.`;
  // SCORM 1.2 allows a choice response of single characters (a–z, 0–9) only: the choice's key goes as fill-in text.
  const pairs = [[`${at}id`, id], [`${at}type`, version === '1.2' && type === 'choice' ? 'fill-in' : type]];
  if (version === '2004') {
    if (timestamp) pairs.push([`${at}timestamp`, timestamp]);
    if (description) pairs.push([`${at}description`, String(description).replace(/\s+/g, ' ').slice(0, 250)]);
  }
  pairs.push([`${at}${names.response}`, response], [`${at}result`, correct ? 'correct' : names.wrong]);
  return pairs;
}

/** The record as suspend_data: {"v":1,"r":{"id":[attempts,correct,first,revealed]}} (0/1 flags; ~40 characters an exercise). */
export function encodeSuspend(record) {
  const r = Object.fromEntries(Object.entries(record).map(([id, e]) => [id, [e.attempts, e.correct ? 1 : 0, e.first ? 1 : 0, e.revealed ? 1 : 0]]));
  return JSON.stringify({ v: 1, r });
}

/** suspend_data read back as a record ({} when empty or not this playground's). */
export function decodeSuspend(text) {
  let parsed;
  try {
    parsed = JSON.parse(text || '{}');
  } catch {
    return {};
  }
  const out = {};
  for (const [id, e] of Object.entries(parsed?.v === 1 ? parsed.r ?? {} : {})) {
    // Read as the playground reads its own record (entryOf): an entry written before `revealed` was kept
    // (three flags) is shown once its tries are used up without a right answer.
    const entry = Array.isArray(e) && Number.isInteger(e[0]) && e[0] >= 0 ? entryOf({ attempts: e[0], correct: e[1] === 1, first: e[2] === 1, revealed: e[3] === 1 }) : null;
    if (entry) out[id] = entry;
  }
  return out;
}
