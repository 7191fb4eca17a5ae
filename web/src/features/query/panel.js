// "Follow one query": every number between one query row and its output row, as the core's trace
// (mha.trace, run in the worker like the forward pass) returned them. This file only chooses what to
// show and formats it; no number of the layer is computed here. The selection is the state's
// q_item, q_head, q_query, q_key (hash, attributes, widget keys), set by a click on the heatmap.

import * as fmt from '../../model/format.js';
import { loadKatex as loadKatexOf, typeset as typesetWith } from '../../ui/katex.js';
import { stageBodies, num } from './stage_bodies.js';
import { stageFolds } from './stage_folds.js';
import { firstRowNote, patternOf } from './head_note.js';
import { text } from '../../lesson/panels/query.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)


/** A selection field read as an integer in 0..n-1, else null (the panel then says what is wrong). */
function index(value, n) {
  const s = String(value ?? '').trim();
  if (!/^\d+$/.test(s)) return null;
  const k = Number(s);
  return k < n ? k : null;
}


const KATEX = { displayMode: true, throwOnError: false, output: 'htmlAndMathml' };

export function create(body, { dom, host, actions }) {
  const { h, fill } = dom;
  let view = null;
  let katex = null;
  let shown = '';   // identity of what is drawn (result key + selection)
  let pending = 0;  // number of the latest trace request: older answers are dropped
  let openName = 'dot'; // the stage open (kept when another cell is followed)
  const lead = h('p', { class: 'lead' },
    text('query.click_cell_i_j'));
  const querySelect = h('select', { id: 'f-q-query', name: 'q_query' });
  const keySelect = h('select', { id: 'f-q-key', name: 'q_key' });
  const headSelect = h('select', { id: 'f-q-head', name: 'q_head' });
  const pick = h('div', { class: 'button-row query-pick' },
    h('div', { class: 'field inline' }, h('label', { for: 'f-q-query' }, text('query.pick_query')), querySelect),
    h('div', { class: 'field inline' }, h('label', { for: 'f-q-key' }, text('query.pick_key')), keySelect),
    h('div', { class: 'field inline' }, h('label', { for: 'f-q-head' }, text('query.pick_head')), headSelect));
  const select = (changes) => {
    const item = view?.result?.item?.b ?? 0;
    const head = view?.check?.config?.head ?? 0;
    const s = view.state;
    actions.edit({ q_item: s.q_item || String(item), q_head: s.q_head || String(head), q_query: s.q_query || '0', q_key: s.q_key || '0', ...changes }, Object.keys(changes)[0]);
  };
  querySelect.addEventListener('change', () => select({ q_query: querySelect.value }));
  keySelect.addEventListener('change', () => select({ q_key: keySelect.value }));
  headSelect.addEventListener('change', () => select({ q_head: headSelect.value }));
  const status = h('p', { class: 'note', 'aria-live': 'polite' });
  const content = h('div', { class: 'query-content' });
  fill(body, lead, pick, status, content);

  // KaTeX is fetched only once a query is followed (a playground that never picks a cell never loads it).
  let katexAsked = false;
  function loadKatex() {
    if (katexAsked) return;
    katexAsked = true;
    loadKatexOf(host).then((loaded) => {
      katex = loaded;
      for (const el of content.querySelectorAll('[data-tex]')) typeset(el);
    }, () => {}); // without the typesetter the formulas stay as the plain text they start as
  }

  function typeset(el) {
    if (katex) typesetWith(katex, el, el.dataset.tex, KATEX);
  }
  /** A formula: plain text first (readable without KaTeX), typeset when KaTeX is there. */
  function formula(texSource, plain) {
    // A focusable box: a long formula scrolls sideways inside it, and the keyboard must reach that.
    const el = h('div', { class: 'math', tabindex: '0', dataset: { tex: texSource } }, plain);
    typeset(el);
    return el;
  }

  const vector = (name, values, opts) => vectorRow(h, name, values, opts);

  /** A menu of 0..n-1, each named by `name(k)`; while none is chosen its first entry says so (not an empty box). */
  function options(selectEl, n, chosen, name) {
    const labels = Array.from({ length: n }, (_, k) => name(k));
    const key = JSON.stringify([chosen === null, labels]);
    if (selectEl.dataset.labels !== key) {
      fill(selectEl, chosen === null ? h('option', { value: '', disabled: true }, text('query.choose')) : null,
        labels.map((label, k) => h('option', { value: String(k) }, label)));
      selectEl.dataset.labels = key;
    }
    selectEl.value = chosen === null ? '' : String(chosen);
  }

  function update(v) {
    view = v;
    const { result, state } = v;
    if (!result) {
      pick.hidden = true;
      status.textContent = text('query.panel_fills_once_layer');
      fill(content);
      shown = '';
      return;
    }
    const c = result.config;
    pick.hidden = false;
    const item = index(state.q_item, c.batch), head = index(state.q_head, c.n_heads);
    const query = index(state.q_query, c.n_q), key = index(state.q_key, c.n_k);
    // The words of the batch item shown (the trace brings the words of any other item).
    const word = (labels) => (k) => (labels && item === result.item.b ? `${k} “${labels[k]}”` : String(k));
    options(querySelect, c.n_q, query, word(result.item.labels_q));
    options(keySelect, c.n_k, key, word(result.item.labels_k));
    options(headSelect, c.n_heads, head, (k) => `head ${k + 1}`);
    if (state.q_query === '' && state.q_key === '' && state.q_head === '' && state.q_item === '') {
      status.textContent = text('query.no_query_chosen_yet');
      fill(content);
      shown = '';
      return;
    }
    const bad = [['q_item', item, c.batch], ['q_head', head, c.n_heads], ['q_query', query, c.n_q], ['q_key', key, c.n_k]]
      .filter(([, value]) => value === null).map(([name, , n]) => text('query.not_0', { name, value: String(state[name]).slice(0, 20), value2: n - 1 }));
    if (bad.length) {
      status.textContent = text('query.cannot_follow_this_query', { value: bad.join('; ') });
      fill(content);
      shown = '';
      return;
    }
    const at = { item, head, query };
    const id = JSON.stringify([result.key, at, key]);
    if (id === shown) return;
    shown = id;
    const ticket = ++pending;
    status.textContent = text('query.tracing');
    actions.trace({ config: c, ...at }).then((reply) => {
      if (ticket !== pending || view.result?.key !== result.key) return;
      status.textContent = '';
      if (reply.imported) drawImported(c, at, key, reply);
      else draw(c, at, key, reply, result);
    }, (err) => {
      if (ticket !== pending) return;
      shown = '';
      status.textContent = text('query.trace_failed', { message: err.message });
      fill(content);
    });
  }

  /** Imported attention maps alone: the followed query's row of weights, and what needs the layer. */
  function drawImported(c, at, key, reply) {
    Object.assign(content.dataset, { ...at, key, imported: '1' });
    fill(content, importedStep(dom, c, at, key, reply));
  }

  function draw(c, { item, head, query }, key, { trace: t, labels_q, labels_k }, result) {
    loadKatex();
    const wq = labels_q ? ` “${labels_q[query]}”` : '', wk = labels_k ? ` “${labels_k[key]}”` : '';
    const keyName = (j) => (labels_k ? `${j} “${labels_k[j]}”` : String(j));
    const at = { item, head, query, key };
    Object.assign(content.dataset, at);
    const bodies = stageBodies({ dom, vector, formula, c, t, at, wq, wk, keyName, result });
    const note = firstRowNote(patternOf(result, head), t, { head, query, labels_q, labels_k, causal: c.mask === 'causal' });
    const ticket = pending;
    fill(content, note ? h('p', { class: 'callout query-first-row' }, note) : null,
      stageFolds({ dom, actions, c, t, at, labels_q, labels_k, bodies, open: openName, onOpen: (name) => { openName = name; }, current: () => ticket === pending }));
  }

  return { update };
}

