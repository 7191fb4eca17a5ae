// Two things an exercise session loads and keeps: the catalogue of exercises with the code that grades them
// (loaded once, from the lazy bundle; a failed load is asked again next time) and the core's answers
// (asked once per exercise and layer through the feature's `solve` request, so a retry asks nothing).

const SOLVED_KEPT = 64; // core answers kept (per exercise and layer)

/**
 * catalogue: the exercises, or a function giving a promise of them; grading: grading.js's module, or a
 * function giving a promise of it (both come from the lazy bundle in a playground, so they load together).
 * onChange(): called when they arrive or fail. Returns { byId (a Map, or null until loaded), grading (the
 * module, or null until loaded), error (the last failure, or null), load() → promise of byId }.
 */
export function catalogueLoader(catalogue, grading, onChange) {
  const both = Array.isArray(catalogue) && typeof grading !== 'function';
  const self = { byId: both ? new Map(catalogue.map((e) => [e.id, e])) : null, grading: both ? grading : null, error: null };
  let loading = null;
  self.load = () => {
    if (self.byId) return Promise.resolve(self.byId);
    loading ??= Promise.all([catalogue, grading].map((part) => Promise.resolve().then(() => (typeof part === 'function' ? part() : part)))).then(([list, code]) => {
      self.byId = new Map(list.map((e) => [e.id, e]));
      self.grading = code;
      self.error = null;
      onChange();
      return self.byId;
    }, (err) => {
      loading = null;
      self.error = err;
      onChange();
      throw new Error(`the exercises could not be loaded: ${err.message}`);
    });
    return loading;
  };
  return self;
}

/** ask({ calls }) → promise of { results }, kept per item key (a failure, a lost worker or a deadline, is asked again next time). */
export function coreCache(ask) {
  const solved = new Map(); // calls key → promise of results
  return (item) => {
    if (!solved.has(item.key)) {
      const pending = ask({ calls: item.calls });
      solved.set(item.key, pending);
      pending.catch(() => solved.delete(item.key));
      while (solved.size > SOLVED_KEPT) solved.delete(solved.keys().next().value);
    }
    return solved.get(item.key);
  };
}
