// The inputs panel: builds the form, keeps it and the state in step, shows each validation message next
// to its field, and shows the sizes that are derived rather than typed (d_k, d_v, token counts).

import { FIELDS } from '../../model/schema.js';
import { sentences } from '../../model/inputs.js';
import { presetList, activePreset } from '../../model/presets.js';
import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/controls.js';
import { setAttr, setText } from '../../ui/dom.js';

const CHECKBOXES = new Set(['bias', 'scale']);
/** Fields shown only when the state needs them (a sentence, a second sentence, key lengths, a dropout seed). */
const CONDITIONAL = new Set(['text', 'text_kv', 'padding', 'dropout_seed', 'window', 'stride', 'rope_base']);

/** Every field the form has an input for: a problem with one of these shows beside it. */
export { CONTROL_FIELDS } from '../../model/schema.js';

export function create(body, { dom, actions }) {
  const { h } = dom;
  const useSeeded = () => actions.edit({ weights: 'seeded', ...(current?.state.source === 'task' ? { source: 'text' } : {}) }, 'weights');
  const { form, presetSelect, dimsHint, trainedNote, trainedText, tokensHint, textLabel } = buildForm(dom, useSeeded);
  body.append(form);

  const byName = (name) => form.elements.namedItem(name);
  let presets = null;
  let current = null; // the view last drawn

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    actions.run();
  });
  const onEdit = (e) => {
    const el = e.target;
    if (!el.name || el.name === 'preset') return;
    const value = el.type === 'checkbox' ? (el.checked ? '1' : '0') : el.value;
    if (current?.state[el.name] === value) return;
    actions.edit({ [el.name]: value, ...paddingExample(current?.state, el.name, value) }, el.name);
  };
  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  // Enter in a field runs even a large problem (the Run button's job, one key away).
  form.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.target.tagName === 'INPUT') {
      e.preventDefault();
      actions.run();
    }
  });
  // The menu stays on the preset it loaded, so the arrow keys step from one preset to the next.
  presetSelect.addEventListener('change', () => {
    const preset = presets?.find((p) => p.value === presetSelect.value);
    if (preset) actions.load(preset.changes, preset.value);
  });

  // The menu needs the lesson's examples recomputed (the labs' module, loaded for them): asked once the
  // first result is on screen while the menu is in the form (a view without it never loads the labs), or as
  // soon as the learner reaches for it. The model table is the core's: a failed ask shows the models and why
  // the examples are missing.
  const fillNow = () => fillPresets(current?.engine);
  presetSelect.addEventListener('focus', fillNow);
  presetSelect.addEventListener('pointerdown', fillNow);
  let asked = false, failed = false; // after a failure only the learner's reach asks again, not every redraw
  function fillPresets(engine) {
    if (asked || !engine) return;
    asked = true;
    const fillWith = (examples, error) => {
      presets = presetList(examples, engine.modelPresets());
      const group = (label, kind) => h('optgroup', { label }, presets.filter((p) => p.kind === kind).map((p) =>
        h('option', { value: p.value }, p.kind === 'model' ? modelOption(p) : p.label)));
      const missing = error && h('optgroup', { label: text('controls.worked_examples_lesson') }, h('option', { value: '', disabled: true }, text('controls.examples_failed', { message: error })));
      presetSelect.replaceChildren(presetSelect.options[0], missing || group(text('controls.worked_examples_lesson'), 'example'), group('Models', 'model'));
      if (current) presetSelect.value = activePreset(current.state, presets, current.lastPreset);
    };
    engine.lessonExamples().then((examples) => fillWith(examples), (err) => {
      asked = false;
      failed = true;
      fillWith([], String(err?.message ?? err)); // the models meanwhile, and why the examples are missing
    });
  }

  /**
   * Shows a value in a field. The field the learner is typing in is left alone (never move their
   * cursor); any other change, from the link or a preset, is written even into a focused field.
   */
  function show(name, value, editing, { readOnly = false } = {}) {
    const el = byName(name);
    if (!el || isRadioGroup(el)) return;
    if (CHECKBOXES.has(name)) {
      el.checked = value === '1';
      return;
    }
    if (editing !== name && el.value !== value) el.value = value;
    el.readOnly = readOnly;
    el.closest('.field')?.classList.toggle('derived', readOnly);
  }

  function update(view) {
    current = view;
    const { state, check, editing } = view;
    if (view.settled && !failed && (view.formShows?.('preset') ?? true)) fillPresets(view.engine);
    if (presets) presetSelect.value = activePreset(state, presets, view.lastPreset);
    const config = check?.config;
    const isText = state.source === 'text';
    const trained = state.weights === 'trained';
    trainedNote.hidden = !trained;
    trainedText.textContent = trained
      ? text('controls.weights_learnt_training_lab', { train_task: state.train_task, train_steps: state.train_steps }) : '';
    // A task sample only means something to the trained layer: offered once there is one.
    for (const el of form.querySelectorAll('#f-source-task, label[for="f-source-task"]')) el.hidden = !trained && state.source !== 'task';
    const cross = state.attention === 'cross';
    const derived = deriveDisplay(state);

    for (const { key } of FIELDS) {
      const el = byName(key);
      if (!el) continue;
      if (isRadioGroup(el)) {
        for (const radio of el) radio.checked = radio.value === state[key];
        continue;
      }
      if (key in derived) show(key, derived[key], editing, { readOnly: true });
      else show(key, state[key], editing);
    }
    // The sizes the core resolved for an empty d_k or d_v (null until the engine has checked the view).
    for (const name of ['d_k', 'd_v']) byName(name).placeholder = config?.[name] ? text('controls.auto_value', { value: fmt.int(config[name]) }) : text('controls.auto');

    const fieldBox = (name) => form.querySelector(`[data-field="${name}"]`);
    fieldBox('text').hidden = !isText;
    fieldBox('text_kv').hidden = !(isText && cross);
    fieldBox('padding').hidden = !state.mask.includes('padding');
    fieldBox('window').hidden = state.mask !== 'sliding';
    fieldBox('stride').hidden = state.mask !== 'strided';
    fieldBox('rope_base').hidden = state.positional !== 'rope';
    fieldBox('dropout_seed').hidden = !(Number(state.dropout) > 0);
    setText(form.querySelector('#l-text'), cross ? text('controls.decoder_sentence_queries_each') : textLabel);

    showFieldsAndMessages(form, view, { dimsHint, tokensHint });
  }

  return { update };
}

