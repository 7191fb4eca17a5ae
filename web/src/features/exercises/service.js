// What the exercises add to a playground besides their panel (the feature's service, see
// playground/feature_services.js): a session per playground (lesson/exercises/lazy_session.js) whose answers
// come from the core through this feature's `solve` request, the `attempt`, `progress` and `exercises`
// events, the API a host calls (exercises, answer(), reveal(), progress, clearProgress()), the actions the
// panel answers and shows an answer with, and each chapter's count of exercises done for the chapter list. Part of the first view's
// bundle; the exercises' text and the code that poses and grades them come with the panel's code
// (panels.js), loaded once one is shown, listed or answered.

import { createLazySession } from '../../lesson/exercises/lazy_session.js';
import { writeRecord } from '../../lesson/exercises/index.js';

/** The events the session emits; each maps the playground's detail to what a host passes on (element, frame, widget). */
export const events = Object.freeze({
  /** { id, chapter, correct, answer, expected (only once the answer is shown), attempts, first_try, revealed, statement (xAPI "answered") }. */
  attempt: (detail) => detail,
  /**
   * { chapter, done, total, score, first_try } (the playground's own detail also holds every chapter's counts), and
   * statement (xAPI "completed") on the one event whose answer or reveal finished the set shown.
   */
  progress: ({ chapter, done, total, score, first_try, statement }) => ({ chapter, done, total, score, first_try, ...(statement ? { statement } : {}) }),
  /** { chapter, exercises: [{ id, chapter, kind, prompt }] } once the prompts of the set shown are ready. */
  exercises: (detail) => detail,
});

/** Events a notebook may declare as a trait of the same name: the widget writes the host's detail there. */
export const traits = Object.freeze(['progress']);

/**
 * The API the session adds to the playground (create()'s `api`); `element` marks what <attention-playground>
 * offers too, with what it does while not in a document (detached(scope, …args); scope: where its progress is kept).
 */
export const api = Object.freeze({
  exercises: { get: true, element: { detached: () => [] } },
  answer: { element: { detached: () => Promise.reject(new Error('<attention-playground> answers once it is in a document')) } },
  reveal: { element: { detached: () => Promise.reject(new Error('<attention-playground> answers once it is in a document')) } },
  progress: { get: true },
  clearProgress: { element: { detached: (scope) => writeRecord(scope, {}) } }, // not in a document: the stored record alone
});

/**
 * ctx (playground/feature_services.js): { askHost, state(), check(), untilEngine(), scope, storage(), emit, changed(), loadCode() }.
 * Returns the playground's part: { api, actions, view(), chapterCounts(view), start(), destroy() }.
 */
export function create(ctx) {
  // Prompts from the live layer, answers from the core, attempts kept under the host's scope (none: not stored).
  const session = createLazySession({
    askHost: ctx.askHost, state: ctx.state, check: ctx.check, untilEngine: ctx.untilEngine, scope: ctx.scope, emit: ctx.emit, changed: ctx.changed,
    catalogue: () => Promise.all([ctx.loadCode(), ctx.lessonReady]).then(([panel]) => panel.EXERCISES), // from panels.js: their text stays out of the first bundle
    grading: () => ctx.loadCode().then((panel) => panel.GRADING), // posing and grading (lesson/exercises/grading.js), from panels.js too
    statements: () => ctx.bundle().then((code) => code.STATEMENTS), // the xAPI statements' code, from panels.js too
    // Read once the first result is drawn (start()): a page's first touch of localStorage opens it,
    // ~20–30 ms of a fresh tab's first view (the chapter list counts no attempts until then).
    storage: ctx.storage,
    deferred: true,
    authored: ctx.authored ?? [], // an author's exercises (the playground's `lesson`: web/src/author/)
    panelShown: ctx.panelShown, // a view whose `panels` leave this panel out shows the chapter's exercises to no one
  });
  const answer = (id, value) => session.answer(id, value);
  const reveal = (id) => session.reveal(id);
  return {
    api: {
      /**
       * The exercises shown ([{ id, chapter, kind, prompt }]: kind from the first read); answer(id, value) → Promise
       * of { correct, expected, explanation, first_try, revealed }, or { correct: false, hint } after a first wrong
       * try; reveal(id) ("Show answer") → Promise of { expected, explanation, first_try, revealed }.
       */
      get exercises() { return session.list(); },
      answer,
      reveal,
      /** { chapter, done, total, score, first_try, chapters, entries (every exercise's own) } of the exercises shown; clearProgress() forgets every attempt. */
      get progress() { return session.progress(); },
      clearProgress: () => session.clear(),
    },
    /** The learner's answer and "Show answer" from the panel take the host's path; worked(id): a step exercise's numbers on show. */
    actions: { answer, reveal, worked: (id) => session.worked(id) },
    view: () => session.view(),
    /** Per chapter { done, total }, for the chapter list. */
    chapterCounts: (view) => view?.progress?.chapters ?? null,
    start: () => session.start(), // reads the record (the chapter list's counts) and sends the progress event
    destroy: () => session.destroy(),
  };
}
