// The cost panel: parameters per matrix (worked example E2), FLOPs per stage counted the lesson's way
// and exactly, which term dominates and why, the memory of the attention weights (P4), and the last run.
// On a wide panel the four blocks sit in two columns (styles.css: .cost-blocks), the exact count folded.

import * as fmt from '../../model/format.js';
import { configKey } from '../../model/validate.js';
import { moduleName } from '../../ui/module_name.js';
import { barCell } from '../../render/bar.js';

export function create(body, { dom }) {
  const { h, fill, table, math } = dom;
  const params = h('div', { class: 'cost-params' }), flops = h('div', { class: 'cost-flops' }), memory = h('div', { class: 'cost-memory' });
  const run = h('div', { id: 'run-cost', class: 'cost-run' });
  fill(body, h('div', { class: 'cost-blocks' }, params, flops, memory, run));
  let lastKey = '';

  function update({ check, result, engine }) {
    const a = check?.analysis;
    const key = a ? JSON.stringify([a.dims, check.config.scale, a.memory]) : '';
    if (key !== lastKey) {
      lastKey = key;
      if (!a) {
        fill(params, h('p', { class: 'placeholder' }, 'The cost appears once the inputs are valid.'));
        fill(flops); fill(memory);
      } else {
        renderParams(a, check.config);
        renderFlops(a, check.config);
        renderMemory(a, engine?.defaultMemoryBudget ?? 2 ** 30);
      }
    }
    renderRun(result, check);
  }

  function renderParams(a, config) {
    const d = a.dims, p = a.params, w = a.derived; // w: the widths and counts the core derives from the dims
    const kvh = d.n_kv_heads; // the core's analysis always resolves it
    const kvNote = kvh === d.n_heads ? `${d.n_heads} × ${fmt.int(p.per_head_k)} per head` : `${kvh} key heads × ${fmt.int(p.per_head_k)}, shared`;
    // What each matrix holds per head goes under its name: a fourth column does not fit half a panel.
    const matrix = (label, perHead) => h('span', {}, math(label), h('span', { class: 'sub-note' }, math(perHead)));
    const rows = [
      [matrix('Wᴽ (all heads)', `${d.n_heads} × ${fmt.int(p.per_head_q)} per head`), `${fmt.int(d.d_model)} × ${fmt.int(w.qk_width)}`, fmt.int(p.w_q)],
      [matrix(kvh === d.n_heads ? 'Wᴷ (all heads)' : 'Wᴷ (key/value heads)', kvNote), `${fmt.int(d.d_model)} × ${fmt.int(w.kv_k_width)}`, fmt.int(p.w_k)],
      [matrix(kvh === d.n_heads ? 'Wⱽ (all heads)' : 'Wⱽ (key/value heads)',
        kvh === d.n_heads ? `${d.n_heads} × ${fmt.int(p.per_head_v)} per head` : `${kvh} value heads × ${fmt.int(p.per_head_v)}, shared`),
      `${fmt.int(d.d_model)} × ${fmt.int(w.kv_v_width)}`, fmt.int(p.w_v)],
      [matrix('Wᴼ', 'mixes the heads'), `${fmt.int(w.v_width)} × ${fmt.int(d.d_model)}`, fmt.int(p.w_o)],
    ];
    if (d.bias) rows.push([matrix('biases', 'b_Q, b_K, b_V, b_O'), '4 vectors', fmt.int(p.biases)]);
    rows.push({ attrs: { class: 'total-row' }, cells: ['total', '', h('strong', { id: 'params-total', dataset: { value: p.total } }, fmt.int(p.total))] });
    // Square matrices (h·d_k = d_model, d_v = d_k, a key/value head per query head): the four hold 4·d_model² weights.
    const identity = w.square
      ? `That is 4·d_model² = 4 × ${fmt.int(d.d_model)}² = ${fmt.int(p.w_q + p.w_k + p.w_v + p.w_o)} weights${d.bias ? `, plus 4·d_model = ${fmt.int(p.biases)} biases` : ''}, whatever n_heads is: heads split the same matrices into slices, they do not add weights.`
      : kvh !== d.n_heads ? 'Wᴷ and Wⱽ have one slice per key/value head, not per query head, so the total is less than 4·d_model².'
        : 'With d_k or d_v set by hand the matrices are no longer square, so the total is not 4·d_model².';
    const gqa = a.params_gqa
      ? h('p', { class: 'note', id: 'params-gqa', dataset: { value: a.params_gqa } }, `With ${kvh} key/value heads shared by the ${d.n_heads} query heads (grouped-query attention), `
        + `Wᴷ and Wⱽ are ${fmt.int(d.d_model)} × ${fmt.int(w.kv_k_width)}: the layer has ${fmt.int(a.params_gqa)} parameters against ${fmt.int(a.params_mha)} with one key/value head per query head. `
        + `The forward pass (and the heatmaps) runs this grouped layer: every ${w.group} query heads read the same keys and values.`)
      : null;
    fill(params, h('h3', {}, 'Parameters of one attention layer'),
      h('div', { class: 'table-wrap', tabindex: '0' }, table(['matrix', 'shape', 'parameters'], rows, { class: 'cost params' })),
      h('p', { class: 'note' }, identity), gqa);
  }

  function renderFlops(a, config) {
    const f = a.flops, d = a.dims;
    const lesson = f.lesson;
    const terms = lessonTerms(d, a.derived);
    const row = (name, term, value) => ({ attrs: { dataset: { term: name } }, cells: [name, h('span', { class: 'formula' }, formula(term)), fmt.int(value), fmt.short(value)] });
    const lessonRows = [
      row('projections', terms.projections, lesson.projections),
      row('scores QKᵀ', terms.scores, lesson.scores),
      row('weighted sum AV', terms.weighted_sum, lesson.weighted_sum),
      row('softmax', terms.softmax, lesson.softmax),
      { attrs: { class: 'total-row' }, cells: ['total', 'without the softmax', fmt.int(lesson.total), fmt.short(lesson.total)] },
    ];
    const maxFlops = Math.max(...f.stages.map((s) => s.flops));
    const stageRows = f.stages.map((s) => [math(s.stage), fmt.int(s.macs), fmt.int(s.flops),
      barCell(h, fmt.percent(s.flops / f.exact_flops), s.flops / maxFlops)]);
    stageRows.push({ attrs: { class: 'total-row' }, cells: ['total', fmt.int(f.exact_macs), h('strong', { id: 'flops-total', dataset: { value: f.exact_flops } }, fmt.int(f.exact_flops)), ''] });
    const ratio = f.exact_flops / lesson.total;
    const agree = f.projections_dominate_lesson === f.projections_dominate_exact;
    fill(flops,
      h('h3', {}, 'FLOPs: which term dominates'),
      h('p', { class: 'verdict', id: 'dominant' }, `Here ${f.dominant_reason}.`),
      h('h4', {}, 'As the lesson counts (one projection, a multiply-add = 1 operation)'),
      d.n_q !== d.n_k ? h('p', { class: 'note' }, `The lesson writes n² for n queries against n keys; here ${fmt.int(d.n_q)} queries (n_q) meet ${fmt.int(d.n_k)} keys (n_k), so n² becomes n_q·n_k.`) : null,
      h('div', { class: 'table-wrap', tabindex: '0' }, table(['term', 'formula', 'operations', 'rounded'], lessonRows, { class: 'cost' })),
      h('details', { class: 'fold-details', id: 'flops-exact' },
        h('summary', {}, h('h4', {}, `Exactly, stage by stage: ${fmt.int(f.exact_flops)} FLOPs`)),
        h('p', { class: 'note' }, 'Whole batch, 2 FLOPs per multiply-add.'),
        h('div', { class: 'table-wrap', tabindex: '0' }, table(['stage', 'multiply-adds', 'FLOPs', 'share'], stageRows, { class: 'cost stages' }))),
      h('p', { class: 'note' },
        `The exact count is ${fmt.num(ratio, 1)}× the lesson's: it has all four projections (Q, K, V and the output), `,
        `counts a multiply-add as two FLOPs, multiplies by batch = ${fmt.int(d.batch)}, and includes the scaling and the softmax. `,
        agree ? 'Both counts agree on which term dominates.' : 'Here the two counts disagree on which term dominates: the four projections tip the balance.'),
      sparseNote(a.sparse));
  }

  /** With a causal, sliding or strided mask: the pairs it leaves visible and the FLOPs a kernel that skips the rest does (analyze().sparse). */
  function sparseNote(s) {
    if (!s || s.visible_pairs >= s.total_pairs) return null;
    return h('p', { class: 'note', id: 'sparse-flops', dataset: { pairs: s.visible_pairs } },
      `The mask (${s.mask}) leaves ${fmt.int(s.visible_pairs)} of the ${fmt.int(s.total_pairs)} (query, key) pairs visible (${fmt.percent(s.fraction)}): `,
      `a kernel that skips the hidden ones does ${fmt.int(s.score_flops + s.weighted_sum_flops)} FLOPs for Q·Kᵀ and A·V instead of `,
      `${fmt.int(s.dense_score_flops + s.dense_weighted_sum_flops)}. The counts above are the dense ones: this engine computes every logit and sets the hidden ones to −∞.`);
  }

  function renderMemory(a, budget) {
    const d = a.dims, m = a.memory;
    const matrices = a.derived.attention_maps; // h × batch
    const parts = [['inputs', m.inputs], ['outputs', m.outputs], ['attention weights', m.weights], ['working buffers', m.working], ['parameters', m.parameters]];
    const over = m.total > budget;
    fill(memory,
      h('h3', {}, 'Memory'),
      h('p', { id: 'attention-memory', dataset: { bytes: a.attention_weight_bytes } },
        `The attention weights alone: h × batch = ${d.n_heads} × ${fmt.int(d.batch)} = ${fmt.int(matrices)} matrices of `,
        `${fmt.int(d.n_q)} × ${fmt.int(d.n_k)} floats, ${fmt.int(matrices)} · ${fmt.int(d.n_q)} · ${fmt.int(d.n_k)} · 4 B = `,
        h('strong', {}, fmt.bytes(a.attention_weight_bytes)), '. They grow with n², the reason long contexts are expensive.'),
      h('details', { class: 'fold-details', id: 'memory-parts' },
        h('summary', {}, h('h4', {}, `One forward pass: ${fmt.bytes(m.total)}, part by part`)),
        h('div', { class: 'table-wrap', tabindex: '0' }, table(['part', 'bytes'], [
          ...parts.map(([name, bytes]) => [name, fmt.bytes(bytes)]),
          { attrs: { class: 'total-row' }, cells: ['one forward pass', h('strong', { id: 'memory-total', dataset: { value: m.total } }, fmt.bytes(m.total))] },
        ], { class: 'cost' }))),
      h('div', { class: 'meter', role: 'img', 'aria-label': `${fmt.percent(m.total / budget)} of the tab's budget` },
        h('span', { class: over ? 'fill over' : 'fill', style: { width: `${Math.min(100, (100 * m.total) / budget).toFixed(1)}%` } })),
      h('p', { class: 'note' }, `${fmt.percent(m.total / budget)} of this tab's budget of ${fmt.bytesBinary(budget)}${over ? ': too large to run here' : ''}.`));
  }

  let lastRun = null;
  function renderRun(result, check) {
    const current = !!(result && check?.config && result.key === configKey(check.config));
    if (lastRun && lastRun.result === result && lastRun.current === current) return;
    lastRun = { result, current };
    if (!result) {
      fill(run);
      return;
    }
    fill(run,
      h('h3', {}, current ? 'This run' : 'Last run (previous inputs)'),
      h('dl', { class: 'facts', id: 'run-facts', dataset: { worker: result.timings.worker_ms, setup: result.timings.setup_ms, ms: result.timings.forward_ms, gflops: result.gflops, isa: result.isa } },
        h('dt', {}, 'wall time of the forward pass'), h('dd', {}, fmt.duration(result.timings.forward_ms),
          result.timings.repeats > 1 ? h('span', { class: 'note' }, ` per pass, timed over ${fmt.int(result.timings.repeats)} passes`) : null),
        h('dt', {}, 'weights and inputs'), h('dd', {}, fmt.duration(result.timings.setup_ms)),
        h('dt', {}, 'speed'), h('dd', {}, fmt.rate(result.gflops)),
        h('dt', {}, 'module'), h('dd', {}, moduleName(result.isa))));
  }

  return { update };
}

