// The inputs panel: keeps the form and the state in step, shows each validation message next to
// its field, and shows the sizes that are derived rather than typed (d_k, d_v, token counts).

import { FIELDS } from '../model/schema.js';
import { sentences } from '../model/inputs.js';
import { exampleChanges, modelChanges, presetValue } from '../model/presets.js';
import * as fmt from '../model/format.js';
import { h } from '../ui/dom.js';

const CHECKBOXES = new Set(['bias', 'scale']);

export function createControls(form, app) {
  const byName = (name) => form.elements.namedItem(name);
  const presetSelect = byName('preset');
  let presetsFilled = false;

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    app.run();
  });
  const onEdit = (e) => {
    const el = e.target;
    if (!el.name || el.name === 'preset') return;
    const value = el.type === 'checkbox' ? (el.checked ? '1' : '0') : el.value;
    if (app.state[el.name] === value) return;
    app.set({ [el.name]: value }, { edited: el.name });
  };
  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  // Enter in a field runs even a large problem (the Run button's job, one key away).
  form.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.target.tagName === 'INPUT') {
      e.preventDefault();
      app.run();
    }
  });

  presetSelect.addEventListener('change', () => {
    const [kind, id] = presetSelect.value.split(/:(.*)/s);
    presetSelect.value = '';
    if (!app.engine || !kind) return;
    if (kind === 'example') {
      const ex = app.engine.lessonExamples().find((e) => e.id === id);
      if (ex) app.loadChanges(exampleChanges(ex));
    } else if (kind === 'model') {
      const model = app.engine.modelPresets().find((m) => m.name === id);
      if (model) app.loadChanges(modelChanges(model));
    }
  });

  function fillPresets() {
    if (presetsFilled || !app.engine) return;
    presetsFilled = true;
    const examples = h('optgroup', { label: 'Worked examples of the lesson' },
      app.engine.lessonExamples().map((ex) => h('option', { value: presetValue('example', ex.id) }, `${ex.id}: ${ex.title}`)));
    const models = h('optgroup', { label: 'Models' },
      app.engine.modelPresets().map((m) => h('option', { value: presetValue('model', m.name) },
        `${m.name}: d_model ${fmt.int(m.d_model)}, ${m.n_heads} heads`)));
    presetSelect.append(examples, models);
  }

  /** Shows a value in a field unless the learner is typing in it (never move their cursor). */
  function show(name, value, { readOnly = false } = {}) {
    const el = byName(name);
    if (!el || el instanceof RadioNodeList) return;
    if (CHECKBOXES.has(name)) {
      el.checked = value === '1';
      return;
    }
    if (document.activeElement !== el && el.value !== value) el.value = value;
    el.readOnly = readOnly;
    el.closest('.field')?.classList.toggle('derived', readOnly);
  }

  function update(appState) {
    const { state, check } = appState;
    fillPresets();
    const config = check?.config;
    const text = state.source !== 'random';
    const cross = state.attention === 'cross';
    const derived = deriveDisplay(state);

    for (const { key } of FIELDS) {
      const el = byName(key);
      if (!el) continue;
      if (el instanceof RadioNodeList) {
        for (const radio of el) radio.checked = radio.value === state[key];
        continue;
      }
      if (key in derived) show(key, derived[key], { readOnly: true });
      else show(key, state[key]);
    }
    const auto = autoHeadSize(state);
    for (const name of ['d_k', 'd_v']) byName(name).placeholder = auto ? `auto: ${auto}` : 'auto';

    const fieldBox = (name) => form.querySelector(`[data-field="${name}"]`);
    fieldBox('text').hidden = !text;
    fieldBox('text_kv').hidden = !(text && cross);
    fieldBox('padding').hidden = !state.mask.includes('padding');
    fieldBox('dropout_seed').hidden = !(Number(state.dropout) > 0);
    form.querySelector('#l-text').textContent = cross
      ? 'Decoder sentence: the queries (each line a batch item)'
      : 'Sentence: each word is a token, each line a batch item';

    // One message per field; a run refused for size shows beside the field that made it too large.
    const messages = { ...(check?.errors ?? {}) };
    if (check?.blocked && !messages[check.blocked.field]) messages[check.blocked.field] = check.blocked.short;
    for (const msg of form.querySelectorAll('.msg')) {
      const name = msg.id.slice(2);
      const message = messages[name] ?? '';
      if (msg.textContent !== message) msg.textContent = message;
      const input = byName(name);
      const box = fieldBox(name);
      // A message on a hidden or derived field would be invisible: surface it on the visible source.
      if (message && box?.hidden) box.hidden = false;
      if (input && !(input instanceof RadioNodeList)) {
        input.setAttribute('aria-invalid', message ? 'true' : 'false');
        input.setAttribute('aria-describedby', msg.id);
      }
      box?.classList.toggle('invalid', !!message);
      box?.classList.toggle('warning', !!message && !check?.errors?.[name]);
    }

    form.querySelector('#dims-hint').textContent = config ? dimsHint(config) : '';
    form.querySelector('#tokens-hint').textContent = config ? tokensHint(config) : '';
  }

  return { name: 'controls', update };
}

