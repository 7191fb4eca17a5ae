// <attention-playground>: a playground as a custom element, for any page that takes a script (plain
// HTML, MkDocs, Quarto). Its attributes are the URL hash's keys plus theme and controls; an attribute
// change updates the view. Properties: state (the whole view, settable), result (the last result);
// method: run(). Events, bubbling and composed: result { state, shapes, isa, ms }, error { message,
// field }, change { state } (the learner's edits). The exercises (web/EMBED.md): property exercises,
// answer(id, value), reveal(id), clearProgress(), events attempt, progress and exercises.

import { createPlayground } from '../playground/playground.js';
import { ELEMENT_KEYS, defaults, withChanges } from '../model/schema.js';
import { writeRecord } from '../lesson/exercises/index.js';
import { startState } from '../lesson/chapters.js';

const Base = globalThis.HTMLElement ?? class {}; // importable where there is no DOM (nothing is defined there)

export class AttentionPlaygroundElement extends Base {
  static get observedAttributes() {
    return ELEMENT_KEYS;
  }

  #playground = null;
  #state = null; // the view while not in a document: set by `state`, or read from the attributes

  connectedCallback() {
    if (this.#playground) return;
    const state = this.#state ?? this.#fromAttributes();
    this.#state = null;
    const fire = (type) => (detail) => this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    this.#playground = createPlayground(this, {
      state, theme: 'light', layout: 'embedded',
      onResult: fire('result'),
      onError: fire('error'),
      onNote: fire('note'),
      onChange: ({ state: now }) => fire('change')({ state: now }),
      progress: exerciseScope(this), // the exercises' progress is kept per page and element id
    });
    this.#playground.on('attempt', fire('attempt'));
    this.#playground.on('progress', ({ chapters, ...detail }) => fire('progress')(detail)); // every chapter's counts stay inside
    this.#playground.on('exercises', fire('exercises'));
  }

  /** Removed from the page: everything this element alone held is freed (its view is kept for a return). */
  disconnectedCallback() {
    if (!this.#playground) return;
    this.#state = this.#playground.getState();
    this.#playground.destroy();
    this.#playground = null;
  }

  attributeChangedCallback(name, old, value) {
    // Applied even when the value is the one the attribute already had: the learner may have changed
    // that field since, and an author's "reset" sets the attribute again to bring it back.
    if (!this.#playground) return;
    this.#playground.setState({ [name]: value }); // a removed attribute (null) returns to its default
  }

  /** The view the attributes give; with none but the neutral ones (chapter, label, …) the lesson's start. */
  #fromAttributes() {
    const given = {};
    for (const key of ELEMENT_KEYS) if (this.hasAttribute(key)) given[key] = this.getAttribute(key);
    return startState(withChanges(defaults(), given), Object.keys(given));
  }

  /** The whole view: every key of the hash, as strings. */
  get state() {
    return this.#playground ? this.#playground.getState() : { ...(this.#state ?? this.#fromAttributes()) };
  }

  /** Replaces the whole view (absent keys take their defaults); numbers and booleans are accepted. */
  set state(value) {
    if (this.#playground) this.#playground.state = value;
    else this.#state = withChanges(defaults(), value ?? {});
  }

  /** The last result ({ state, shapes, isa, ms }), or null. */
  get result() {
    return this.#playground?.result ?? null;
  }

  /** The current chapter's exercises (or the `exercises` attribute's): [{ id, chapter, kind, prompt }]. */
  get exercises() {
    return this.#playground?.exercises ?? [];
  }

  /** Answers exercise `id` as the learner's input does: a Promise of { correct, expected, explanation, first_try, revealed }, or { correct: false, hint } after a first wrong try (an `attempt` event too). */
  answer(id, value) {
    if (!this.#playground) return Promise.reject(new Error('<attention-playground> answers once it is in a document'));
    return this.#playground.answer(id, value);
  }

  /** Shows exercise `id`'s answer ("Show answer"; it counts as revealed): a Promise of { expected, explanation, first_try, revealed }. */
  reveal(id) {
    if (!this.#playground) return Promise.reject(new Error('<attention-playground> answers once it is in a document'));
    return this.#playground.reveal(id);
  }

  /** Forgets this element's exercise attempts (and the stored progress); a `progress` event follows. */
  clearProgress() {
    if (this.#playground) this.#playground.clearProgress();
    else writeRecord(exerciseScope(this), {}); // not in a document: the stored record alone
  }

  /** Runs the current view; a Promise of the result. */
  run() {
    if (!this.#playground) return Promise.reject(new Error('<attention-playground> runs once it is in a document'));
    return this.#playground.run();
  }

  /** The export's functions over this playground (web/src/export/host.js; loaded with the lazy panels). */
  async #export() {
    if (!this.#playground) throw new Error('<attention-playground> exports once it is in a document');
    const { module, actions, view } = await this.#playground.feature('export');
    return { module, ctx: { actions, view } };
  }

  /** Every tensor of the current run, { name: { shape, data: Float32Array } }, from the engine. */
  exportTensors() {
    return this.#exporting('exportTensors', (module, ctx) => module.exportTensors(ctx));
  }

  /** A Promise of a Blob: a zip of the run's tensors (.npy), view.json and reproduce.py (PyTorch). */
  exportBundle() {
    return this.#exporting('exportBundle', (module, ctx) => module.exportBundle(ctx));
  }

  /** Runs an export; if the element is removed before it finishes, the error says so (whatever step it stopped at). */
  async #exporting(what, body) {
    const playground = this.#playground;
    try {
      const { module, ctx } = await this.#export();
      return await body(module, ctx);
    } catch (err) {
      if (playground?.destroyed) {
        throw new Error(`${what}() did not finish: this <attention-playground> was removed from the page before the export was ready; put it back (or export before removing it)`);
      }
      throw err;
    }
  }

  /**
   * Tensors in: { query, key, value, wq, wk, wv, wo, bq, bk, bv, bo } (inputs and parameters the run
   * uses) or { attention } (maps drawn as they are), each { shape, data } or an array of the view's
   * shape, with optional labels_q / labels_k; checked against the view. A Promise of the run's result.
   */
  importTensors(given) {
    if (!this.#playground) return Promise.reject(new Error('<attention-playground> imports once it is in a document'));
    return this.#playground.importTensors(given);
  }
}

/** The progress scope of an element: its page's path and its id ('' for an element without one). */
function exerciseScope(el) {
  return `${el.ownerDocument.defaultView?.location?.pathname ?? ''}#${el.id}`;
}

/** Defines <attention-playground> (once: a second copy of this module leaves the first in place). */
export function defineElement(registry = globalThis.customElements) {
  if (registry && !registry.get('attention-playground')) registry.define('attention-playground', AttentionPlaygroundElement);
}
