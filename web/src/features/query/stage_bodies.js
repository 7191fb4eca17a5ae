// The stages of "Follow one query" (issue 37): q·k → scale → mask → max → exp → sum → weights → output,
// each the body of one fold, with the numbers of the core's trace (mha.trace: scores, scaled, logits, max,
// exp, sum, weights, head_output, concat, output). Only formatting and choosing what to show happens
// here; every number is the trace's.

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/query.js';
import '../../lesson/panels/query_stages.js'; // the stages' words
import { zerosNote, patternOf } from './head_note.js';

const TERMS_SHOWN = 3;  // terms of q·k written out before "…"
const SUM_TERMS = 6;    // terms of the sum written out before "…"
const TOP_KEYS = 4;     // value rows shown in the weighted sum

/** 4 decimals; a tiny non-zero number (an exponential far below the max) in powers of ten, not as 0.0000. */
export const num = (x) => (x === -Infinity ? '−∞' : x !== 0 && Math.abs(x) < 5e-5 ? x.toExponential(2).replace('e-', 'e−') : fmt.fixed(x, 4));
/** The same number for TeX (a minus sign TeX typesets, no thousands commas). */
const tex = (x) => (x === -Infinity ? String.raw`-\infty` : x.toFixed(4));

/** The stages in order: name and title (the title's values from the trace). */
export function stageList(c, t) {
  return [
    ['dot', text('query.stage.dot')],
    ['scale', c.scale ? text('query.stage.scale', { d_k: t.q.length }) : text('query.stage.scale_off')],
    ['mask', text('query.stage.mask')],
    ['max', text('query.stage.max')],
    ['exp', text('query.stage.exp')],
    ['sum', text('query.stage.sum')],
    ['weights', text('query.stage.weights')],
    ['output', text('query.stage.output')],
  ];
}

/** The short result a folded stage shows beside its title (key j's number, or the row's). */
export function stageResult(name, t, key) {
  const kv = (values) => text('query.stage.key_value', { key, value: num(values[key]) });
  switch (name) {
    case 'dot': return kv(t.scores);
    case 'scale': return kv(t.scaled);
    case 'mask': {
      let visible = 0;
      for (const l of t.logits) if (l !== -Infinity) visible++;
      return text('query.stage.visible_of', { visible, n_k: t.logits.length });
    }
    case 'max': return num(t.max);
    case 'exp': return kv(t.exp);
    case 'sum': return t.masked ? '0' : num(t.sum);
    case 'weights': return kv(t.weights);
    default: return '';
  }
}

/** One row of n_k numbers under the keys' names, key j outlined: a small table that scrolls sideways. */
function keyedRow({ h, tableWrap }, { caption, values, keyName, key, step }) {
  return tableWrap({ label: caption }, h('table', { class: 'numbers keyed-row', dataset: { step } },
    h('caption', { class: 'sr-only' }, caption),
    h('thead', {}, h('tr', {}, Array.from(values, (_, j) => h('th', { scope: 'col', class: j === key ? 'hl' : null }, keyName(j))))),
    h('tbody', {}, h('tr', {}, Array.from(values, (v, j) => h('td', { class: j === key ? 'hl' : null, dataset: { value: String(v) } }, num(v)))))));
}

/**
 * The body of each stage: { dot, scale, …, output } → element(s). ctx: { dom, vector, formula, c, t,
 * at: { item, head, query, key }, wq, wk, keyName, result, labels_k }.
 */
export function stageBodies(ctx) {
  return {
    dot: dotStage(ctx), scale: scaleStage(ctx), mask: maskStage(ctx), max: maxStage(ctx), exp: expStage(ctx),
    sum: sumStage(ctx), weights: softmaxStep(ctx), output: outputStage(ctx),
  };
}

function dotStage({ dom, vector, formula, c, t, at, wq, wk, keyName, result }) {
  const { h } = dom;
  const { item, head, query, key } = at;
  const d_k = t.q.length, kRow = t.k.subarray(key * d_k, (key + 1) * d_k);
  const zeros = zerosNote(patternOf(result, head), t.q, head);
  const vectors = h('div', { class: 'query-step', dataset: { step: 'vectors' } },
    h('h3', {}, text('query.1_query_key_head', { query, wq, key, wk, value: head + 1, part: c.batch > 1 ? text('query.batch_item', { item }) : '' })),
    vector('xᵢ', t.x, { label: text('query.query_numbers_d_model', { query, length: t.x.length }) }),
    // The lesson's W_i^Q for head i: a real superscript Q and subscript head number (not a modifier letter).
    h('p', { class: 'note', id: 'q-projection' }, 'qᵢ = xᵢ·', h('span', { class: 'mathy' }, 'W', h('sup', {}, 'Q'), h('sub', {}, String(head + 1))),
      text('query.numbers_d_k', { part: c.bias ? ' + b' : '', d_k })),
    vector('qᵢ', t.q),
    zeros ? h('p', { class: 'note query-zeros' }, zeros) : null,
    h('p', { class: 'note' }, text('query.kj_key_s_row', { key, wk })),
    vector('kⱼ', kRow));
  const terms = Array.from({ length: Math.min(TERMS_SHOWN, d_k) }, (_, u) => String.raw`(${tex(t.q[u])})(${tex(kRow[u])})`);
  const score = t.scores[key];
  const dotTex = text('query.q_cdot_k_sum', { query, key, d_k }) + terms.join('+') + (d_k > TERMS_SHOWN ? String.raw`+\dots` : '') + `=${tex(score)}`;
  return [vectors, formula(dotTex, `q·k = ${fmt.fixed(score, 4)}`),
    h('p', { class: 'note' }, text('query.dot.scores_row')),
    keyedRow(dom, { caption: text('query.row.scores'), values: t.scores, keyName, key, step: 'scores' })];
}

