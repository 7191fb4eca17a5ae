// The page inside a SCORM package (scripts/scorm.mjs): its launch address says `?lms=1.2` or
// `?lms=2004` (and `mastery=`, the author's). Finds the LMS's API, opens the session, puts what an
// earlier launch answered (suspend_data) where the playground keeps its attempts, so the exercises show
// them, and reports the playground's `attempt` and `progress` events; terminates when the page goes.
// A page opened without `lms` loads nothing of this but the check.

import { findApi } from './api.js';
import { VERSIONS, versionOf } from './cmi.js';
import { openScorm } from './scorm.js';
import { storageKey, writeRecord } from '../lesson/exercises/index.js';

/** A visible line above the playground for problems with the LMS (also on the console). */
function noteMaker(doc) {
  let box = null;
  return (message) => {
    const text = `Results are not reaching the course: ${message}.`;
    console.warn(`attention-playground (LMS): ${text}`);
    if (!box) {
      box = doc.createElement('p');
      box.className = 'lms-note';
      box.setAttribute('role', 'status');
      box.style.cssText = 'margin:8px 12px;padding:6px 10px;border:1px solid #b4690e;border-radius:7px;background:#fff6e5;color:#5c3a00;font:14px/1.4 system-ui,sans-serif';
      doc.body.prepend(box);
    }
    box.textContent = text;
  };
}

/**
 * Opens the LMS session when the page was launched by a package; null otherwise (or when no LMS
 * answers, after saying so). Returns { scope (the playground's `progress` option), attach(playground) }.
 */
export function openLms(win) {
  const params = new URLSearchParams(win.location.search);
  if (!params.has('lms')) return null;
  const say = noteMaker(win.document);
  const version = versionOf(params.get('lms'));
  if (!version) {
    say(`lms=${params.get('lms').slice(0, 20)} is not a SCORM version (1.2 or 2004)`);
    return null;
  }
  const api = findApi(win, VERSIONS[version].api);
  if (!api) {
    say(`no SCORM ${version} LMS holds this page (no ${VERSIONS[version].api} object in its frames or its opener)`);
    return null;
  }
  const session = openScorm({ version, api, mastery: params.get('mastery'), say });
  if (!session) return null;
  // The LMS's record wins over whatever this browser kept (another learner, an older attempt).
  const scope = `${win.location.pathname}#lms`;
  let storage = null;
  try { storage = win.localStorage; } catch { storage = null; } // a sandboxed frame: the LMS still keeps the score
  const given = Object.fromEntries(Object.entries(session.record).map(([id, e]) => [id, { attempts: e.attempts, correct: e.correct, first: e.first, revealed: e.revealed }]));
  writeRecord(scope, given, storage);
  // Whether the playground will read that record (no storage, or one that refused it: writeRecord then
  // removed what the scope held, and the playground starts empty).
  let handed = !Object.keys(given).length;
  try { handed ||= storage?.getItem(storageKey(scope)) === JSON.stringify(given); } catch { handed = false; }
  return {
    scope,
    session,
    attach(playground) {
      // The package's exercises: those of the chapter it opens (a learner who looks at another chapter does
      // not change them), the lesson file's own included once it is read (the `exercises` event).
      // With a lesson file, nothing is reported until its exercises are among them: a score over the
      // others alone could read "passed" in the LMS meanwhile.
      const chapter = playground.getState().chapter;
      let ids = playground.exercises.map((e) => e.id), known = !params.has('lesson'), last = null;
      playground.on('exercises', (detail) => {
        if (detail.chapter !== (chapter || detail.chapter)) return;
        ids = detail.exercises.map((e) => e.id);
        known = true;
        if (last) session.progress(last, ids, handed);
      });
      playground.on('attempt', (detail) => session.attempt(detail, playground.exercises.find((e) => e.id === detail.id)));
      playground.on('progress', (detail) => { last = detail.entries; if (known) session.progress(last, ids, handed); });
      win.addEventListener('pagehide', () => session.terminate());
    },
  };
}
