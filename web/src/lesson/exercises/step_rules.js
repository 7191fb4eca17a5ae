// A step exercise's place in its sequence of stages (issue 36's `step` kind), pure: the session keeps one
// per exercise while the learner works through it. Each stage follows the exercises' rules: a wrong answer
// gets the stage's hint and a second try; a right one, a second wrong one or "Show answer" gives the
// stage's number and moves on. The exercise's entry ({ attempts, correct, first, revealed }) is stored once
// the last stage is passed: right when no stage's number was shown first, first when every stage was
// right at its first try. A reload before the end starts the sequence again.

import { TRIES } from './index.js';

/** The place before any answer: stage 0, `passed` right answers so far (they fade the worked example). */
export const stepStart = () => ({ stage: 0, tries: 0, passed: 0, attempts: 0, slipped: false, shown: false });

/** The place after an answer to the current stage (`correct`). */
export function stepAfterAnswer(p, correct) {
  const attempts = p.attempts + 1;
  if (correct) return { ...p, attempts, stage: p.stage + 1, tries: 0, passed: p.passed + 1, slipped: p.slipped || p.tries > 0 };
  if (p.tries + 1 >= TRIES) return { ...p, attempts, stage: p.stage + 1, tries: 0, slipped: true, shown: true };
  return { ...p, attempts, tries: p.tries + 1, slipped: true };
}

/** The place after "Show answer" at the current stage. */
export const stepAfterReveal = (p) => ({ ...p, stage: p.stage + 1, tries: 0, shown: true });

/** The entry stored once the sequence is finished. */
export const stepEntry = (p) => ({ attempts: p.attempts, correct: !p.shown, first: !p.shown && !p.slipped, revealed: p.shown });

/**
 * What one answer (correct: true/false) or reveal (correct: null) at a stage tells: { verdict, detail, result },
 * as rules.js's answerOutcome, with `stage` (the stage's name) and `next` (the next one's, null at the end).
 * stage: { name, expected (hostExpected's), explanation, hint }; entry: the exercise's (stored) entry.
 */
export function stepOutcome({ id, chapter, key, given, correct, before, place, stage, next, entry }) {
  const flags = { first_try: entry.first, revealed: entry.revealed };
  const moved = place.stage > before.stage;
  if (correct === false && !moved) {
    return { verdict: { key, correct: false, answer: given, hint: stage.hint }, detail: { id, chapter, correct, answer: given, attempts: place.attempts, stage: stage.name, ...flags },
      result: { correct: false, hint: stage.hint, stage: stage.name } };
  }
  const told = { expected: stage.expected, explanation: stage.explanation, stage: stage.name, next };
  return {
    verdict: { key, correct, answer: correct === null ? null : given, expected: stage.expected, explanation: stage.explanation, stage: stage.name },
    detail: correct === null ? null : { id, chapter, correct, answer: given, expected: stage.expected, attempts: place.attempts, stage: stage.name, ...flags },
    result: correct === null ? { ...told, ...flags } : { correct, ...told, ...flags },
  };
}