/**
 * The form: every field with its message line, the preset menu and the hints under the fields. A field's
 * words are the lesson's, looked up by its name ('controls.field.<name>'), a choice's by its value
 * ('controls.<name>.<value>'): lesson/panels/controls.js.
 */
function buildForm(dom, useSeeded) {
  const { h } = dom;
  const words = (name) => text(`controls.field.${name}`);
  const msg = (name) => h('p', { class: 'msg', id: `m-${name}`, 'aria-live': 'polite' });
  // `code`: the field's name in code, its words after it (the layer's sizes); otherwise its words alone.
  const textField = (name, code, { mode = 'numeric', placeholder } = {}) => h('div', { class: 'field', dataset: { field: name } },
    h('label', { for: `f-${name}` }, code ? [h('code', {}, name), ' ', h('span', { class: 'what' }, words(name))] : words(name)),
    h('input', { id: `f-${name}`, name, type: 'text', inputmode: mode, spellcheck: 'false', placeholder }),
    msg(name));
  const check = (name) => h('div', { class: 'field check', dataset: { field: name } },
    h('input', { id: `f-${name}`, name, type: 'checkbox' }), h('label', { for: `f-${name}` }, words(name)), msg(name));
  const segmented = (name, values) => h('div', { class: 'field', dataset: { field: name } },
    h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': words(name) }, values.flatMap((value) => [
      h('input', { type: 'radio', id: `f-${name}-${value}`, name, value }), h('label', { for: `f-${name}-${value}` }, text(`controls.${name}.${value}`))])),
    msg(name));
  const menu = (name, values) => h('div', { class: 'field', dataset: { field: name } }, h('label', { for: `f-${name}` }, words(name)),
    h('select', { id: `f-${name}`, name }, values.map((value) => h('option', { value }, text(`controls.${name}.${value}`)))),
    msg(name));
  const area = (name, label, id) => h('div', { class: 'field', dataset: { field: name } },
    h('label', { for: `f-${name}`, id }, label), h('textarea', { id: `f-${name}`, name, rows: 2, spellcheck: 'false' }), msg(name));

  const presetSelect = h('select', { id: 'f-preset', name: 'preset' }, h('option', { value: '' }, text('controls.choose_worked_example_or')));
  const dimsHint = h('p', { class: 'hint', id: 'dims-hint' });
  // With weights=trained the layer is the training lab's: say so, with the way back.
  const trainedText = h('span');
  const trainedNote = h('p', { class: 'hint', id: 'trained-note', hidden: true }, trainedText, ' ',
    h('button', { type: 'button', class: 'secondary', id: 'use-seeded', onclick: useSeeded }, text('controls.use_seeded_weights')));
  const tokensHint = h('p', { class: 'hint', id: 'tokens-hint' });
  const textLabel = text('controls.sentence_each_word_token');
  const form = h('form', { id: 'controls', novalidate: true, autocomplete: 'off' },
    h('div', { class: 'field preset-field', id: 'preset-field' }, h('label', { for: 'f-preset' }, text('controls.start_from_preset')), presetSelect),
    h('fieldset', {}, h('legend', {}, text('controls.layer')),
      h('div', { class: 'grid2' },
        textField('d_model', 1), textField('n_heads', 1), textField('d_k', 1), textField('d_v', 1), check('bias'), textField('seed')),
      textField('n_kv_heads', 1, { placeholder: text('controls.empty_one_per_query') }),
      dimsHint, trainedNote),
    h('fieldset', {}, h('legend', {}, text('controls.tokens')),
      segmented('attention', ['self', 'cross']),
      segmented('source', ['text', 'random', 'task']),
      area('text', textLabel, 'l-text'),
      area('text_kv', text('controls.encoder_sentence_keys_values')),
      h('div', { class: 'grid2' }, textField('n_q', 1), textField('n_k', 1), textField('batch', 1), textField('input_seed')),
      tokensHint),
    h('fieldset', {}, h('legend', {}, text('controls.mask_positions_scale_dropout')),
      h('div', { class: 'grid2' },
        menu('mask', ['none', 'causal', 'padding', 'causal+padding', 'sliding', 'strided']),
        textField('padding', 0, { placeholder: 'e.g. 8,5' }), textField('window', 1), textField('stride', 1),
        menu('positional', ['none', 'rope', 'alibi']),
        textField('rope_base', 1, { mode: 'decimal', placeholder: text('controls.empty_engine_default') }),
        check('scale'),
        h('div', { class: 'field', dataset: { field: 'dropout' } }, h('label', { for: 'f-dropout' }, words('dropout'), h('var', {}, 'p')),
          h('input', { id: 'f-dropout', name: 'dropout', type: 'text', inputmode: 'decimal', spellcheck: 'false' }), msg('dropout')),
        textField('dropout_seed'))));
  return { form, presetSelect, dimsHint, trainedNote, trainedText, tokensHint, textLabel };
}

