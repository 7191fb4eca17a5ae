// One SCORM session with the LMS's API object (1.2 or 2004): initialize, read what an earlier launch
// left (suspend_data, the LMS's mastery score), write each attempt as an interaction, the score and
// statuses from the playground's entries on each progress event (a reveal's too) and commit, and terminate once. A failing call is reported through `say` (the console and a
// visible note: launch.js) and never thrown into the page: the playground goes on without the LMS.

import { VERSIONS, masteryOf, scoreOf, scoreValues, interactionValues, encodeSuspend, decodeSuspend } from './cmi.js';
import { interactionOf } from './responses.js';
import { entryOf, isDone } from '../lesson/exercises/index.js';

// GetValue errors that only mean "no value yet": 1.2's 401 (not implemented), 2004's 403 (not initialized).
const QUIET_GET = new Set(['401', '403']);

/**
 * An exercise's entry from the LMS's record at launch (`before`) and the playground's (`page`). The page's
 * wins when it was given the LMS's (`handed`: launch.js stored it where the playground reads); otherwise
 * (a frame without storage, where the playground started empty) the page's attempts follow the LMS's: no
 * first try, and a right answer after the exercise was done is practice.
 */
export function merged(before, page, handed) {
  if (!page || (!page.attempts && !page.revealed)) return before ?? null;
  if (!before || handed) return { attempts: page.attempts, correct: page.correct, first: page.first, revealed: page.revealed };
  const correct = before.correct || (!isDone(before) && page.correct);
  // Read as the page reads its own record (two misses without a right answer are shown), so a relaunch agrees.
  return entryOf({ attempts: before.attempts + page.attempts, correct, first: before.first, revealed: !correct && (before.revealed || page.revealed) });
}

/**
 * Opens a session, or returns null (after saying why) when the LMS refuses to initialize.
 * options: { version ('1.2' | '2004'), api, mastery (the author's, 0–100, used when the LMS gives none),
 * say(message) (a problem to show), now() (ms; Date.now) }.
 */
export function openScorm({ version, api, mastery, say, now = Date.now }) {
  const names = VERSIONS[version];
  const startedAt = now();

  /** The LMS's own words for its last error: "error 405 (Incorrect Data Type) …". */
  function lastError() {
    try {
      const code = String(api[names.lastError]());
      const text = api[names.errorString]?.(code) ?? '';
      const more = api[names.diagnostic]?.(code) ?? '';
      return { code, text: `error ${code}${text ? ` (${text})` : ''}${more && more !== text ? `: ${more}` : ''}` };
    } catch (err) {
      return { code: '?', text: `its error could not be read (${err.message})` };
    }
  }

  /** One API call; false (after saying what failed) when it threw or answered "false". */
  function call(fn, ...args) {
    let out;
    try {
      out = api[fn](...args);
    } catch (err) {
      say(`the LMS's ${fn}(${args.map((a) => JSON.stringify(a)).join(', ')}) threw: ${err.message}`);
      return false;
    }
    if (fn === names.getValue) {
      const { code, text } = lastError();
      if (code !== '0' && code !== '' && !QUIET_GET.has(code)) say(`the LMS could not give ${args[0]}: ${text}`);
      return code === '0' || code === '' ? String(out ?? '') : '';
    }
    if (out === true || out === 'true') return true;
    const where = fn === names.setValue ? `${fn}("${args[0]}", ${JSON.stringify(args[1])})` : `${fn}("")`;
    say(`the LMS refused ${where}: ${lastError().text}`);
    return false;
  }
  const get = (element) => call(names.getValue, element);
  const setAll = (pairs) => pairs.map(([element, value]) => call(names.setValue, element, value)).every(Boolean);

  if (!call(names.initialize, '')) return null;
  const record = decodeSuspend(get('cmi.suspend_data'));
  const passing = masteryOf(version, get(names.mastery), mastery);
  // A first launch starts the attempt: "incomplete" instead of "not attempted" (or 2004's "unknown").
  const statusElement = version === '1.2' ? 'cmi.core.lesson_status' : 'cmi.completion_status';
  if (['', 'not attempted', 'unknown'].includes(get(statusElement))) setAll([[statusElement, 'incomplete']]);
  setAll([[names.exit, 'suspend']]); // a relaunch resumes (entry "resume") with suspend_data
  let reported = null, ended = false;

  /** Writes the score, statuses and suspend_data of `ids` (the package's exercises) and commits, if they changed. */
  function report(ids) {
    if (ended) return;
    const values = [...scoreValues(version, scoreOf(ids, record), passing), ['cmi.suspend_data', encodeSuspend(record)]];
    const key = JSON.stringify(values);
    if (key === reported) return;
    reported = key;
    if (values.at(-1)[1].length > names.suspendMax) say(`the answers no longer fit in SCORM ${version}'s suspend_data (${names.suspendMax} characters): a relaunch will not resume them all`);
    setAll(values);
    call(names.commit, '');
  }

  // What the LMS held at launch: the playground was given it (launch.js), unless this frame has no storage.
  const launched = { ...record };

  return {
    version,
    /**
     * The entries known: { id: { attempts, correct, first, revealed } } (correct: right before the answer was
     * shown; first: right on the first attempt; revealed: shown before a right answer), the playground's own.
     */
    record,
    /** The mastery score in force (0–100), or null. */
    mastery: passing,
    report,
    /**
     * An `attempt` event's detail (with its exercise's { kind, prompt } when known) as an interaction; the
     * score follows with the `progress` event the playground sends next (progress()).
     */
    attempt(detail, exercise) {
      if (ended) return;
      const n = Number(get('cmi.interactions._count')) || 0;
      const { type, response } = interactionOf(exercise?.kind, detail.answer);
      setAll(interactionValues(version, n, { id: detail.id, type, response, correct: detail.correct === true, description: exercise?.prompt, timestamp: new Date(now()).toISOString() }));
      reported = null; // the interaction alone is a change to commit
    },
    /**
     * A `progress` event: the playground's entries of `ids` (the package's exercises; its answers and its
     * "Show answer" alike, under the page's own rules) become the record, and the score is reported.
     * handed: the playground was given the LMS's record at launch (see merged).
     */
    progress(entries, ids, handed) {
      if (ended) return;
      for (const id of ids) {
        // An exercise the event does not carry has no news: what the session holds stays (not the launch's record).
        if (!entries || !Object.hasOwn(entries, id)) continue;
        const now = merged(launched[id], entries[id], handed);
        if (now) record[id] = now;
      }
      report(ids);
    },
    /** Session time, commit and LMSFinish / Terminate (once). */
    terminate() {
      if (ended) return;
      ended = true;
      setAll([[names.sessionTime, names.time(now() - startedAt)]]);
      call(names.commit, '');
      call(names.terminate, '');
    },
  };
}
