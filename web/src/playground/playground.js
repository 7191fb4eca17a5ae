// One playground: its own state, its panels (from the features' table), its DOM in a shadow root with scoped
// styles, and its session on the shared compute. It reads no global document or location, so the full
// page, <attention-playground>, a notebook widget and the share dialog's preview each make one, and
// any number can share a page. This file composes the parts, each with one job: the state store
// (store.js), the events (events.js), the engine connection (connection.js), the run scheduler (runs.js),
// the panel host (panel_host.js), the redraw and its catch-up (redraw.js), the view (view.js), the
// panels' actions (actions.js), imported tensors (imports.js) and the features' services (feature_services.js).
// The parts reach each other through `p` at call time, so the order they are made in is free.

import { assetBase } from './assets.js';
import { createRunbar } from './runbar.js';
import { createShell } from './shell.js';
import { createChapterNav } from '../lesson/nav.js';
import { createModel, createStore } from './store.js';
import { createEvents } from './events.js';
import { createConnection } from './connection.js';
import { createRuns } from './runs.js';
import { createPanelHost } from './panel_host.js';
import { createRedraw } from './redraw.js';
import { createView } from './view.js';
import { createActions } from './actions.js';
import { createImports } from './imports.js';
import { createFeatureServices } from './feature_services.js';
import { openAuthorLesson } from './lesson_host.js';

/**
 * Makes a playground in `root` (an element, which gets a shadow root, or a shadow root).
 * options: { state (partial; strings, numbers or booleans), theme ('light' | 'dark' | 'auto': used when
 * state.theme is empty; default light), layout ('page' | 'embedded'), assets (folder URL of the built
 * files; default: beside this bundle), notes (sentences about the link it came from), compiled (wasm
 * the host started compiling early: loadAttention's option of that name), progress (where a feature
 * keeps what the learner did, e.g. the exercises' attempts: a page and element id; none: not stored),
 * lesson (an author's lesson file, JSON text or its object: their words and exercises, web/src/author/),
 * onChange, onResult, onError, onNote (callbacks, as the events below) }.
 * Returns { state, getState(), setState(changes, { replace }), run(), result, ready, on(type, fn), destroy(),
 * root, feature(name), importTensors(given) } and the members the features' services add (features/services.js);
 * events: 'change' { state, field, kind } on the learner's edits, 'result' { state, shapes, isa, ms },
 * 'error' { message, field } (the view cannot run as asked, or a run failed), 'note' { message, field } (it
 * runs, and says something about itself: a value replaced, which panels show imports), the features' own;
 * and 'drawn' (the result's detail once its maps are drawn, before a quick pass is timed: the page marks
 * its first view with it; the element does not pass it on).
 */
export function createPlayground(root, options = {}) {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  const p = { doc, win, options, base: null, baseError: null, startedAt: win.performance.now() };
  try {
    p.base = assetBase(options.assets);
  } catch (err) {
    p.baseError = err.message; // shown in the run bar: the playground still draws, and says what to do
  }
  const m = createModel(options);
  p.ready = new Promise((resolve) => { p.resolveReady = resolve; });
  p.events = createEvents(win, options);
  p.lesson = openAuthorLesson(m, p); // before any panel is built: the first view shows the author's words
  p.reportProblems = () => { if (m.engine && m.check) p.events.reportProblems(m.check); };
  p.store = createStore(m, p);
  p.runs = createRuns(m, p);
  // Start the worker and the engine's download before anything is built: they take longest.
  p.connection = createConnection(m, p);
  p.connection.connect();

  // ---- DOM: the shell (shadow root, theme, one section per panel) with the run bar on top ----
  const shell = p.shell = createShell(root, { base: p.base, layout: options.layout });
  const { dom } = shell;
  p.importTensors = createImports(m, p);
  p.actions = createActions(m, p);
  const { actions } = p.actions;
  p.features = createFeatureServices(m, p);
  p.view = createView(m, p);
  p.redraw = createRedraw(m, p);
  p.runbar = createRunbar({ dom, actions, win });
  shell.results.prepend(...p.runbar.elements);
  p.runbar.elements[0].append(...p.features.runbarControls(dom)); // e.g. the export's Export button
  p.runbar.elements[0].dataset.landmark = 'Run'; // named with the playground's name when several share a page
  p.chapterNav = createChapterNav({ dom, go: (changes) => actions.edit(changes, 'chapter' in changes ? 'chapter' : 'step'),
    loadWords: () => shell.host.importVendor('panels.js') }); // another chapter's words come with the lazy panels
  shell.layout.before(...p.chapterNav.top);
  // Previous and next, below every panel, are added with the lazy panels (releaseLater): the first layout is smaller.
  shell.setLabel(m.state.label);
  p.panels = createPanelHost(m, p);

  /** The state's theme, or the host's default for it (light inside a course page, auto on the page). */
  p.applyTheme = () => shell.setTheme(['light', 'dark', 'auto'].includes(m.state.theme) ? m.state.theme : (options.theme ?? 'light'));

  function destroy() {
    if (m.destroyed) return;
    m.destroyed = true;
    p.runs.destroy();
    p.redraw.destroy();
    p.features.destroy();
    p.lesson.release();
    p.panels.destroy();
    p.runbar.destroy();
    shell.destroy();
    p.connection.release();
    p.events.clear();
    m.result = null;
    m.check = null;
  }

  // ---- start (the compute was asked for first: its download and compile overlap the building) ----
  if (p.baseError) p.panels.afterFirstView(); // no engine, so no first result to wait for
  p.applyTheme();
  p.panels.applyVisibility();
  p.store.revalidate();
  p.redraw.render('state');
  win.performance.mark('attention-built');

  const { getState, setState } = p.store;
  return p.features.addApi({
    get state() { return getState(); },
    set state(value) { setState(value, { replace: true }); },
    getState,
    setState,
    run: () => p.runs.run(),
    cancel: () => p.runs.cancel(),
    /** The last result's detail ({ state, shapes, isa, ms }), or null. */
    get result() { return m.result?.detail ?? null; },
    /** Resolves once the engine is loaded (the first run may still be going). */
    ready: p.ready,
    on: p.events.on,
    destroy,
    get destroyed() { return m.destroyed; },
    /** The playground's shadow root (for hosts that need to look inside, e.g. tests). */
    root: shell.shadow,
    /** A feature's module, actions and the current view (panel_host.js's feature()). */
    feature: (name) => p.panels.feature(name),
    /** Tensors in: see imports.js. */
    importTensors: (given) => p.importTensors(given),
  });
}