/** A whole vector as text: every number, in a box that scrolls (never cut). */
function vectorRow(h, name, values, { highlight = null, label } = {}) {
  return h('div', { class: 'vec-row' },
    h('span', { class: 'vec-name' }, name),
    h('div', { class: 'vec', role: 'list', tabindex: '0', 'aria-label': label ?? text('query.vector_numbers', { name, length: values.length }), dataset: { values: JSON.stringify(Array.from(values)) } },
      Array.from(values, (v, t) => h('span', { role: 'listitem', class: `num${highlight && t >= highlight[0] && t < highlight[1] ? ' hl' : ''}` }, num(v)))));
}

/** The step of an imported map: the followed query's row of weights (no layer: no q, k or logits). */
function importedStep({ h, tableWrap }, c, { item, head, query }, key, { imported, labels_q, labels_k }) {
  const w = imported.weights;
  const keyName = (j) => (labels_k ? `${j} “${labels_k[j]}”` : String(j));
  let big = 0, sum = 0;
  for (const v of w) { big = Math.max(big, v); sum += v; }
  const rows = Array.from(w, (v, j) => h('tr', { class: j === key ? 'hl' : '', dataset: { key: j, weight: String(v) } },
    h('th', { scope: 'row' }, keyName(j)), h('td', {}, num(v)),
    h('td', { class: 'q-bar-cell', 'aria-hidden': 'true' }, h('span', { class: 'q-bar', style: { width: `${big ? (100 * v) / big : 0}%` } }))));
  return h('section', { class: 'query-step', dataset: { step: 'imported' } },
    h('h3', {}, text('query.query_head_imported_attention', { query, part: labels_q ? ` “${labels_q[query]}”` : '', value: head + 1, part2: c.batch > 1 ? text('query.batch_item', { item }) : '' })),
    h('p', { class: 'callout', id: 'query-imported' }, text('query.these_weights_are_imported'),
      text('query.logits_softmax_steps_head'),
      text('query.import_inputs_parameters_query')),
    tableWrap({}, h('table', { class: 'numbers query-row' },
      h('caption', { class: 'sr-only' }, text('query.imported_weights_query_head', { query, value: head + 1 })),
      h('thead', {}, h('tr', {}, [text('query.col.key'), text('query.col.weight_imported'), text('query.col.chart')].map((s) => h('th', { scope: 'col' }, s)))),
      h('tbody', {}, rows),
      h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, text('query.col.sum')), h('td', { class: 'attention-sum', dataset: { sum: String(sum) } }, fmt.fixed(sum, 6)), h('td', {}))))));
}
