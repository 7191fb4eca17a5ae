// The part of an exercise session that poses and grades (issue 34: it travels in dist/panels.js with the
// exercises' texts, so the first view's bundle holds only their ids, kinds and the progress): an
// exercise set up for the live layer, the core's answer to it (asked once per exercise and layer), an
// answer or a reveal applied to the learner's record with the rules (rules.js), and the xAPI statements
// of the events. lazy_session.js loads it with the catalogue and keeps everything a host reads at once.

import { readAnswer, matches, toleranceText } from './answers.js';
import { afterAnswer, afterReveal, hostExpected, answerOutcome, revealOutcome } from './rules.js';
import { coreCache } from './core_answers.js';
import { text } from './grading_text.js';

/**
 * Exercise `def` set up for the layer of state `s` and check `c`: { id, chapter, kind, prompt, …, key }, or
 * { id, chapter, kind, unavailable } when the inputs need fixing or it cannot be posed for this layer.
 */
export function posedItem(def, id, s, c) {
  // An author's exercise keeps its step when it cannot be posed, so it says why at that step (it counts there).
  const base = { id, chapter: def.chapter, kind: def.kind, ...(def.step ? { step: def.step } : {}) };
  if (!c?.config) {
    const [field, message] = Object.entries(c?.errors ?? {})[0] ?? [];
    return { ...base, unavailable: field ? text('exercise.session.inputs_need_fixing_first', { field, message }) : text('exercise.session.engine_still_loading') };
  }
  try {
    const made = def.setup({ state: s, config: c.config });
    const item = { ...base, ...made, key: JSON.stringify([id, made.params, made.calls]) };
    if (def.kind === 'number' || def.kind === 'step') item.toleranceText = toleranceText(made.tolerance);
    return item;
  } catch (err) {
    // One exercise that cannot be posed for an unusual layer must not stop the playground's render.
    return { ...base, unavailable: text('exercise.session.cannot_posed_this_layer', { message: err.message }) };
  }
}

/**
 * The grading of one session. ctx: { ask({ calls }) → promise of { results } (the feature's `solve`),
 * stored() → the record, records (index.js's recordStore), last (id → the latest verdict, read by the view),
 * chapterOf(id), alive() → false once the playground is removed, emit(type, detail), changed(), progress()
 * → the progress of the set shown, done() → how many shown are done, statements (the session's option),
 * now(), since (id → when first shown: the statements' durations) }.
 * Returns { load() (the statements' code), answer(id, item, def, value), reveal(id, item, def), worked(id, item, def), clear(),
 * noteList(chapter, list) (the `exercises` event) }.
 */
export function createGrader({ ask, stored, records, last, chapterOf, alive, emit, changed, progress, done, statements, now, since }) {
  const solveCalls = coreCache(ask);
  const xapi = statementMaker(statements, now, since);
  const removed = () => new Error('this playground was removed');

  /** The core's answer and explanation of a posed item ({ expected, accept?, explanation, weights?, shown: expected as a host is told it }). */
  async function coreAnswer(item, def) {
    const { results } = await solveCalls(item);
    if (!alive()) throw removed();
    const r = def.reveal(item.params, results);
    return { ...r, shown: hostExpected(r.expected) };
  }

  // tell: the verdict, the `attempt` event (answers only), progress (with the "completed" statement when this one finished the set), a redraw.
  const tell = (id, out, item, before) => {
    last.set(id, out.verdict);
    if (out.detail) emit('attempt', xapi.attempt(out.detail, item));
    emit('progress', xapi.completed(progress(), before));
    changed();
  };
  // step_session.js's part, made by the first step exercise answered (its definition carries the code).
  let steps = null;
  const stepsOf = (def) => (steps ??= def.stepSession({ solveCalls, stored, records, alive, tell, done }));

  return {
    load: () => xapi.load(),
    async answer(id, item, def, value) {
      const given = readAnswer(item, value); // throws on an answer that cannot be read: no attempt counted
      if (item.kind === 'step') return stepsOf(def).answer(id, item, def, given);
      const core = await coreAnswer(item, def);
      const correct = matches(item, given, core.accept ?? core.expected); // the core's own number
      const before = done();
      const entry = afterAnswer(stored()[id], correct);
      records.set(id, entry);
      const out = answerOutcome({ id, chapter: chapterOf(id), key: item.key, given, correct, entry, core: { ...core, expected: core.shown }, hint: () => def.hint(item.params ?? {}) });
      tell(id, out, item, before);
      return out.result;
    },
    /** Shows `id`'s answer ("Show answer"): it counts as revealed unless it was answered right before. */
    async reveal(id, item, def) {
      if (item.kind === 'step') return stepsOf(def).answer(id, item, def, undefined);
      const core = await coreAnswer(item, def);
      const before = done();
      const entry = afterReveal(stored()[id]);
      records.set(id, entry);
      const out = revealOutcome({ key: item.key, core: { ...core, expected: core.shown }, entry });
      tell(id, out, item, before);
      return out.result;
    },
    worked: (id, item, def) => stepsOf(def).worked(id, item, def), // a step exercise's numbers on show
    clear: () => steps?.clear(),
    noteList: listEvents(emit, alive),
  };
}

/**
 * The `exercises` event ({ chapter, exercises }) once the prompts of the set shown are ready (none null),
 * and again when they change (chapter, `exercises`, a layer that changes a prompt): note(chapter, list).
 */
function listEvents(emit, alive) {
  let listed = null;
  return (chapter, now) => {
    if (now.some((e) => e.prompt === null)) return; // the engine is loading, or the inputs need fixing
    const key = JSON.stringify(now);
    if (key === listed) return;
    listed = key;
    queueMicrotask(() => { if (alive()) emit('exercises', { chapter, exercises: now }); });
  };
}

/**
 * The xAPI statements of the events (statements: the session's option; none: the events carry none):
 * { load(), attempt(detail, item) → the detail with its "answered" statement, completed(progress, done
 * before) → the progress, with the "completed" statement when it finished now }. since: id → when it was
 * first shown (the session notes it) or last answered (ms).
 */
function statementMaker(statements, now, since) {
  let code = null; // statements.js, once loaded (a failed load leaves the events without statements)
  return {
    load: () => (code || !statements ? Promise.resolve() : Promise.resolve().then(statements).then((c) => { code = c; }, () => {})),
    attempt(detail, item) {
      if (!code) return detail;
      const at = now();
      const statement = code.attemptStatement(detail, { kind: item.kind, prompt: item.prompt, durationMs: at - (since.get(detail.id) ?? at), timestamp: at });
      since.set(detail.id, at);
      return { ...detail, statement };
    },
    completed(progress, before) {
      const finished = code && before < progress.total && progress.done === progress.total;
      return finished ? { ...progress, statement: code.completionStatement(progress, { timestamp: now() }) } : progress;
    },
  };
}
