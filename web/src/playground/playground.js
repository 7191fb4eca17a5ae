// One playground: its own state, its panels (from the features' table), its DOM in a shadow root with scoped
// styles, and its session on the shared compute. It reads no global document or location, so the full
// page, <attention-playground>, a notebook widget and the share dialog's preview each make one, and
// any number can share a page. This file owns time and order; the panels draw.

import { defaults, withChanges, changedKeys } from '../model/schema.js';
import { validate, configKey } from '../model/validate.js';
import { trainedKey, trainedKeyOf } from '../model/training.js';
import * as fmt from '../model/format.js';
import { visiblePanels, unknownPanels } from '../features/index.js';
import { CONTROL_FIELDS } from '../features/controls/panel.js';
import { Cancelled, WorkerLost } from '../model/errors.js';
import { acquireCompute } from './compute.js';
import { assetBase } from './assets.js';
import { createRunbar } from './runbar.js';
import { createShell } from './shell.js';
import { actionsFor, unavailable } from './asks.js';
import { withImports } from '../import/view.js';
import { refuseLockedImport } from './import_lock.js';
import { waitBeforeRun, mergeReasons, watchScreen, CATCH_UP_MS } from './schedule.js';
import { createChapterNav } from '../lesson/nav.js';
import { lockedKeys, formShows, foldedPanels, chapterOf } from '../lesson/chapters.js';
import { createFolds } from './folds.js';
import { FEATURE_NAMES } from '../features/index.js';
import { createExerciseSession } from '../lesson/exercises/session.js';

const PROGRESS_AFTER_MS = 100; // shorter runs finish before a progress bar would be worth showing
const RUNS_KEPT = 12;
/** Fields that only change what is shown: a read-only playground still lets the learner change them. */
import { VIEW_ONLY } from '../model/schema.js';

/** Time allowed before a silent worker counts as dead: generous against the estimate (which errs long). */
const deadlineFor = (estimateMs) => Math.max(4000, 20 * estimateMs + 2000);

/** An Error that names the field it is about (the `error` event's detail). */
function fieldError(field, message) {
  return Object.assign(new Error(message), { field });
}

/**
 * Makes a playground in `root` (an element, which gets a shadow root, or a shadow root).
 * options: { state (partial; strings, numbers or booleans), theme ('light' | 'dark' | 'auto': used when
 * state.theme is empty; default light), layout ('page' | 'embedded'), assets (folder URL of the built
 * files; default: beside this bundle), notes (sentences about the link it came from), compiled (wasm
 * the host started compiling early: loadAttention's option of that name),
 * onChange, onResult, onError, onNote (callbacks, as the events below) }.
 * Returns { state, getState(), setState(changes, { replace }), run(), result, ready, on(type, fn), destroy() };
 * events: 'change' { state, field, kind } on the learner's edits, 'result' { state, shapes, isa, ms },
 * 'error' { message, field } (the view cannot run as asked, or a run failed), 'note' { message, field } (it
 * runs, and says something about itself: a value replaced, which panels show imports); and 'drawn' (the result's detail once its maps are drawn, before a quick
 * pass is timed: the page marks its first view with it; the element does not pass it on).
 */
