// <attention-playground>: a playground as a custom element, for any page that takes a script (plain
// HTML, MkDocs, Quarto). Its attributes are the URL hash's keys plus theme and controls; an attribute
// change updates the view. Properties: state (the whole view, settable), result (the last result);
// method: run(). Events, bubbling and composed: result { state, shapes, isa, ms }, error { message,
// field }, note { message, field }, change { state } (the learner's edits); importTensors(). A child
// <script type="application/json" slot="lesson"> holds an author's words and exercises (web/src/author/;
// read when the element enters the document). A feature's service adds its own events
// and members (features/services.js: the exercises' property exercises, answer(id, value), clearProgress(),
// events attempt and progress; the export's exportTensors() and exportBundle(); web/EMBED.md), defined
// below from that list.

import { createPlayground } from '../playground/playground.js';
import { ELEMENT_KEYS, defaults, withChanges } from '../model/schema.js';
import { HOST_EVENTS, ELEMENT_API } from '../features/services.js';
import { startState } from '../lesson/chapters.js';

const Base = globalThis.HTMLElement ?? class {}; // importable where there is no DOM (nothing is defined there)
const PLAYGROUND = Symbol('playground'); // the element's playground, for the members its features add (below)

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
      progress: progressScope(this), // what the learner did (the exercises' attempts) is kept per page and element id
      lesson: lessonOf(this), // an author's words and exercises: a child <script type="application/json" slot="lesson">
    });
    for (const [type, detail] of Object.entries(HOST_EVENTS)) this.#playground.on(type, (d) => fire(type)(detail(d)));
  }

  /** The playground while in a document, else null (for the members the features add). */
  [PLAYGROUND]() {
    return this.#playground;
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
    // Out of a document: the view kept since its removal takes the change too (read back on return).
    if (!this.#playground) {
      if (this.#state) this.#state = withChanges(this.#state, { [name]: value });
      return;
    }
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

  /** Runs the current view; a Promise of the result. */
  run() {
    if (!this.#playground) return Promise.reject(new Error('<attention-playground> runs once it is in a document'));
    return this.#playground.run();
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

// The members a feature's service adds (features/services.js), e.g. the exercises': exercises (the current
// chapter's, or those the attribute of that name lists: [{ id, chapter, kind, prompt }]), answer(id, value) (as the
// learner's input: a Promise of { correct, expected, explanation } and an `attempt` event), clearProgress()
// (forgets this element's attempts and the stored record; a `progress` event follows); the export's
// exportTensors() (every tensor of the current run, { name: { shape, data } }) and exportBundle() (a
// Promise of a Blob: a zip of the run's tensors, view.json and reproduce.py). Out of a document each does
// what its service says (detached).
for (const [name, spec] of Object.entries(ELEMENT_API)) {
  const { detached } = spec.element;
  Object.defineProperty(AttentionPlaygroundElement.prototype, name, spec.get
    ? { configurable: true, get() { const playground = this[PLAYGROUND](); return playground ? playground[name] : detached(progressScope(this)); } }
    : { configurable: true, writable: true, value(...args) { const playground = this[PLAYGROUND](); return playground ? playground[name](...args) : detached(progressScope(this), ...args); } });
}

/** The JSON text of the element's child <script type="application/json" slot="lesson">, or null. */
function lessonOf(el) {
  const script = [...el.children].find((child) => child.localName === 'script' && child.getAttribute('slot') === 'lesson');
  if (!script) return null;
  const type = (script.getAttribute('type') ?? '').trim().toLowerCase();
  if (type !== 'application/json') return new Error(`the slot="lesson" script has type="${type}": give type="application/json" (any other type would run as code)`);
  return script.textContent.trim() ? script.textContent : new Error('the slot="lesson" script is empty: put the lesson\'s JSON in it, or remove it');
}

/** Where an element's progress is kept: its page's path and its id ('' for an element without one). */
function progressScope(el) {
  return `${el.ownerDocument.defaultView?.location?.pathname ?? ''}#${el.id}`;
}

/** Defines <attention-playground> (once: a second copy of this module leaves the first in place). */
export function defineElement(registry = globalThis.customElements) {
  if (registry && !registry.get('attention-playground')) registry.define('attention-playground', AttentionPlaygroundElement);
}