/**
 * The chapter's fields only (every field in reference), less the author's hide=; locked ones disabled;
 * one message per field beside it; the hints under the fields.
 */
function showFieldsAndMessages(form, view, { dimsHint, tokensHint }) {
  const { check } = view;
  const config = check?.config;
  const shows = view.formShows ?? (() => true);
  const locked = view.locked ?? new Set();
  form.querySelector('#preset-field').hidden = !shows('preset');
  // One message per field; a run refused for size shows beside the field that made it too large.
  const messages = { ...(check?.errors ?? {}) };
  if (check?.blocked && !messages[check.blocked.field]) messages[check.blocked.field] = check.blocked.short;
  for (const box of form.querySelectorAll('[data-field]')) {
    const name = box.dataset.field;
    const message = messages[name] ?? '';
    const msgEl = box.querySelector('.msg');
    if (msgEl) setText(msgEl, message);
    // Out of this form (the chapter's choice, or the author's hide=): its message goes to the run bar.
    const off = !shows(name);
    if (off) box.hidden = true;
    else if (!CONDITIONAL.has(name)) box.hidden = false;
    // A message on a field hidden because the state does not need it would be invisible: show the field with it.
    if (message && box.hidden && !off) box.hidden = false;
    box.classList.toggle('locked', locked.has(name));
    for (const input of box.querySelectorAll('input, textarea, select')) {
      // Written only when they change: ~140 same values on every redraw otherwise.
      setAttr(input, 'aria-invalid', message ? 'true' : 'false');
      if (msgEl) setAttr(input, 'aria-describedby', msgEl.id);
      // Locked by the author (lock=): shown, not editable (actions.edit refuses it too).
      input.disabled = locked.has(name);
    }
    box.classList.toggle('invalid', !!message);
    box.classList.toggle('warning', !!message && !check?.errors?.[name]);
  }

  // A fieldset with no field left shown takes no room.
  for (const set of form.querySelectorAll('fieldset')) set.hidden = ![...set.querySelectorAll('[data-field]')].some((box) => !box.hidden);
  setText(dimsHint, config && check.analysis ? dimsText(config, check.analysis.derived) : '');
  setText(tokensHint, config ? tokensText(config) : '');
  // A sentence's counts explained where the sentence is not in the form would only puzzle (a chapter without it).
  tokensHint.hidden = config?.source === 'text' && !shows('text') && !shows('text_kv');
}

