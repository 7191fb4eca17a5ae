// "Scores before the softmax" (part of Follow one query): one head's logits as a table coloured on a
// diverging scale, beside its weights, with 1/√d_k and without it, so the saturation the lesson
// describes (unscaled logits → near one-hot weights) is seen. Every cell is text; colours only repeat it.
// The numbers are the core's (the worker's headLogits job: one trace per query and setting).

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/query.js';

/** The largest |value| of the finite numbers (the diverging scale is symmetric around 0). */
function extent(values) {
  let big = 0;
  for (const v of values) if (Number.isFinite(v)) big = Math.max(big, Math.abs(v));
  return big || 1;
}

/**
 * A table of n_q × n_k numbers. kind 'logits': diverging colours (blue < 0 < red, −∞ masked);
 * 'weights': 0 → 1 in the accent colour. Row i = query, column j = key; (query, key) is outlined.
 */
function matrixTable(dom, { data, n_q, n_k, kind, caption, labels_q, labels_k, query, key }) {
  const { h } = dom;
  const big = kind === 'logits' ? extent(data) : 1;
  const cell = (v, i, j) => {
    const style = {};
    if (v === -Infinity) style.background = 'var(--masked)';
    else if (kind === 'logits') style.background = `color-mix(in oklab, ${v < 0 ? 'var(--div-neg, #3b6fb6)' : 'var(--div-pos, #c0392b)'} ${Math.round((70 * Math.abs(v)) / big)}%, transparent)`;
    // At most 45 % accent: the cell's text keeps a 4.5:1 contrast in both themes (80 % did not, in dark).
    else style.background = `color-mix(in oklab, var(--accent) ${Math.round(45 * v)}%, transparent)`;
    return h('td', { class: i === query && j === key ? 'hl' : null, style, dataset: { value: String(v) } }, v === -Infinity ? '−∞' : fmt.fixed(v, kind === 'logits' ? 2 : 3));
  };
  const name = (labels, k) => (labels ? labels[k] : String(k));
  return h('figure', { class: 'logit-map' },
    h('figcaption', {}, caption),
    dom.tableWrap({ label: caption }, h('table', { class: 'numbers logit-table', dataset: { kind } },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, text('query.corner_query_key')), Array.from({ length: n_k }, (_, j) => h('th', { scope: 'col' }, name(labels_k, j))))),
      h('tbody', {}, Array.from({ length: n_q }, (_, i) => h('tr', {}, h('th', { scope: 'row' }, name(labels_q, i)),
        Array.from({ length: n_k }, (_, j) => cell(data[i * n_k + j], i, j))))))));
}

/** The view's section for head `head` from the headLogits reply; `scale` = the layer's own setting. */
export function logitsSection(dom, { reply, config, head, d_k, labels_q, labels_k, query, key }) {
  const { h } = dom;
  const { n_q, n_k } = config;
  const common = { n_q, n_k, labels_q, labels_k, query, key };
  const pair = (part, title) => h('div', { class: 'logit-pair', dataset: { scaled: part === reply.scaled ? '1' : '0' } },
    h('h4', {}, title),
    matrixTable(dom, { ...common, data: part.logits, kind: 'logits', caption: text('query.logits_before_softmax') }),
    matrixTable(dom, { ...common, data: part.attention, kind: 'weights', caption: text('query.weights_after') }));
  return h('section', { class: 'query-step', dataset: { step: 'logits' } },
    h('h3', {}, text('query.6_scores_before_softmax', { value: head + 1 })),
    h('p', { class: 'note' },
      text('query.each_row_one_query'),
      text('query.without_division_logits_are', { d_k, d_k2: fmt.fixed(1 / reply.scaled.logit_scale, 2) }),
      config.scale ? '' : text('query.this_layer_runs_without')),
    h('div', { class: 'logit-pairs' },
      pair(reply.scaled, `with ÷ √${d_k}`),
      pair(reply.unscaled, text('query.without_scale'))));
}
