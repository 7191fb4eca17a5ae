// "Follow one query": every number between one query row and its output row, as the core's trace
// (mha.trace, run in the worker like the forward pass) returned them. This file only chooses what to
// show and formats it; no number of the layer is computed here. The selection is the state's
// q_item, q_head, q_query, q_key (hash, attributes, widget keys), set by a click on the heatmap.

import * as fmt from '../../model/format.js';
import { logitsSection } from './logits_view.js';
import { text } from '../../lesson/panels/query.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)

const TERMS_SHOWN = 3;  // terms of q·k written out before "…"
const TOP_KEYS = 4;     // value rows shown in the weighted sum
const MAX_LOGIT_CELLS = 32 * 32; // the scores view (as the worker's headLogits allows)

/** A selection field read as an integer in 0..n-1, else null (the panel then says what is wrong). */
function index(value, n) {
  const s = String(value ?? '').trim();
  if (!/^\d+$/.test(s)) return null;
  const k = Number(s);
  return k < n ? k : null;
}

const num = (x) => (x === -Infinity ? '−∞' : fmt.fixed(x, 4));
/** The same number for TeX (a minus sign TeX typesets, no thousands commas). */
const tex = (x) => (x === -Infinity ? String.raw`-\infty` : x.toFixed(4));

export function create(body, { dom, host, actions }) {
  const { h, fill } = dom;
  let view = null;
  let katex = null;
  let shown = '';   // identity of what is drawn (result key + selection)
  let pending = 0;  // number of the latest trace request: older answers are dropped
  const lead = h('p', { class: 'lead' },
    text('query.click_cell_i_j'));
  const querySelect = h('select', { id: 'f-q-query', name: 'q_query' });
  const keySelect = h('select', { id: 'f-q-key', name: 'q_key' });
  const headSelect = h('select', { id: 'f-q-head', name: 'q_head' });
  const pick = h('div', { class: 'button-row query-pick' },
    h('div', { class: 'field inline' }, h('label', { for: 'f-q-query' }, 'query i'), querySelect),
    h('div', { class: 'field inline' }, h('label', { for: 'f-q-key' }, 'key j'), keySelect),
    h('div', { class: 'field inline' }, h('label', { for: 'f-q-head' }, 'head'), headSelect));
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
    Promise.all([host.importVendor('vendor/katex/katex.mjs'), host.loadStyle('vendor/katex/katex.min.css'), host.loadDocumentStyle('vendor/katex/fonts.css')]).then(([mod]) => {
      katex = mod.default;
      for (const el of content.querySelectorAll('[data-tex]')) typeset(el);
    }, () => {}); // without the typesetter the formulas stay as the plain text they start as
  }

  function typeset(el) {
    if (katex) katex.render(el.dataset.tex, el, { displayMode: true, throwOnError: false, output: 'htmlAndMathml' });
  }
  /** A formula: plain text first (readable without KaTeX), typeset when KaTeX is there. */
  function formula(texSource, plain) {
    // A focusable box: a long formula scrolls sideways inside it, and the keyboard must reach that.
    const el = h('div', { class: 'math', tabindex: '0', dataset: { tex: texSource } }, plain);
    typeset(el);
    return el;
  }

  const vector = (name, values, opts) => vectorRow(h, name, values, opts);

  /** A menu of 0..n-1, each named by `name(k)`. */
  function options(selectEl, n, chosen, name) {
    const labels = Array.from({ length: n }, (_, k) => name(k));
    if (selectEl.dataset.labels !== JSON.stringify(labels)) {
      fill(selectEl, labels.map((label, k) => h('option', { value: String(k) }, label)));
      selectEl.dataset.labels = JSON.stringify(labels);
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
    status.textContent = 'Tracing…';
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
    const d_k = t.q.length, d_v = t.head_output.length, n_k = t.scores.length;
    const kRow = t.k.subarray(key * d_k, (key + 1) * d_k);
    Object.assign(content.dataset, { item, head, query, key });

    const [s1, s2] = firstSteps(dom, { vector, formula }, c, t, { item, head, query, key, wq, wk, d_k, kRow });
    const s3 = softmaxStep(dom, c, t, { head, query, key, keyName });
    const [s4, s5] = outputSteps(dom, vector, c, t, { item, head, query, keyName, result });
    const s6 = h('div', { class: 'logits-slot' });
    fill(content, s1, s2, s3, s4, s5, s6);
    const { n_q } = c;
    if (n_q * n_k > MAX_LOGIT_CELLS) {
      fill(s6, h('p', { class: 'note' }, text('query.view_whole_head_s', { MAX_LOGIT_CELLS, value: fmt.int(n_q * n_k) })));
      return;
    }
    const ticket = pending;
    actions.headLogits({ config: c, item, head }).then((reply) => {
      if (ticket !== pending) return;
      fill(s6, logitsSection(dom, { reply, config: c, head, d_k, labels_q, labels_k, query, key }));
    }, (err) => {
      if (ticket === pending) fill(s6, h('p', { class: 'note' }, text('query.scores_view_could_not', { message: err.message })));
    });
  }

  return { update };
}