/**
 * A padding mask over one sentence hides nothing (its keys are all real tokens): choosing it adds a
 * second, shorter sentence of the lesson's words and shows that batch item, whose filler keys the mask
 * hides. The key lengths follow from the sentences (the padding field shows them). {} otherwise.
 */
function paddingExample(state, name, value) {
  if (name !== 'mask' || !value.includes('padding') || !state || state.source !== 'text' || state.attention === 'cross') return {};
  if (sentences(state.text).length !== 1) return {};
  return { text: `${state.text.trim()}\n${text('controls.padding_example_sentence')}`, item: '1' };
}

/** form.elements.namedItem gives a RadioNodeList (no tagName) for a group of radios. */
const isRadioGroup = (el) => !('tagName' in el);

/** Values shown read-only because they follow from other inputs (sentences, self-attention). */
function deriveDisplay(state) {
  const shown = {};
  if (state.source === 'task') {
    // One sample of the lab's task: its length is the lab's.
    Object.assign(shown, { n_q: state.train_seq_len, n_k: state.train_seq_len, batch: '1' });
  } else if (state.source === 'text') {
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

/** The heads' sizes in words, with the widths the core derived (`w`: the analysis's derived). */
function dimsText(c, w) {
  const heads = w.qk_width === c.d_model && c.d_v === c.d_k
    ? text('controls.each_heads_works_d', { n_heads: c.n_heads, d_model: fmt.int(c.d_model), d_k: fmt.int(c.d_k) })
    : text('controls.heads_d_k_d', { d_k: fmt.int(c.d_k), d_v: fmt.int(c.d_v), n_heads_d_v: fmt.int(w.v_width), d_model: fmt.int(c.d_model) });
  // The query heads of key/value head 0, from the core's mapping (validation's kv_head_of).
  const perGroup = c.kv_head_of?.filter((g) => g === 0).length;
  const groups = perGroup > 1
    ? text('controls.grouped_query_attention_every', { perGroup, n_kv_heads: c.n_kv_heads }) : '';
  return heads + groups;
}

function tokensText(c) {
  if (c.source === 'task') {
    return text('controls.sample_training_lab_s', { input_seed: c.input_seed, task: c.train.settings.task, n_q: c.n_q });
  }
  if (c.source === 'text') {
    const kv = c.cross ? text('controls.encoder_n_k', { n_k: c.n_k }) : '';
    const pad = c.batch > 1 ? text('controls.shorter_lines_are_filled') : '';
    return text('controls.longest_query_line_has', { n_q: c.n_q, kv, batch: c.batch, part: c.batch > 1 ? 's' : '', pad });
  }
  return c.cross
    ? text('controls.cross_attention_decoder_queries', { n_q: fmt.int(c.n_q), n_k: fmt.int(c.n_k) })
    : text('controls.self_attention_every_token', { n_q: fmt.int(c.n_q) });
}

/** A model's menu entry: its published sizes, and the width it is loaded at when that is smaller (presets.js RUN_WIDTH). */
function modelOption({ label, model: m, changes }) {
  const kv = m.n_kv_heads && m.n_kv_heads !== m.n_heads ? text('controls.sharing_key_value_heads', { n_kv_heads: m.n_kv_heads }) : '';
  const scaled = changes.d_model !== m.d_model ? text('controls.runs_d_model', { d_model: fmt.int(changes.d_model) }) : '';
  return text('controls.d_model_heads', { label, d_model: fmt.int(m.d_model), n_heads: m.n_heads, kv, scaled });
}
