// The exercises' rules, pure (no DOM, no engine): what one answer or one reveal does to an exercise's
// entry ({ attempts, correct, first, revealed }: index.js), and what the learner and the host are told.
// A wrong answer gets the hint and a second try; the answer comes with a right answer, after the second
// wrong try (TRIES) or on reveal; once done (right or revealed) an answer is practice and scores nothing.

import { TRIES, isDone } from './index.js';

export const NO_ENTRY = Object.freeze({ attempts: 0, correct: false, first: false, revealed: false });

/** The entry after an answer (`correct`: this answer is right). */
export function afterAnswer(before = NO_ENTRY, correct) {
  const attempts = before.attempts + 1;
  if (isDone(before)) return { ...before, attempts };
  if (correct) return { attempts, correct: true, first: before.attempts === 0, revealed: false };
  return { attempts, correct: false, first: false, revealed: attempts >= TRIES };
}

/** The entry after "Show answer": revealed, unless it was answered right before. */
export const afterReveal = (before = NO_ENTRY) => (isDone(before) ? before : { ...before, revealed: true });

/** What a reveal tells: { verdict (the view's latest), result (reveal()'s) }. */
export const revealOutcome = ({ key, core, entry }) => ({
  verdict: { key, correct: null, answer: null, expected: core.expected, explanation: core.explanation, weights: core.weights ?? null },
  result: { expected: core.expected, explanation: core.explanation, first_try: entry.first, revealed: entry.revealed },
});

/** The core's answer as a host is told it: a measured number to 6 significant digits (the comparison used the core's own). */
export const hostExpected = (expected) => (typeof expected === 'number' && !Number.isInteger(expected) ? Number(expected.toPrecision(6)) : expected);

/**
 * What an answer tells: { shown (the answer is shown), verdict (the view's latest: the hint, or the core's
 * answer), detail (the `attempt` event's), result (answer()'s) }. core: { expected (hostExpected's),
 * explanation, weights? }; hint(): the exercise's hint, asked only when it is shown.
 */
export function answerOutcome({ id, chapter, key, given, correct, entry, core, hint }) {
  const shown = correct || isDone(entry);
  const flags = { first_try: entry.first, revealed: entry.revealed };
  if (!shown) {
    const words = hint();
    // A design's rows (core.tryWeights) are what the learner's own setting does, not the answer: drawn with the hint too.
    const trial = core.tryWeights ? { weights: core.weights } : {};
    return { shown, verdict: { key, correct: false, answer: given, hint: words, ...trial }, detail: { id, chapter, correct, answer: given, attempts: entry.attempts, ...flags },
      result: { correct: false, hint: words } };
  }
  return {
    shown,
    verdict: { key, correct, answer: given, expected: core.expected, explanation: core.explanation, weights: core.weights ?? null },
    detail: { id, chapter, correct, answer: given, expected: core.expected, attempts: entry.attempts, ...flags },
    result: { correct, expected: core.expected, explanation: core.explanation, ...flags },
  };
}
