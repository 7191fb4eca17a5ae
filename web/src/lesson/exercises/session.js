// A playground's exercise session with its grading at hand (grading.js imported, not loaded on first use):
// the session the tests and any Node caller make. The playground's own (features/exercises/service.js)
// makes lazy_session.js's with the grading from dist/panels.js, so the first view's bundle holds none of it.

import * as grading from './grading.js';
import { createLazySession } from './lazy_session.js';

/** lazy_session.js's createLazySession, graded by grading.js (options as there; `grading` is this one). */
export const createExerciseSession = (options) => createLazySession({ ...options, grading });