function scaleStage({ dom, formula, c, t, at, keyName }) {
  const { h } = dom;
  const d_k = t.q.length, { key } = at;
  const score = t.scores[key], scaled = t.scaled[key];
  const alibi = t.bias ? h('p', { class: 'note' }, text('query.scale.alibi', { slope: fmt.num(t.slope, 4) }), keyedRow(dom, { caption: text('query.row.bias'), values: t.bias, keyName, key, step: 'bias' })) : null;
  return [
    h('p', { class: 'note' }, c.scale ? text('query.scale.why', { d_k, alpha: fmt.fixed(t.logit_scale, 4) }) : text('query.scale.off')),
    c.scale && !t.bias ? formula(text('query.scale.formula', { score: tex(score), d_k, scaled: tex(scaled) }), `${num(score)} / √${d_k} = ${num(scaled)}`) : null,
    alibi,
    h('p', { class: 'note' }, text('query.scale.row')),
    keyedRow(dom, { caption: text('query.row.scaled'), values: t.scaled, keyName, key, step: 'scaled' })];
}

function maskStage({ dom, c, t, at, wk, keyName }) {
  const { h } = dom;
  const { key } = at, n_k = t.logits.length;
  let hidden = 0;
  for (const l of t.logits) if (l === -Infinity) hidden++;
  const score = t.scores[key], logit = t.logits[key];
  return [
    h('p', { class: 'note' }, t.masked ? text('query.mask.all') : hidden ? text('query.mask.some', { hidden, n_k }) : text('query.mask.none')),
    logit === -Infinity ? h('p', { class: 'callout' }, text('query.key_masked_this_query', { key, wk })) : null,
    h('p', { class: 'sr-only' }, text('query.mask.score_logit', { score: num(score), logit: num(logit) })),
    h('dl', { class: 'query-facts' },
      h('dt', {}, text('query.score_q_k')), h('dd', { dataset: { score: String(score) } }, num(score)),
      h('dt', {}, c.scale ? text('query.logit_scaled', { d_k: t.q.length }) : text('query.logit_no_scaling')), h('dd', { dataset: { logit: String(logit) } }, num(logit))),
    keyedRow(dom, { caption: text('query.row.logits'), values: t.logits, keyName, key, step: 'logits-row' })];
}

function maxStage({ dom, t }) {
  const { h } = dom;
  if (t.masked) return h('p', { class: 'note' }, text('query.masked_row'));
  const at = [];
  t.logits.forEach((l, j) => { if (l === t.max) at.push(j); });
  return [h('p', { class: 'note', dataset: { max: String(t.max) } }, text('query.max.value', { max: num(t.max), keys: at.join(', ') })),
    h('p', { class: 'note' }, text('query.max.why'))];
}

function expStage({ dom, t, at, keyName }) {
  const { h } = dom;
  const { key } = at;
  if (t.masked) return h('p', { class: 'note' }, text('query.masked_row'));
  const logit = t.logits[key];
  return [
    logit === -Infinity ? null : h('p', { class: 'note' }, text('query.exp.one', { logit: num(logit), max: num(t.max), diff: num(logit - t.max), value: num(t.exp[key]), key })),
    h('p', { class: 'note' }, text('query.exp.row')),
    keyedRow(dom, { caption: text('query.row.exp'), values: t.exp, keyName, key, step: 'exp' })];
}

function sumStage({ dom, t }) {
  const { h } = dom;
  if (t.masked) return h('p', { class: 'note' }, text('query.masked_row'));
  const shown = Array.from(t.exp).filter((e) => e !== 0);
  const terms = shown.slice(0, SUM_TERMS).map((e) => num(e)).join(' + ') + (shown.length > SUM_TERMS ? ' + …' : '');
  return [h('p', { class: 'note', dataset: { sum: String(t.sum) } }, text('query.sum.value', { terms, sum: num(t.sum) })),
    h('p', { class: 'note' }, text('query.sum.why'))];
}

