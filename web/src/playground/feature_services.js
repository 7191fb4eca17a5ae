// The feature services of one playground: a feature whose row in features/index.js has a `service` (its
// service.js) adds to the playground besides its panel: its own state kept across redraws, a part of the
// view under its name, actions for its panel, events it emits, API members of the playground (and of
// the element: features/services.js), controls in the run bar, work after the first view and at removal,
// and each chapter's count for the chapter list. The playground names no such feature: this loop over the table is all it knows.

import { FEATURES, FEATURE_NAMES, visiblePanels } from '../features/index.js';
import { choosesPanels } from '../lesson/compose.js';

/** m: the model (store.js); p: the playground's parts (win, options, ready, connection, events, redraw, panels). */
export function createFeatureServices(m, p) {
  const { win } = p;
  const parts = FEATURES.filter((spec) => spec.service).map((spec) => {
    const part = spec.service.create({
      askHost: p.connection.askHost, // its requests as actions (playground/asks.js)
      state: () => m.state,
      check: () => m.check,
      untilEngine: () => p.connection.untilEngine(), // the engine's wait that also ends when it fails or the playground is removed
      scope: p.options.progress ?? null, // where the host keeps what the learner did (a page and element id; none: not stored)
      storage: () => { try { return win.localStorage; } catch { return null; } }, // a sandboxed frame may refuse it
      emit: p.events.emit,
      changed: () => p.redraw.render(spec.name),
      loadCode: () => (spec.lazy ? p.panels.lazyPanel(spec.name) : Promise.resolve(spec.panel)), // its panel's module (panels.js for a lazy one)
      feature: () => p.panels.feature(spec.name), // its panel's module, its actions and the current view
      // false when the author's `panels` leave its panel out (a chapter's step that shows it not keeps it)
      panelShown: () => !choosesPanels(m.state, FEATURE_NAMES) || visiblePanels(m.state).includes(spec.name),
      doc: p.doc,
      destroyed: () => m.destroyed,
      authored: p.lesson.authored, // an author's exercises (the `lesson` option: lesson_host.js), filled once checked
      lessonReady: p.lesson.ready,
      bundle: () => import(new URL('panels.js', p.base).href), // the lazy panels' bundle (features/lazy.js)
    });
    return { name: spec.name, part };
  });

  return {
    /** { [feature]: its part of the view } for view.js. */
    views: () => Object.fromEntries(parts.filter(({ part }) => part.view).map(({ name, part }) => [name, part.view()])),
    /** The actions a feature's part gives its own panel. */
    actionsOf: (name) => parts.find((entry) => entry.name === name)?.part.actions ?? {},
    /** Per chapter { done, total } from the first part that counts them, else null. */
    chapterCounts(view) {
      for (const { name, part } of parts) {
        const counts = part.chapterCounts?.(view[name]);
        if (counts) return counts;
      }
      return null;
    },
    /** The part that reads and holds imported tensors ({ hold(given, config) }), or null. */
    importer: () => parts.find(({ part }) => part.imports)?.part.imports ?? null,
    /** The controls the parts add to the run bar (after Run, Cancel and the status). */
    runbarControls: (dom) => parts.flatMap(({ part }) => part.runbar?.(dom) ?? []),
    /** Adds every part's API members (getters and methods) to the playground's public object. */
    addApi(target) {
      for (const { part } of parts) Object.defineProperties(target, Object.getOwnPropertyDescriptors(part.api ?? {}));
      return target;
    },
    start: () => parts.forEach(({ part }) => part.start?.()),
    destroy: () => parts.forEach(({ part }) => part.destroy?.()),
  };
}