/**
 * The lesson's four terms as the engine counts them, each a list of [symbol, size] factors: the
 * lesson's n·d² and n²·d when n_q = n_k and h·d_k = d_model, the factors themselves otherwise, so a
 * formula never names a product other than the one whose value stands beside it. `widths`: the
 * analysis's derived { qk_width (h·d_k), v_width (h·d_v) }.
 */
export function lessonTerms(d, { qk_width: qk, v_width: v }) {
  const same = d.n_q === d.n_k;
  const nq = same ? ['n', d.n_q] : ['n_q', d.n_q];
  const nk = same ? ['n', d.n_k] : ['n_k', d.n_k];
  const width = qk === d.d_model ? ['d', d.d_model] : ['d_model', d.d_model];
  const dq = qk === d.d_model ? ['d', qk] : ['h·d_k', qk];
  const dv = v === d.d_model ? ['d', v] : ['h·d_v', v];
  const b = d.batch > 1 ? [['batch', d.batch]] : [];
  return {
    projections: [...b, nq, width, dq],
    scores: [...b, nq, nk, dq],
    weighted_sum: [...b, nq, nk, dv],
    softmax: [...b, ['h', d.n_heads], nq, nk],
  };
}

/** [[n, 8], [d, 64], [d, 64]] → "n·d² = 8 × 64²" (equal neighbours become a square). */
export function formula(factors) {
  const merged = [];
  for (const [sym, value] of factors) {
    const last = merged[merged.length - 1];
    if (last && last.sym === sym && last.power === 1) last.power = 2;
    else merged.push({ sym, value, power: 1 });
  }
  const symbolic = merged.map((f) => (f.power === 2 ? `${f.sym}²` : f.sym)).join('·');
  const numeric = merged.map((f) => (f.power === 2 ? `${fmt.int(f.value)}²` : fmt.int(f.value))).join(' × ');
  return `${symbolic} = ${numeric}`;
}