export function createPlayground(root, options = {}) {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  let base = null, baseError = null;
  try {
    base = assetBase(options.assets);
  } catch (err) {
    baseError = err.message; // shown in the run bar: the playground still draws, and says what to do
  }

  const m = {
    state: withChanges(defaults(), options.state ?? {}),
    lastEdited: null,
    editing: null,     // the field whose input caused this render (the form keeps its cursor there)
    check: null,
    result: null,      // { key, config, analysis, timings, isa, output_sum, masked_rows, item, gflops, workers, detail }
    running: null,     // { key, startedAt, estimate, progress, showProgress, promise }
    runs: [],
    peak: undefined,   // { gflops } once measured, null without SIMD
    notice: null,      // { key, kind, text }: what happened to the run of the inputs with this key
    engine: null,
    engineError: null, // { message, retry }: the engine could not start (retry: reloading may help)
    linkNotes: options.notes ?? [],
    lastPreset: '',    // the preset loaded last (two presets can share sizes)
    trainedHeld: null, // trainedKey of the trained model the worker holds (the lab's, or the last trained run's)
    released: false,   // lazy panels may be built
    firstResultMs: null,
    imported: null,    // tensors importTensors handed to the compute for this view: { id, kind, shapes } (import/tensors.js)
    plainConfig: null, // the view's config without its imports (what a new import is checked against)
    destroyed: false,
  };
  const startedAt = win.performance.now();
  const listeners = new Map();
  let compute = null, computeKey = null;
  let rawAnalyze = null, rawTrainingCost = null, rawResolveView = null;
  let debounce = 0, progressTimer = 0; // debounce: a run waiting for the typing to pause (schedule.js), 0 when none
  let catchUpTimer = 0, quietStart = false; // quietStart: apply() renders the run it starts itself
  let pendingLoads = 0; // lazy panels whose code is on its way
  let pendingRun = null; // { promise, resolve, reject }: a run asked for while another runs
  let reported = new Set(); // error and note events already sent for the current problems and notes
  let peakRequested = false;
  let resolveReady;
  const ready = new Promise((resolve) => { resolveReady = resolve; });
  // Start the worker and the engine's download before anything is built: they take longest.
  // (connect is hoisted; everything it touches is declared above.)
  connect();

  // ---- events ----
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

  // ---- DOM: the shell (shadow root, theme, one section per panel) with the run bar on top ----
  const shell = createShell(root, { base, layout: options.layout });
  const { dom, host, wrapper, sections, shadow } = shell;
  const actions = Object.freeze({
    /**
     * A learner's edit of one or more fields (ignored in a read-only playground, except view fields;
     * a field the author locked never changes this way). True when it changed the view.
     */
    edit: (changes, field) => {
      if (readOnly() && !Object.keys(changes).every((k) => VIEW_ONLY.has(k))) return false;
      const allowed = unlocked(changes);
      if (Object.keys(allowed).length) return apply(allowed, { edited: field, kind: 'edit' });
      render('state'); // a locked field: the form shows the state's value again
      return false;
    },
    /** A preset: many fields at once, one step of history (a locked field keeps its value). */
    load: (changes, preset) => {
      if (readOnly()) return;
      m.lastEdited = null;
      apply(unlocked(withoutStaleHeads(changes)), { kind: 'load', preset });
    },
    run: () => run().catch(() => {}),
    cancel,
    /** An answer to an exercise (the learner's input; a host's answer() takes the same path). */
    answer: (id, value) => exercises.answer(id, value),
    /** "Show answer": the exercise's answer shown (counted as revealed). */
    reveal: (id) => exercises.reveal(id),
    /** Tensors a panel read from files (the export panel's drop zone): see importTensors(). */
    importTensors: (given) => importTensors(given),
  });
  const readOnly = () => m.state.controls === '0';
  /**
   * A preset or the lab's layer replaces the layer: constructed heads (the lesson's start has three) are
   * built for sentences and seeded weights, so they go back to random when the preset leaves either.
   */
  function withoutStaleHeads(changes) {
    const next = { ...m.state, ...changes };
    const built = String(next.heads ?? '').split(',').some((p) => p.trim() && p.trim() !== 'random');
    return !('heads' in changes) && built && (next.source !== 'text' || next.weights === 'trained') ? { ...changes, heads: '' } : changes;
  }
  /** `changes` without the fields the author locked (lock=): setState, the author's way, still sets them. */
  function unlocked(changes) {
    const locked = lockedKeys(m.state);
    return Object.fromEntries(Object.entries(changes).filter(([key]) => !locked.has(key)));
  }
  /** What a feature's actions need from this playground (playground/asks.js). */
  const askHost = {
    unavailable: () => unavailable({ destroyed: m.destroyed, assetsError: baseError, connected: !!compute }),
    session: () => compute.session,
    passDeadline: (config, passes) => passDeadline(config, passes),
  };
  // The exercises (lesson/exercises/session.js): prompts from the live layer, answers from the core,
  // attempts kept under options.progress (a page and element id; none: not stored).
  const exercises = createExerciseSession({
    askHost, state: () => m.state, check: () => m.check, ready, scope: options.progress ?? null, emit, changed: () => render('exercises'),
    catalogue: () => (base ? host.importVendor('panels.js').then((bundle) => bundle.EXERCISES) : Promise.reject(new Error(baseError))), // from panels.js: their text stays out of the first bundle
    // Read once the first result is drawn (releaseLater: exercises.start()): a page's first touch of
    // localStorage opens it, ~20–30 ms of a fresh tab's first view (the chapter list counts no attempts until then).
    storage: () => { try { return win.localStorage; } catch { return null; } }, // a sandboxed frame may refuse it
    deferred: true,
  });
  /** A panel's ctx: the shared actions, and its own feature's requests as actions (playground/asks.js). */
  const ctxFor = (name, module) => ({ dom, host, actions: Object.freeze({ ...actions, ...heldModelMoves(actionsFor(name, module.requests, askHost), module.requests) }) });
  // A request whose declaration has movesTrainedModel(payload) true (the lab stepping on or starting
  // again) takes from the worker the trained model it may have handed to this playground
  // (worker/training.js copies the lab's weights, not its trainer): a sample it has not drawn yet
  // (another input_seed) is then trained again from the seed, so the estimate must count that
  // training again rather than take the model as held.
  function heldModelMoves(asks, requests) {
    const wrapped = { ...asks };
    for (const [request, spec] of Object.entries(requests ?? {})) {
      if (typeof spec.movesTrainedModel !== 'function') continue;
      wrapped[request] = (payload = {}, ...rest) => {
        if (m.trainedHeld !== null && spec.movesTrainedModel(payload)) {
          m.trainedHeld = null;
          revalidate();
          render('state');
        }
        return asks[request](payload, ...rest);
      };
    }
    return wrapped;
  }

  // Panels are redrawn while on screen; the others when they come into view or the learner pauses (schedule.js).
  const screen = watchScreen(win, sections.values(), (entry) => catchUpPanel(entry));
  const runbar = createRunbar({ dom, actions, win });
  shell.results.prepend(...runbar.elements);
  // The Export action: the current run's tensors, view.json and reproduce.py as a zip (web/src/export/).
  runbar.elements[0].append(dom.h('button', { type: 'button', class: 'export', id: 'export', title: 'Save this run’s tensors (.npy), view.json and reproduce.py as a zip',
    onclick: () => feature('export').then(({ module, ...ctx }) => module.saveBundle(ctx, doc)).catch((err) => emit('error', { message: `Export failed: ${err.message}`, field: err.field ?? null })) }, 'Export'));
  runbar.elements[0].dataset.landmark = 'Run'; // named with the playground's name when several share a page
  const chapterNav = createChapterNav({ dom, go: (chapter) => actions.edit({ chapter }, 'chapter') });
  shell.layout.before(...chapterNav.top);
  // Previous and next, below every panel, are added with the lazy panels (releaseLater): the first layout is smaller.
  shell.setLabel(m.state.label);
  // A chapter's secondary panels are shown collapsed; opening one shows (and so builds) its section.
  const folds = createFolds({ dom, sections, toggled: () => applyVisibility() });

  /** The state's theme, or the host's default for it (light inside a course page, auto on the page). */
  function applyTheme() {
    shell.setTheme(['light', 'dark', 'auto'].includes(m.state.theme) ? m.state.theme : (options.theme ?? 'light'));
  }

  // ---- panels ----
  function applyVisibility() {
    const shown = new Set(visiblePanels(m.state));
    const collapsed = folds.apply(shown, foldedPanels(m.state, FEATURE_NAMES), chapterOf(m.state).name);
    for (const entry of sections.values()) entry.section.hidden = !shown.has(entry.spec.name) || collapsed.has(entry.spec.name);
    wrapper.classList.toggle('no-controls', !shown.has('controls'));
    buildPanels();
  }

  /**
   * Builds every shown panel that is not built yet: the first view's at once, the lazy ones once the
   * first result is on screen, from dist/panels.js, which is fetched (once per page: the browser keeps
   * the module) when the first of them is needed. Lazy panels that arrive are drawn with the view of
   * that moment; the wrapper's data-settled is '1' once every shown panel is built.
   */
  function buildPanels() {
    for (const entry of sections.values()) {
      if (entry.panel || entry.loading || entry.section.hidden || (entry.spec.lazy && !m.released)) continue;
      if (!entry.spec.lazy) {
        makePanel(entry, entry.spec.panel);
        continue;
      }
      entry.loading = true;
      pendingLoads++;
      wrapper.dataset.settled = '0';
      lazyPanel(entry.spec.name).then((module) => {
        if (m.destroyed || entry.section.hidden) return;
        if (makePanel(entry, module)) updatePanel(entry, view(), 'engine');
      }).catch((err) => {
        // The browser keeps a failed module fetch for the page's life: only a reload fetches it again.
        if (!m.destroyed) showPanelError(entry, err, 'Reload the page to try again.');
      }).finally(() => {
        entry.loading = false;
        if (--pendingLoads === 0 && m.released && !m.destroyed) markSettled();
      });
    }
    if (m.released && pendingLoads === 0) markSettled();
  }

  /** A lazy feature's panel module, from panels.js in the asset folder (a relative import fails from blob:). */
  function lazyPanel(name) {
    if (!base) return Promise.reject(new Error(baseError));
    return host.importVendor('panels.js').then((bundle) => bundle.loadPanel(name), (err) => {
      throw new Error(`its code (panels.js) could not be loaded from ${base}: ${err.message}`);
    });
  }

  /** Creates one panel; says so in its section when that throws. True when it was made. */
  function makePanel(entry, module) {
    try {
      entry.panel = module.create(entry.body, ctxFor(entry.spec.name, module));
      return true;
    } catch (err) {
      showPanelError(entry, err);
      return false;
    }
  }

  function showPanelError(entry, err, whatToDo = 'Change the inputs to try again.') {
    entry.failed = true;
    entry.error.hidden = false;
    entry.error.textContent = `This panel could not be drawn: ${err.message}. ${whatToDo}`;
  }

  function view() {
    const controlsShown = !sections.get('controls').section.hidden;
    const errors = Object.entries(m.check?.errors ?? {});
    const key = m.check?.config ? configKey(m.check.config) : null;
    const unknown = unknownPanels(m.state);
    const inForm = formShows(m.state, FEATURE_NAMES);
    return Object.freeze({
      state: m.state, check: m.check, result: m.result, running: m.running, runs: m.runs, peak: m.peak,
      engine: m.engine, engineError: m.engineError, firstResultMs: m.firstResultMs, editing: m.editing,
      readOnly: readOnly(), lastPreset: m.lastPreset, exercises: exercises.view(), locked: lockedKeys(m.state), formShows: inForm,
      settled: m.released, // the first result is on screen (or there will be none by itself): time for the rest
      notice: m.notice && (m.notice.key === null || m.notice.key === key) ? m.notice : null,
      // Every problem no visible field shows: the run bar lists them.
      // (A field the chapter or the author's hide= leaves out of the form is not visible either.)
      problems: errors.filter(([field]) => !controlsShown || !CONTROL_FIELDS.has(field) || !inForm(field)).map(([field, message]) => ({ field, message })),
      notes: [
        ...m.linkNotes.map((text) => `From the link: ${text}.`),
        ...(m.check?.notes ?? []).map((n) => n.text),
        ...(unknown.length ? [`panels: ${unknown.map((u) => `“${u}”`).join(', ')} ${unknown.length > 1 ? 'are not panels' : 'is not a panel'}; the others are shown.`] : []),
      ],
    });
  }

  function render(reason) {
    if (m.destroyed) return;
    const v = view();
    runbar.update(v, reason);
    chapterNav.update(v, v.exercises?.progress?.chapters ?? null); // per chapter { done, total } (lesson/exercises)
    for (const entry of sections.values()) {
      if (!entry.panel) continue;
      // A panel hidden, or a lazy one off screen, keeps the reason it missed, and is drawn when shown
      // (catchUpPanel). The first view's panels (the form, the maps) are always current: hosts read them
      // as soon as an event says something changed.
      if (entry.section.hidden || (entry.spec.lazy && !screen.onScreen(entry))) {
        entry.pending = mergeReasons(entry.pending, reason);
        entry.section.dataset.stale = '1'; // says its numbers are behind until updatePanel draws it
      } else updatePanel(entry, v, mergeReasons(entry.pending, reason));
    }
    if ([...sections.values()].some((e) => e.pending && !e.section.hidden)) {
      wrapper.dataset.settled = '0';
      win.clearTimeout(catchUpTimer);
      catchUpTimer = win.setTimeout(catchUp, CATCH_UP_MS);
    }
  }

  /** Brings one panel that missed updates up to date (it came on screen, or the learner paused). */
  function catchUpPanel(entry) {
    if (m.destroyed || !entry.panel || !entry.pending || entry.section.hidden) return;
    updatePanel(entry, view(), entry.pending);
    markSettled();
  }

  /** Off-screen panels, one per task (a keystroke waits for one panel at most), once nothing was drawn for a while. */
  function catchUp() {
    const entry = [...sections.values()].find((e) => e.panel && e.pending && !e.section.hidden);
    if (m.destroyed) return;
    if (!entry) return markSettled();
    catchUpPanel(entry);
    catchUpTimer = win.setTimeout(catchUp, 0);
  }

  /** data-settled: '1' once every shown panel is built and drawn for the current view (tests and hosts wait for it). */
  function markSettled() {
    const behind = [...sections.values()].some((e) => e.panel && e.pending && !e.section.hidden);
    wrapper.dataset.settled = m.released && pendingLoads === 0 && !behind ? '1' : '0';
  }

  function updatePanel(entry, v, reason) {
    entry.pending = null;
    delete entry.section.dataset.stale;
    try {
      entry.panel.update(v, reason);
      if (entry.failed) {
        entry.failed = false;
        entry.error.hidden = true;
      }
    } catch (err) {
      // One panel failing must not blank the others: it says so in its own section.
      showPanelError(entry, err);
    }
  }

  /** What the first view does without: the pager below the panels, and the learner's exercise record (read from storage). */
  function afterFirstView() {
    shell.layout.after(...chapterNav.bottom);
    shell.setLabel(m.state.label); // names the pager's landmark as the others (with the playground's name when several)
    exercises.start(); // reads the record (the chapter list's counts) and sends the progress event
  }

  function releaseLater() {
    if (m.released) return;
    m.released = true;
    // Next frame: the first result gets painted before the rest is built.
    win.requestAnimationFrame(() => win.setTimeout(() => {
      if (m.destroyed) return;
      compute?.client.start(); // the first result is on screen: now the worker may use the CPU
      afterFirstView();
      buildPanels(); // sets data-settled once every shown panel is built (tests and hosts wait for it)
      render('engine');
    }));
  }

  // ---- state ----
  function revalidate() {
    m.check = validate(m.state, {
      resolveView: rawResolveView ?? undefined, analyze: rawAnalyze ?? undefined, budget: m.engine?.defaultMemoryBudget, isa: m.engine?.isa, lastEdited: m.lastEdited,
      trainingCost: rawTrainingCost ?? undefined, trainingHeld: (train) => trainedKey(train) === m.trainedHeld,
      cores: win.navigator?.hardwareConcurrency,
    });
    m.plainConfig = m.check.config;
    m.check = withImports(m.check, m.imported, m.state); // the config names the imports, or says why they no longer fit
  }

  /** Applies changes; kind: 'edit' and 'load' are the learner's (a `change` event), 'set' the host's. */
  function apply(changes, { edited = null, kind = 'set', replace = false, preset = '' } = {}) {
    if (m.destroyed) return false;
    const next = withChanges(replace ? defaults() : m.state, changes);
    const changed = changedKeys(m.state, next);
    if (!changed.length) return false;
    const before = m.check?.config;
    m.state = next;
    if (edited) m.lastEdited = edited;
    if (kind === 'load') m.lastPreset = preset;
    if (kind === 'load' && preset === 'training') m.trainedHeld = trainedKeyOf(next); // the lab's model: no training again
    m.editing = kind === 'edit' ? edited : null;
    if (kind !== 'set') m.linkNotes = []; // the view is no longer the link's
    if (changed.includes('simd')) connect();
    if (changed.includes('imported') && !next.imported) m.imported = null; // the imports let go of
    if (changed.includes('theme')) applyTheme();
    if (['panels', 'controls', 'chapter', 'hide'].some((key) => changed.includes(key))) applyVisibility();
    if (changed.includes('label')) shell.setLabel(next.label);
    revalidate();
    const now = m.check.config;
    // A quick run is posted before the panels redraw, so the worker computes while they do.
    quietStart = true;
    scheduleRun();
    quietStart = false;
    // The host hears of the change before the panels redraw: the page then writes the address while its
    // layout is still clean (history.pushState lays the page out to save the scroll position, which after
    // the redraw would cost a layout of its own before the result's).
    if (kind !== 'set') emit('change', { state: getState(), field: edited, kind });
    render('state');
    m.editing = null;
    // The batch item shown is a view of the result: fetch it without re-running.
    if (before && now && before.item !== now.item && m.result?.key === configKey(now)) showItem(now.item);
    reportProblems();
    return true;
  }

  function getState() {
    return { ...m.state };
  }

  /** The host's changes (attributes, a hash change, a widget's model): `replace` resets absent fields. */
  function setState(changes, { replace = false, notes } = {}) {
    if (!changes || typeof changes !== 'object') throw new Error(`setState expects an object of fields, got ${changes === null ? 'null' : typeof changes}`);
    const keys = Object.keys(changes);
    m.lastEdited = keys.length === 1 ? keys[0] : null;
    if (notes) m.linkNotes = notes;
    const changed = apply(changes, { kind: 'set', replace, edited: m.lastEdited });
    if (!changed && notes) render('state');
  }

  /**
   * One event per problem or note not reported yet: `error` for a field's message or a size refusal
   * (the view cannot run as asked), `note` for what the view says about itself and still runs (a
   * link's value replaced, the panels that show imported maps): a host counting errors counts only errors.
   */
  function reportProblems() {
    if (!m.engine || !m.check) return;
    const now = new Set();
    const problems = Object.entries(m.check.errors).map(([field, message]) => ({ type: 'error', field, message }));
    if (m.check.blocked) problems.push({ type: 'error', field: m.check.blocked.field, message: m.check.blocked.message });
    for (const n of m.check.notes ?? []) problems.push({ type: 'note', field: n.field, message: n.text });
    for (const p of problems) {
      const key = `${p.type}\n${p.field}\n${p.message}`;
      now.add(key);
      if (!reported.has(key)) emit(p.type, { message: p.message, field: p.field });
    }
    reported = now;
  }

  // ---- compute ----
  function connect() {
    if (baseError) {
      m.engineError = { message: baseError, retry: false };
      win.setTimeout(() => emit('error', { message: baseError, field: null }));
      return;
    }
    const simd = m.state.simd === '0' ? false : m.state.simd === '1' ? true : undefined;
    if (compute && computeKey === String(simd)) return;
    compute?.release();
    computeKey = String(simd);
    m.engine = null;
    m.engineError = null;
    rawAnalyze = rawTrainingCost = rawResolveView = m.trainedHeld = null;
    m.result = null;
    peakRequested = false;
    const mine = acquireCompute({ simd, base, doc, compiled: options.compiled });
    compute = mine;
    mine.engine.then(() => win.performance.mark('attention-main-engine'), () => {});
    mine.client.ready.then(() => win.performance.mark('attention-worker-ready'), () => {});
    mine.engine.then((api) => {
      if (compute !== mine || m.destroyed) return;
      rawAnalyze = api.analyze;
      rawResolveView = api.resolveView;
      rawTrainingCost = api.trainingCost;
      m.engine = Object.freeze({
        isa: api.isa, defaultMemoryBudget: api.defaultMemoryBudget,
        get inPage() { return mine.client.inPage; }, // no worker could start: everything runs on this thread
        analyze: (o) => api.analyze(o),
        lessonExamples: api.lessonExamples, modelPresets: api.modelPresets,
        positionalEncoding: api.positionalEncoding, positionalProperties: api.positionalProperties, sqrtDkStats: api.sqrtDkStats,
      });
      engineReady();
    }, (err) => {
      if (compute !== mine || m.destroyed) return;
      m.engineError = { message: String(err?.message ?? err), retry: true };
      releaseLater();
      render('status');
      emit('error', { message: `The WebAssembly engine could not start: ${m.engineError.message}`, field: 'simd' });
    });
  }

  function engineReady() {
    win.performance.mark('attention-engine-ready');
    revalidate();
    const first = m.check.ok && !m.check.blocked && m.check.auto;
    if (first) run().catch(() => {});
    render('engine');
    if (!first) releaseLater();
    resolveReady();
    reportProblems();
  }

  function scheduleRun() {
    win.clearTimeout(debounce);
    debounce = 0;
    const { check } = m;
    if (!m.engine || !check?.ok || check.blocked || !check.auto) return;
    const key = configKey(check.config);
    if (m.result?.key === key || m.running?.key === key) return;
    if (m.notice?.key === key) return; // it failed or was cancelled for these inputs: the learner decides
    // Wait only as long as the run's estimated cost requires: a run quicker than a frame starts now.
    const wait = waitBeforeRun(check.estimate?.seconds);
    if (wait === 0) run().catch(() => {});
    else debounce = win.setTimeout(() => { debounce = 0; run().catch(() => {}); }, wait);
  }

  /** Runs the current inputs; resolves with the result's detail, rejects with what stopped it. */
  function run() {
    if (m.destroyed) return Promise.reject(new Error('this playground was removed'));
    win.clearTimeout(debounce);
    debounce = 0;
    if (m.engineError) return Promise.reject(new Error(`the WebAssembly engine could not start: ${m.engineError.message}`));
    if (!m.engine) return ready.then(() => run());
    const { check } = m;
    const [firstError] = Object.entries(check.errors);
    if (firstError) return Promise.reject(fieldError(...firstError));
    if (check.blocked) return Promise.reject(fieldError(check.blocked.field, check.blocked.message));
    const key = configKey(check.config);
    if (m.running) {
      if (m.running.key === key) return m.running.promise;
      if (!pendingRun) {
        pendingRun = {};
        pendingRun.promise = new Promise((resolve, reject) => Object.assign(pendingRun, { resolve, reject }));
        pendingRun.promise.catch(() => {});
      }
      return pendingRun.promise;
    }
    return start(check, key);
  }

  function start(check, key) {
    const config = check.config;
    const stateAtStart = getState();
    const running = { key, startedAt: win.performance.now(), estimate: check.estimate, progress: null, showProgress: false };
    m.running = running;
    m.notice = null;
    // The request is posted before the panels re-render, so the worker starts at once.
    const reply = compute.session.run(config, (p) => {
      if (m.running !== running) return;
      running.progress = p;
      if (running.showProgress) render('progress');
    }, { deadlineMs: deadlineFor(check.estimate.seconds * 1000), estimateSeconds: check.estimate.seconds, timed: false });
    if (!quietStart) render('running');
    progressTimer = win.setTimeout(() => {
      if (m.running !== running) return;
      running.showProgress = true;
      render('progress');
    }, PROGRESS_AFTER_MS);
    let moved = false;
    /** Once this run has answered: the newer inputs that waited run (or the current ones are scheduled). */
    const moveOn = () => {
      if (moved) return;
      moved = true;
      win.clearTimeout(progressTimer);
      const next = pendingRun;
      pendingRun = null;
      if (next && !m.destroyed) run().then(next.resolve, next.reject);
      else if (!m.destroyed) scheduleRun();
    };
    running.promise = reply.then(async (r) => {
      win.performance.mark('attention-run-reply');
      const analysis = check.analysis;
      const describe = (timings) => Object.freeze({ state: stateAtStart, shapes: analysis.shapes, isa: r.isa, ms: timings.forward_ms });
      if (config.train) {
        m.trainedHeld = trainedKey(config.train); // the worker keeps it for the next run
        revalidate(); // so the estimate of what follows (compare, another input) counts no training
      }
      // Newer inputs wait to run (or will): this result is never drawn, nor announced. The status stops
      // saying "Running…" now: the inputs that waited may no longer be runnable (an edit made them invalid),
      // and then no run follows to redraw it.
      if (pendingRun || debounce) {
        m.running = null;
        render('status');
        return describe(r.timings);
      }
      m.result = { key, config, analysis, timings: r.timings, isa: r.isa, output_sum: r.output_sum, masked_rows: r.masked_rows,
        item: r.item, patterns: r.patterns ?? null, gflops: fmt.gflops(analysis.flops.exact_flops, r.timings.forward_ms), workers: r.workers ?? null,
        detail: describe(r.timings) };
      /** The run's line in the record of runs (the performance panel), with its time. */
      const record = () => {
        const { timings, gflops } = m.result;
        m.runs = [{
          at: Date.now(), isa: r.isa, ms: timings.forward_ms, setup_ms: timings.setup_ms, gflops, repeats: timings.repeats, workers: r.workers ?? null,
          label: `d_model ${fmt.int(config.d_model)} · h ${config.n_heads} · n_q ${fmt.int(config.n_q)} · n_k ${fmt.int(config.n_k)} · batch ${config.batch}`,
        }, ...m.runs].slice(0, RUNS_KEPT);
      };
      if (!r.timings.untimed) record();
      m.running = null;
      render('result');
      if (m.firstResultMs === null) {
        m.firstResultMs = win.performance.now() - startedAt;
        releaseLater();
      }
      emit('drawn', m.result.detail); // the page's own mark of its first view (page/main.js); not a host event
      // The batch item shown may have changed while this ran.
      const now = m.check?.config;
      if (now && configKey(now) === key && now.item !== r.item.b) showItem(now.item);
      // The maps are drawn: a quick pass, which the run did not wait to time, is timed now; the status
      // line, the run's record and the `result` event carry that time. An edit that waited runs first.
      if (r.timings.untimed) {
        moveOn();
        const once = { ...r.timings, untimed: undefined }; // one pass's time, if no better one comes
        const timings = await compute.session.time(config, { deadlineMs: passDeadline(config, 50) }).then((t) => t.timings ?? once, () => once);
        if (m.destroyed || m.result?.key !== key) return describe(timings); // replaced meanwhile: not announced
        m.result = { ...m.result, timings, gflops: fmt.gflops(analysis.flops.exact_flops, timings.forward_ms), detail: describe(timings) };
        record();
        render('perf');
        if (!m.check?.config || configKey(m.check.config) !== key) return m.result.detail; // the inputs moved on: not announced
      }
      emit('result', m.result.detail);
      // After the result is on screen and announced, so it never delays one (asking starts the worker).
      if (!peakRequested && !m.destroyed) measurePeak(); // (a listener may have removed the playground)
      return m.result.detail;
    }, (err) => {
      m.running = null;
      releaseLater();
      if (err instanceof Cancelled) m.notice = { key, kind: 'info', text: 'Cancelled. Change the inputs or press Run again.' };
      else if (err instanceof WorkerLost) m.notice = { key, kind: 'error', text: `The run did not finish: ${err.message}. Press Run to try again.` };
      else m.notice = { key, kind: 'error', text: `The run failed: ${err.message}. Change the inputs, or press Run to try again.` };
      render('status');
      if (!(err instanceof Cancelled)) emit('error', { message: m.notice.text, field: null });
      throw err;
    }).finally(moveOn);
    running.promise.catch(() => {});
    return running.promise;
  }

  function cancel() {
    if (!compute) return;
    pendingRun?.reject(new Cancelled());
    pendingRun = null;
    compute.session.cancel();
  }

  /**
   * The deadline of a request that costs about `passes` forward passes of `config` (plus making its
   * layer, should a restarted worker have lost it): from the config's last run when there is one,
   * else from the estimate of one run (weights and pass), which errs long.
   */
  function passDeadline(config, passes) {
    const last = m.result?.key === configKey(config) ? m.result.timings : null;
    const ms = last ? passes * last.forward_ms + last.setup_ms : passes * (m.check?.estimate?.seconds ?? 30) * 1000;
    return deadlineFor(ms);
  }

  /** Asks the compute for another batch item of the current result. */
  async function showItem(b) {
    const config = m.check?.config;
    if (!config || !compute) return;
    const key = configKey(config);
    try {
      const reply = await compute.session.item(config, b, { deadlineMs: passDeadline(config, 1) });
      if (m.result?.key === key && m.check?.config?.item === b) {
        m.result = { ...m.result, item: reply.item };
        render('result');
      }
    } catch (err) {
      if (err instanceof Cancelled || m.destroyed) return;
      m.notice = { key, kind: 'error', text: `Batch item ${b} could not be shown: ${err.message}. Press Run to try again.` };
      render('status');
    }
  }

  /**
   * A feature's panel module (a lazy one loaded as for its panel), its compute requests as actions and
   * the current view: for what a feature offers the host besides its panel (the export's API).
   */
  async function feature(name) {
    const spec = sections.get(name)?.spec;
    if (!spec) throw new Error(`“${name}” is not a feature`);
    const module = spec.lazy ? await lazyPanel(name) : spec.panel;
    // Removed while the module loaded: its view is gone (an export would read "still loading").
    if (m.destroyed) throw new Error('this playground was removed');
    return { module, actions: ctxFor(name, module).actions, view: view() };
  }

  /**
   * Brings tensors into this view ({ query, key, value, wq, …, bo } or { attention }, see
   * import/tensors.js): checked against the view, handed to the compute, and the view runs with them
   * (its link then says imported=…) until `imported` is set to none. Resolves with the run's result.
   */
  async function importTensors(given) {
    refuseLockedImport(given, lockedKeys(m.state)); // the drop zone and importTensors() both come here
    const { module, actions } = await feature('export');
    const held = await module.holdImport(actions, given, m.plainConfig);
    m.imported = held;
    if (!apply({ imported: held.kind }, { kind: 'edit', edited: 'imported' })) { // an edit: the page's link says so
      revalidate();
      render('state');
    }
    return run();
  }

  async function measurePeak() {
    peakRequested = true;
    const mine = compute;
    try {
      const peak = await mine.client.peak();
      if (compute !== mine || m.destroyed) return;
      m.peak = peak;
    } catch (err) {
      if (compute !== mine || m.destroyed) return;
      // Cancelled or lost with the worker: ask again after the next result. Any other failure: no peak.
      if (err instanceof Cancelled || err instanceof WorkerLost) peakRequested = false;
      else m.peak = null;
    }
    render('perf');
  }

  function destroy() {
    if (m.destroyed) return;
    m.destroyed = true;
    win.clearTimeout(debounce);
    win.clearTimeout(catchUpTimer);
    screen.disconnect();
    win.clearTimeout(progressTimer);
    pendingRun?.reject(new Error('this playground was removed'));
    exercises.destroy();
    for (const entry of sections.values()) {
      try {
        entry.panel?.destroy?.();
      } catch {
        // a panel that fails to clean up must not keep the rest from being freed
      }
    }
    runbar.destroy();
    shell.destroy();
    compute?.release();
    compute = null;
    listeners.clear();
    m.result = null;
    m.check = null;
  }

  // ---- start (the compute was asked for first: its download and compile overlap the building) ----
  if (baseError) afterFirstView(); // no engine, so no first result to wait for
  applyTheme();
  applyVisibility();
  revalidate();
  render('state');
  win.performance.mark('attention-built');

  return {
    get state() { return getState(); },
    set state(value) { setState(value, { replace: true }); },
    getState,
    setState,
    run,
    cancel,
    /** The last result's detail ({ state, shapes, isa, ms }), or null. */
    get result() { return m.result?.detail ?? null; },
    /** Resolves once the engine is loaded (the first run may still be going). */
    ready,
    on,
    destroy,
    get destroyed() { return m.destroyed; },
    /** The playground's shadow root (for hosts that need to look inside, e.g. tests). */
    root: shadow,
    /** A feature's module, actions and the current view (see feature() above). */
    feature,
    /** Tensors in: see importTensors() above. */
    importTensors,
    /** The exercises shown ([{ id, chapter, kind, prompt }]); answer(id, value) → Promise of { correct, expected, explanation,
     * first_try, revealed }, or { correct: false, hint } after a first wrong try; reveal(id) → Promise of { expected, explanation, … }. */
    get exercises() { return exercises.list(); },
    answer: (id, value) => exercises.answer(id, value),
    reveal: (id) => exercises.reveal(id),
    /** { chapter, done, total, score, first_try, chapters } of the exercises shown; clearProgress() forgets every attempt. */
    get progress() { return exercises.progress(); },
    clearProgress: () => exercises.clear(),
  };
}
