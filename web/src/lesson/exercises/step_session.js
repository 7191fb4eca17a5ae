// The session's part for `step` exercises (issue 36): each one's place in its sequence of stages
// (step_rules.js), an answer or a reveal at the current stage graded against the core's number for
// it, and the worked numbers on show now. The entry is stored once the last stage is passed.

import { matches } from './answers.js';
import { isDone, chapterOf } from './index.js';
import { NO_ENTRY, afterAnswer, hostExpected } from './rules.js';
import { stepStart, stepAfterAnswer, stepAfterReveal, stepEntry, stepOutcome } from './step_rules.js';

/**
 * ctx: { solveCalls(item) → promise of { results }, stored() → the record, records (recordStore's),
 * alive() → false once the playground is removed, done() → how many shown are done, tell(id, outcome, item,
 * done before) (the latest verdict, events, redraw) }.
 */
export function stepSession({ solveCalls, stored, records, alive, tell, done }) {
  // One finished before this visit is shown whole.
  const places = new Map();
  const placeOf = (id) => places.get(id) ?? (isDone(stored()[id]) ? { ...stepStart(), stage: Infinity } : stepStart());

  /** An answer (`given`) or a reveal (given undefined) at the current stage: answer()'s or reveal()'s result. */
  async function answer(id, item, def, given) {
    const { results } = await solveCalls(item);
    if (!alive()) throw new Error('this playground was removed');
    const count = item.sequence.stages.length, before = placeOf(id), finished = before.stage >= count, doneBefore = done();
    const s = def.stage(item.params, results, Math.min(before.stage, count - 1));
    const correct = given === undefined ? null : matches(item, given, s.expected);
    const place = finished ? before : correct === null ? stepAfterReveal(before) : stepAfterAnswer(before, correct);
    places.set(id, place);
    const was = stored()[id];
    // Once finished, an answer is practice (the rules' afterAnswer: counted, scores nothing).
    const entry = finished ? (correct === null ? was ?? NO_ENTRY : afterAnswer(was, correct)) : place.stage >= count ? stepEntry(place) : NO_ENTRY;
    if (entry !== NO_ENTRY && entry !== was) records.set(id, entry);
    const next = place.stage < count ? item.sequence.stages[place.stage].name : null;
    const out = stepOutcome({ id, chapter: chapterOf(id), key: item.key, given, correct, before, place, next, entry,
      stage: { ...s, expected: hostExpected(s.expected) } });
    tell(id, out, item, doneBefore);
    return out.result;
  }

  /** What the exercise shows now (its worked numbers, the asked one hidden): { stage, count, ask, rows }. */
  async function worked(id, item, def) {
    if (item.kind !== 'step') throw new Error(`${id} is not a step exercise`);
    const { results } = await solveCalls(item);
    return def.worked(item.params, results, placeOf(id));
  }

  return { answer, worked, clear: () => places.clear() };
}