/** A whole vector as text: every number, in a box that scrolls (never cut). */
function vectorRow(h, name, values, { highlight = null, label } = {}) {
  return h('div', { class: 'vec-row' },
    h('span', { class: 'vec-name' }, name),
    h('div', { class: 'vec', role: 'list', tabindex: '0', 'aria-label': label ?? `${name}: ${values.length} numbers`, dataset: { values: JSON.stringify(Array.from(values)) } },
      Array.from(values, (v, t) => h('span', { role: 'listitem', class: highlight && t >= highlight[0] && t < highlight[1] ? 'num hl' : 'num' }, num(v)))));
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
    h('h3', {}, text('query.query_head_imported_attention', { query, part: labels_q ? ` “${labels_q[query]}”` : '', value: head + 1, part2: c.batch > 1 ? `, batch item ${item}` : '' })),
    h('p', { class: 'callout', id: 'query-imported' }, text('query.these_weights_are_imported'),
      text('query.logits_softmax_steps_head'),
      text('query.import_inputs_parameters_query')),
    tableWrap({}, h('table', { class: 'numbers query-row' },
      h('caption', { class: 'sr-only' }, text('query.imported_weights_query_head', { query, value: head + 1 })),
      h('thead', {}, h('tr', {}, ['key', 'weight (imported)', 'chart'].map((s) => h('th', { scope: 'col' }, s)))),
      h('tbody', {}, rows),
      h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, 'sum'), h('td', { class: 'attention-sum', dataset: { sum: String(sum) } }, fmt.fixed(sum, 6)), h('td', {}))))));
}

/** Step 3, the whole row: logits → − max → exp → ÷ sum → weights, with the masked and dropped keys. */
function softmaxStep({ h, tableWrap }, c, t, { head, query, key, keyName }) {
  const n_k = t.scores.length;
  let big = 0;
  for (const w of t.weights) big = Math.max(big, w);
  let shownSum = 0;
  for (const w of t.weights) shownSum += w;
  const rows = Array.from({ length: n_k }, (_, j) => {
    const isMasked = t.logits[j] === -Infinity, isDropped = !!t.dropped[j];
    const state = isMasked ? 'masked' : isDropped ? 'dropped' : '';
    return h('tr', { class: j === key ? 'hl' : '', dataset: { key: j, weight: String(t.weights[j]), state } },
      h('th', { scope: 'row' }, keyName(j)),
      h('td', {}, num(t.logits[j])),
      h('td', {}, num(t.exp[j])),
      h('td', {}, num(t.weights[j])),
      h('td', {}, isMasked ? 'masked: −∞ → 0' : isDropped ? 'dropped → 0' : (c.dropout > 0 ? `kept, × ${fmt.fixed(t.keep_scale, 4)}` : '')),
      h('td', { class: 'q-bar-cell', 'aria-hidden': 'true' }, h('span', { class: 'q-bar', style: { width: `${big ? (100 * t.weights[j]) / big : 0}%` } })));
  });
  return h('section', { class: 'query-step', dataset: { step: 'softmax' } },
    h('h3', {}, text('query.3_softmax_over_query', { query })),
    h('p', { class: 'note' }, t.masked
      ? text('query.every_key_masked_this')
      : text('query.max_logits_exp_logit', { max: num(t.max), sum: num(t.sum) }) +
        (c.dropout > 0 ? text('query.then_dropout_p_dropped', { dropout: c.dropout, keep_scale: fmt.fixed(t.keep_scale, 4) }) : '.')),
    tableWrap({}, h('table', { class: 'numbers query-row' },
      h('caption', { class: 'sr-only' }, text('query.softmax_query_head_one', { query, value: head + 1 })),
      h('thead', {}, h('tr', {}, ['key', 'logit', text('query.exp_logit_max'), 'weight', 'note', 'chart'].map((s) => h('th', { scope: 'col' }, s)))),
      h('tbody', {}, rows),
      h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, 'sum'), h('td', {}), h('td', {}, num(t.sum)), h('td', { class: 'attention-sum', dataset: { sum: String(shownSum) } }, fmt.fixed(shownSum, 6)),
        h('td', {}, c.dropout > 0 ? text('query.not_1_with_dropout') : ''), h('td', {}))))));
}

