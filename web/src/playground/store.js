// A playground's state store over the schema: the view's fields (model/schema.js), what the last edit
// was, the validation of the current state (model/validate.js, with the engine's analysis once it is
// loaded, and the imported tensors), and the one way a change gets in: apply(), which then tells the
// other parts (theme, panels, engine, runs, events) what changed, in the order that keeps a keystroke
// quick. Also the edit guards: a read-only playground and the fields an author locked.

import { defaults, withChanges, changedKeys, VIEW_ONLY } from '../model/schema.js'; // VIEW_ONLY: fields a read-only playground still lets the learner change
import { validate, configKey } from '../model/validate.js';
import { trainedKey, trainedKeyOf } from '../model/training_settings.js';
import { withoutImports } from '../import/link_note.js';
import { lockedKeys, PANEL_KEYS } from '../lesson/chapters.js';


/**
 * The fields every part of one playground reads, each written by the part named beside it. One object,
 * so that a panel's view (view.js) is a snapshot of all of them.
 */
export function createModel(options) {
  return {
    // the store's
    state: withChanges(defaults(), options.state ?? {}),
    lastEdited: null,
    editing: null,     // the field whose input caused this render (the form keeps its cursor there)
    check: null,
    linkNotes: options.notes ?? [],
    lastPreset: '',    // the preset loaded last (two presets can share sizes)
    trainedHeld: null, // trainedKey of the trained model the worker holds (the lab's, or the last trained run's)
    imported: null,    // tensors importTensors handed to the compute for this view: { id, kind, shapes, fit } (import/tensors.js; fit: import_view.js's withImports)
    plainConfig: null, // the view's config without its imports (what a new import is checked against)
    // the run scheduler's (runs.js)
    result: null,      // { key, config, analysis, timings, isa, output_sum, masked_rows, item, gflops, workers, detail }
    running: null,     // { key, startedAt, estimate, progress, showProgress, promise }
    runs: [],
    notice: null,      // { key, kind, text }: what happened to the run of the inputs with this key
    firstResultMs: null,
    // the engine connection's (connection.js)
    engine: null,
    engineError: null, // { message, retry }: the engine could not start (retry: reloading may help)
    // the panel host's (panel_host.js) and the playground's own
    released: false,   // lazy panels may be built
    destroyed: false,
  };
}

/**
 * The store of model `m`. p: the playground's parts (playground.js), reached when a change is applied:
 * p.connection, p.runs, p.panels, p.redraw, p.events, p.applyTheme, p.shell.
 */
export function createStore(m, p) {
  const { win } = p;
  const readOnly = () => m.state.controls === '0';

  /** Is this edit allowed at all: a read-only playground takes view fields only. */
  const editable = (changes) => !readOnly() || Object.keys(changes).every((k) => VIEW_ONLY.has(k));

  /**
   * A preset or the lab's layer replaces the layer: constructed heads (the lesson's start has three) are
   * built for sentences and seeded weights, so they go back to random when the preset leaves either.
   */
  function withoutStaleHeads(changes) {
    const next = { ...m.state, ...changes };
    const built = String(next.heads ?? '').split(',').some((part) => part.trim() && part.trim() !== 'random');
    return !('heads' in changes) && built && (next.source !== 'text' || next.weights === 'trained') ? { ...changes, heads: '' } : changes;
  }

  /** `changes` without the fields the author locked (lock=): setState, the author's way, still sets them. */
  function unlocked(changes) {
    const locked = lockedKeys(m.state);
    return Object.fromEntries(Object.entries(changes).filter(([key]) => !locked.has(key)));
  }

  function revalidate() {
    const raw = p.connection.raw();
    m.check = validate(m.state, {
      resolveView: raw.resolveView ?? undefined, analyze: raw.analyze ?? undefined, budget: m.engine?.defaultMemoryBudget, isa: m.engine?.isa, lastEdited: m.lastEdited,
      trainingCost: raw.trainingCost ?? undefined, trainingHeld: (train) => trainedKey(train) === m.trainedHeld,
      cores: win.navigator?.hardwareConcurrency,
    });
    m.plainConfig = m.check.config;
    // With imports, the config names them or says why they no longer fit (import_view.js's check, from panels.js: imports.js).
    m.check = m.imported ? m.imported.fit(m.check, m.imported, m.state) : withoutImports(m.check, m.state);
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
    if (changed.includes('simd')) p.connection.connect();
    if (changed.includes('imported') && !next.imported) m.imported = null; // the imports let go of
    if (changed.includes('theme')) p.applyTheme();
    if (PANEL_KEYS.some((key) => changed.includes(key))) p.panels.applyVisibility();
    if (changed.includes('label')) p.shell.setLabel(next.label);
    revalidate();
    const now = m.check.config;
    // A quick run is posted before the panels redraw, so the worker computes while they do.
    p.runs.scheduleQuietly();
    // The host hears of the change before the panels redraw: the page then writes the address while its
    // layout is still clean (history.pushState lays the page out to save the scroll position, which after
    // the redraw would cost a layout of its own before the result's).
    if (kind !== 'set') p.events.emit('change', { state: getState(), field: edited, kind });
    p.redraw.render('state');
    m.editing = null;
    // The batch item shown is a view of the result: fetch it without re-running.
    if (before && now && before.item !== now.item && m.result?.key === configKey(now)) p.runs.showItem(now.item);
    p.reportProblems();
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
    if (!changed && notes) p.redraw.render('state');
  }

  return { readOnly, editable, withoutStaleHeads, unlocked, revalidate, apply, getState, setState };
}
