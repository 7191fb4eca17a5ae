// A playground's events: listeners by type (on), the options' callbacks (onChange, onResult, onError),
// and dispatch (emit) that keeps one listener's bug from stopping the others. The playground's own types
// are 'change', 'result', 'error' and 'drawn'; a feature adds its own (features/services.js), sent the same
// way. reportProblems() is the one place where the current problems become `error` events.

/** options: the playground's (onChange, onResult, onError). */
export function createEvents(win, options) {
  const listeners = new Map();
  let reported = new Set(); // error events already sent for the current problems

  function on(type, fn) {
    if (!listeners.has(type)) listeners.set(type, new Set());
    listeners.get(type).add(fn);
    return () => listeners.get(type)?.delete(fn);
  }

  function emit(type, detail) {
    const callback = { change: options.onChange, result: options.onResult, error: options.onError }[type];
    for (const fn of [callback, ...(listeners.get(type) ?? [])]) {
      if (!fn) continue;
      try {
        fn(detail);
      } catch (err) {
        win.setTimeout(() => { throw err; }); // a listener's bug is the host's, reported as such
      }
    }
  }

  /** One `error` event per problem of `check` not reported yet (a field's message, a size refusal, a note). */
  function reportProblems(check) {
    const now = new Set();
    const problems = Object.entries(check.errors).map(([field, message]) => ({ field, message }));
    if (check.blocked) problems.push({ field: check.blocked.field, message: check.blocked.message });
    for (const n of check.notes ?? []) problems.push({ field: n.field, message: n.text });
    for (const problem of problems) {
      const key = `${problem.field}\n${problem.message}`;
      now.add(key);
      if (!reported.has(key)) emit('error', { message: problem.message, field: problem.field });
    }
    reported = now;
  }

  return { on, emit, reportProblems, clear: () => listeners.clear() };
}