/** Steps 4 and 5: the head's row as the weighted sum of values, then Concat and Wᴼ. */
function outputSteps({ h }, vector, c, t, { item, head, query, keyName, result }) {
  const n_k = t.scores.length, d_v = t.head_output.length;
  const order = Array.from({ length: n_k }, (_, j) => j).filter((j) => t.weights[j] !== 0).sort((a, b) => t.weights[b] - t.weights[a]);
  const top = order.slice(0, TOP_KEYS);
  const s4 = h('section', { class: 'query-step', dataset: { step: 'values' } },
    h('h3', {}, text('query.4_head_row_j', { value: head + 1, query })),
    h('p', { class: 'note' }, order.length
      ? text('query.largest_non_zero_weights', { length: top.length, length2: order.length, d_v })
      : text('query.no_key_has_non')),
    top.map((j) => vector(`${fmt.fixed(t.weights[j], 4)} × v${j}`, t.v.subarray(j * d_v, (j + 1) * d_v), { label: text('query.value_row_key_weight', { j: keyName(j), value: num(t.weights[j]) }) })),
    vector(`head${head + 1}ᵢ`, t.head_output, { label: text('query.head_s_output_query', { value: head + 1, query, d_v }) }));

  // 5. Concat and Wᴼ
  const same = item === result.item.b && query < result.item.output_rows.length;
  const s5 = h('section', { class: 'query-step', dataset: { step: 'output' } },
    h('h3', {}, text('query.5_concat_row_output', { query })),
    h('p', { class: 'note' }, text('query.head_s_numbers_sit', { value: head + 1, d_v, value2: head * d_v, value3: (head + 1) * d_v - 1, length: t.concat.length })),
    vector('Concatᵢ', t.concat, { highlight: [head * d_v, (head + 1) * d_v] }),
    h('p', { class: 'note' }, text('query.output_row_concati_w', { query, part: c.bias ? ' + bᴼ' : '', length: t.output.length, part2: same ? text('query.same_numbers_row') + query + text('query.output_table') : '' })),
    h('div', { class: 'query-output' }, vector('outputᵢ', t.output)));
  return [s4, s5];
}

/** Steps 1 and 2: the query's and the key's vectors, then their dot product written out and scaled. */
function firstSteps({ h }, { vector, formula }, c, t, { item, head, query, key, wq, wk, d_k, kRow }) {
  // 1. the vectors
  const s1 = h('section', { class: 'query-step', dataset: { step: 'vectors' } },
    h('h3', {}, text('query.1_query_key_head', { query, wq, key, wk, value: head + 1, part: c.batch > 1 ? `, batch item ${item}` : '' })),
    vector('xᵢ', t.x, { label: text('query.query_numbers_d_model', { query, length: t.x.length }) }),
    // The lesson's W_i^Q for head i: a real superscript Q and subscript head number (not a modifier letter).
    h('p', { class: 'note', id: 'q-projection' }, 'qᵢ = xᵢ·', h('span', { class: 'mathy' }, 'W', h('sup', {}, 'Q'), h('sub', {}, String(head + 1))),
      text('query.numbers_d_k', { part: c.bias ? ' + b' : '', d_k })),
    vector('qᵢ', t.q),
    h('p', { class: 'note' }, text('query.kj_key_s_row', { key, wk })),
    vector('kⱼ', kRow));

  // 2. the dot product, written out
  const terms = Array.from({ length: Math.min(TERMS_SHOWN, d_k) }, (_, u) => String.raw`(${tex(t.q[u])})(${tex(kRow[u])})`);
  const score = t.scores[key], logit = t.logits[key];
  const masked = logit === -Infinity;
  const dotTex = text('query.q_cdot_k_sum', { query, key, d_k }) + terms.join('+') + (d_k > TERMS_SHOWN ? String.raw`+\dots` : '') + `=${tex(score)}`;
  const scaleTex = c.scale ? String.raw`\frac{${tex(score)}}{\sqrt{${d_k}}}=${tex(logit)}` : text('query.text', { logit: tex(logit) });
  const s2 = h('section', { class: 'query-step', dataset: { step: 'dot' } },
    h('h3', {}, text('query.2_score_logit')),
    formula(dotTex, `q·k = ${fmt.fixed(score, 4)}`),
    masked ? h('p', { class: 'callout' }, text('query.key_masked_this_query', { key, wk }))
      : formula(scaleTex, `logit = ${num(logit)}`),
    h('p', { class: 'sr-only' }, `score ${num(score)}, logit ${num(logit)}`),
    h('dl', { class: 'query-facts' },
      h('dt', {}, text('query.score_q_k')), h('dd', { dataset: { score: String(score) } }, num(score)),
      h('dt', {}, c.scale ? `logit = score × 1/√${d_k}` : text('query.logit_no_scaling')), h('dd', { dataset: { logit: String(logit) } }, num(logit))));
  return [s1, s2];
}