/** The whole row: logits → exp → ÷ sum → weights, with the masked and dropped keys. */
function softmaxStep({ dom, c, t, at, keyName }) {
  const { h, tableWrap } = dom;
  const { head, query, key } = at;
  const n_k = t.scores.length;
  let big = 0, shownSum = 0;
  for (const w of t.weights) { big = Math.max(big, w); shownSum += w; }
  const rows = Array.from({ length: n_k }, (_, j) => {
    const isMasked = t.logits[j] === -Infinity, isDropped = !!t.dropped[j];
    const state = isMasked ? 'masked' : isDropped ? 'dropped' : '';
    return h('tr', { class: j === key ? 'hl' : '', dataset: { key: j, weight: String(t.weights[j]), state } },
      h('th', { scope: 'row' }, keyName(j)),
      h('td', {}, num(t.logits[j])),
      h('td', {}, num(t.exp[j])),
      h('td', {}, num(t.weights[j])),
      h('td', {}, isMasked ? text('query.weights.masked') : isDropped ? text('query.weights.dropped') : (c.dropout > 0 ? text('query.weights.kept', { keep_scale: fmt.fixed(t.keep_scale, 4) }) : '')),
      h('td', { class: 'q-bar-cell', 'aria-hidden': 'true' }, h('span', { class: 'q-bar', style: { width: `${big ? (100 * t.weights[j]) / big : 0}%` } })));
  });
  const one = !t.masked && t.logits[key] !== -Infinity ? h('p', { class: 'note' }, text('query.weights.one', { key, exp: num(t.exp[key]), sum: num(t.sum), weight: num(t.weights[key]) })) : null;
  return h('div', { class: 'query-step', dataset: { step: 'softmax' } },
    h('h3', { class: 'sr-only' }, text('query.3_softmax_over_query', { query })),
    h('p', { class: 'note' }, t.masked
      ? text('query.every_key_masked_this')
      : text('query.max_logits_exp_logit', { max: num(t.max), sum: num(t.sum) }) +
        (c.dropout > 0 ? text('query.then_dropout_p_dropped', { dropout: c.dropout, keep_scale: fmt.fixed(t.keep_scale, 4) }) : '.')),
    one,
    tableWrap({}, h('table', { class: 'numbers query-row' },
      h('caption', { class: 'sr-only' }, text('query.softmax_query_head_one', { query, value: head + 1 })),
      h('thead', {}, h('tr', {}, [text('query.col.key'), text('query.col.logit'), text('query.exp_logit_max'), text('query.col.weight'), text('query.col.note'), text('query.col.chart')].map((s) => h('th', { scope: 'col' }, s)))),
      h('tbody', {}, rows),
      h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, text('query.col.sum')), h('td', {}), h('td', {}, num(t.sum)), h('td', { class: 'attention-sum', dataset: { sum: String(shownSum) } }, fmt.fixed(shownSum, 6)),
        h('td', {}, c.dropout > 0 ? text('query.not_1_with_dropout') : ''), h('td', {}))))));
}

/** The head's row as the weighted sum of values, then Concat and Wᴼ. */
function outputStage({ dom, vector, c, t, at, keyName, result }) {
  const { h } = dom;
  const { item, head, query } = at;
  const n_k = t.scores.length, d_v = t.head_output.length;
  const order = Array.from({ length: n_k }, (_, j) => j).filter((j) => t.weights[j] !== 0).sort((a, b) => t.weights[b] - t.weights[a]);
  const top = order.slice(0, TOP_KEYS);
  const values = h('div', { class: 'query-step', dataset: { step: 'values' } },
    h('h3', {}, text('query.4_head_row_j', { value: head + 1, query })),
    h('p', { class: 'note' }, order.length
      ? text('query.largest_non_zero_weights', { length: top.length, length2: order.length, d_v })
      : text('query.no_key_has_non')),
    top.map((j) => vector(`${fmt.fixed(t.weights[j], 4)} × v${j}`, t.v.subarray(j * d_v, (j + 1) * d_v), { label: text('query.value_row_key_weight', { j: keyName(j), value: num(t.weights[j]) }) })),
    vector(`head${head + 1}ᵢ`, t.head_output, { label: text('query.head_s_output_query', { value: head + 1, query, d_v }) }));
  const same = item === result.item.b && query < result.item.output_rows.length;
  const output = h('div', { class: 'query-step', dataset: { step: 'output' } },
    h('h3', {}, text('query.5_concat_row_output', { query })),
    h('p', { class: 'note' }, text('query.head_s_numbers_sit', { value: head + 1, d_v, value2: head * d_v, value3: (head + 1) * d_v - 1, length: t.concat.length })),
    vector('Concatᵢ', t.concat, { highlight: [head * d_v, (head + 1) * d_v] }),
    h('p', { class: 'note' }, text('query.output_row_concati_w', { query, part: c.bias ? ' + bᴼ' : '', length: t.output.length, part2: same ? text('query.same_numbers_row') + query + text('query.output_table') : '' })),
    h('div', { class: 'query-output' }, vector('outputᵢ', t.output)));
  return [values, output];
}