/** Values shown read-only because they follow from other inputs (sentences, self-attention). */
function deriveDisplay(state) {
  const shown = {};
  if (state.source !== 'random') {
    // Counted from the sentences (even while another field is invalid): read-only, typing would mean nothing.
    const longest = (lines) => (lines.length ? String(Math.max(...lines.map((t) => t.length))) : '');
    const q = sentences(state.text);
    const kv = state.attention === 'cross' ? sentences(state.text_kv) : q;
    Object.assign(shown, { n_q: longest(q), n_k: longest(kv), batch: q.length ? String(q.length) : '' });
    if (state.mask.includes('padding')) shown.padding = kv.map((t) => t.length).join(',');
  } else if (state.attention !== 'cross') {
    shown.n_k = state.n_q; // self-attention: the keys are the queries' own tokens
  }
  return shown;
}

/** d_model / n_heads when it is whole, for the placeholder of d_k and d_v. */
function autoHeadSize(state) {
  const d_model = Number(state.d_model), n_heads = Number(state.n_heads);
  return Number.isInteger(d_model) && Number.isInteger(n_heads) && n_heads > 0 && d_model % n_heads === 0
    ? fmt.int(d_model / n_heads) : '';
}

function dimsHint(c) {
  return c.d_k * c.n_heads === c.d_model && c.d_v === c.d_k
    ? `Each of the ${c.n_heads} heads works in d_k = d_v = ${fmt.int(c.d_model)} / ${c.n_heads} = ${fmt.int(c.d_k)} dimensions; together they span d_model again.`
    : `Heads of d_k = ${fmt.int(c.d_k)}, d_v = ${fmt.int(c.d_v)}: n_heads·d_v = ${fmt.int(c.n_heads * c.d_v)} columns go into Wᴼ, which maps them back to d_model = ${fmt.int(c.d_model)}.`;
}

function tokensHint(c) {
  if (c.source === 'text') {
    const kv = c.cross ? `, the encoder ${c.n_k} (n_k)` : '';
    const pad = c.batch > 1 ? ' Shorter lines are filled with <pad> tokens.' : '';
    return `The longest query line has ${c.n_q} tokens (n_q)${kv}; ${c.batch} line${c.batch > 1 ? 's' : ''} = batch ${c.batch}.${pad}`;
  }
  return c.cross
    ? `Cross-attention: ${fmt.int(c.n_q)} decoder queries attend to ${fmt.int(c.n_k)} encoder keys and values.`
    : `Self-attention: every token is a query and a key, so n_k = n_q = ${fmt.int(c.n_q)}.`;
}
