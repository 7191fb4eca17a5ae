// A playground's events: listeners by type (on), the options' callbacks (onChange, onResult, onError,
// onNote), and dispatch (emit) that keeps one listener's bug from stopping the others. The playground's own
// types are 'change', 'result', 'error', 'note' and 'drawn'; a feature adds its own (features/services.js),
// sent the same way. reportProblems() is the one place where the current problems become `error` events
// and the view's notes `note` events.

/** options: the playground's (onChange, onResult, onError, onNote). */
export function createEvents(win, options) {
  const listeners = new Map();
  let reported = new Set(); // error and note events already sent for the current problems and notes

  function on(type, fn) {
    if (!listeners.has(type)) listeners.set(type, new Set());
    listeners.get(type).add(fn);
    return () => listeners.get(type)?.delete(fn);
  }

  function emit(type, detail) {
    const callback = { change: options.onChange, result: options.onResult, error: options.onError, note: options.onNote }[type];
    for (const fn of [callback, ...(listeners.get(type) ?? [])]) {
      if (!fn) continue;
      try {
        fn(detail);
      } catch (err) {
        win.setTimeout(() => { throw err; }); // a listener's bug is the host's, reported as such
      }
    }
  }

  /**
   * One event per problem or note of `check` not reported yet: `error` for a field's message or a size
   * refusal (the view cannot run as asked), `note` for what the view says about itself and still runs (a
   * link's value replaced, the panels that show imported maps): a host counting errors counts only errors.
   */
  function reportProblems(check) {
    const now = new Set();
    const problems = Object.entries(check.errors).map(([field, message]) => ({ type: 'error', field, message }));
    if (check.blocked) problems.push({ type: 'error', field: check.blocked.field, message: check.blocked.message });
    for (const n of check.notes ?? []) problems.push({ type: 'note', field: n.field, message: n.text });
    for (const problem of problems) {
      const key = `${problem.type}\n${problem.field}\n${problem.message}`;
      now.add(key);
      if (!reported.has(key)) emit(problem.type, { message: problem.message, field: problem.field });
    }
    reported = now;
  }

  return { on, emit, reportProblems, clear: () => listeners.clear() };
}
