// The cost panel: parameters per matrix (worked example E2), FLOPs per stage counted the lesson's way
// and exactly, which term dominates and why, the memory of the attention weights (P4), and the last run.
// On a wide panel the four blocks sit in two columns (styles.css: .cost-blocks), the exact count folded.

import * as fmt from '../../model/format.js';
import { configKey } from '../../model/validate.js';
import { moduleName } from '../../ui/module_name.js';
import { barCell } from '../../render/bar.js';
import { text } from '../../lesson/panels/cost.js';
import { lessonTerms, formula } from './terms.js';
import { stepOf } from '../../lesson/chapters.js';
export { lessonTerms, formula }; // read from here by older callers (tests/browser/model.test.mjs)

/** The blocks of the panel each step of the cost chapter shows (lesson/chapters/cost/chapter.js's step ids). */
const STEP_BLOCKS = Object.freeze({ 'cost.weights': ['params'], 'cost.flops': ['flops', 'run'], 'cost.memory': ['memory', 'run'] });

/** Shows the blocks the cost chapter's step names (one idea a step); every block elsewhere (reference, panels=). */
function showBlocks(blocks, state) {
  const shown = state?.chapter === 'cost' && !String(state.panels ?? '').trim() ? STEP_BLOCKS[stepOf(state).step?.id] : null;
  for (const el of blocks.children) el.hidden = !!shown && !shown.includes(el.dataset.block);
  if (shown) blocks.dataset.blocks = shown.join(' ');
  else delete blocks.dataset.blocks;
}

export function create(body, { dom }) {
  const { h, fill, table, math } = dom;
  const params = h('div', { class: 'cost-params', dataset: { block: 'params' } }), flops = h('div', { class: 'cost-flops', dataset: { block: 'flops' } });
  const memory = h('div', { class: 'cost-memory', dataset: { block: 'memory' } }), run = h('div', { id: 'run-cost', class: 'cost-run', dataset: { block: 'run' } });
  const blocks = h('div', { class: 'cost-blocks' }, params, flops, memory, run);
  fill(body, blocks);
  let lastKey = '';

  function update({ check, result, engine, state }) {
    showBlocks(blocks, state);
    const a = check?.analysis;
    const key = a ? JSON.stringify([a.dims, check.config.scale, a.memory]) : '';
    if (key !== lastKey) {
      lastKey = key;
      if (!a) {
        fill(params, h('p', { class: 'placeholder' }, text('cost.cost_appears_once_inputs')));
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
    const perHead = (value) => (d.n_heads === 1 ? text('cost.one_head_of_weights', { per_head: fmt.int(value) })
      : text('cost.heads_of_weights', { n_heads: d.n_heads, per_head: fmt.int(value) }));
    const kvNote = kvh === d.n_heads ? perHead(p.per_head_k) : text('cost.key_heads_shared', { kvh, per_head_k: fmt.int(p.per_head_k) });
    // What each matrix holds per head goes under its name: a fourth column does not fit half a panel.
    const matrix = (label, perHead) => h('span', {}, math(label), h('span', { class: 'sub-note' }, math(perHead)));
    const rows = [
      [matrix(text('cost.w_all_heads'), perHead(p.per_head_q)), `${fmt.int(d.d_model)} × ${fmt.int(w.qk_width)}`, fmt.int(p.w_q)],
      [matrix(kvh === d.n_heads ? text('cost.w_all_heads_2') : text('cost.w_key_value_heads'), kvNote), `${fmt.int(d.d_model)} × ${fmt.int(w.kv_k_width)}`, fmt.int(p.w_k)],
      [matrix(kvh === d.n_heads ? text('cost.w_all_heads_3') : text('cost.w_key_value_heads_2'),
        kvh === d.n_heads ? perHead(p.per_head_v) : text('cost.value_heads_shared', { kvh, per_head_v: fmt.int(p.per_head_v) })),
      `${fmt.int(d.d_model)} × ${fmt.int(w.kv_v_width)}`, fmt.int(p.w_v)],
      [matrix('Wᴼ', text('cost.mixes_heads')), `${fmt.int(w.v_width)} × ${fmt.int(d.d_model)}`, fmt.int(p.w_o)],
    ];
    if (d.bias) rows.push([matrix('biases', text('cost.bias_names')), '4 vectors', fmt.int(p.biases)]);
    rows.push({ attrs: { class: 'total-row' }, cells: ['total', '', h('strong', { id: 'params-total', dataset: { value: p.total } }, fmt.int(p.total))] });
    // Square matrices (h·d_k = d_model, d_v = d_k, a key/value head per query head): the four hold 4·d_model² weights.
    const identity = w.square
      ? text('cost.that_4_d_model2', { d_model: fmt.int(d.d_model), value: fmt.int(p.w_q + p.w_k + p.w_v + p.w_o), part: d.bias ? text('cost.plus_4_d_model', { value: fmt.int(p.biases) }) : '' })
      : kvh !== d.n_heads ? text('cost.w_w_have_one')
        : text('cost.with_d_k_or');
    const gqa = a.params_gqa
      ? h('p', { class: 'note', id: 'params-gqa', dataset: { value: a.params_gqa } }, text('cost.with_key_value_heads', { kvh, n_heads: d.n_heads })
        + text('cost.w_w_are_layer', { d_model: fmt.int(d.d_model), value: fmt.int(w.kv_k_width), params_gqa: fmt.int(a.params_gqa), params_mha: fmt.int(a.params_mha) })
        + text('cost.forward_pass_heatmaps_runs', { value: w.group }))
      : null;
    fill(params, h('h3', {}, text('cost.parameters_one_attention_layer')),
      dom.tableWrap({}, table(['matrix', 'shape', 'parameters'], rows, { class: 'cost params' })),
      h('p', { class: 'note' }, identity), gqa);
  }

  function renderFlops(a, config) {
    const f = a.flops, d = a.dims;
    const lesson = f.lesson;
    const terms = lessonTerms(d, a.derived);
    // The formula goes under the term's name (as the matrices' slices do): a fourth column is cut on a phone.
    const named = (name, note, kind = 'formula') => h('span', {}, name, h('span', { class: `sub-note ${kind}` }, note));
    const row = (name, term, value) => ({ attrs: { dataset: { term: name } }, cells: [named(name, formula(term)), fmt.int(value), fmt.short(value)] });
    const lessonRows = [
      row('projections', terms.projections, lesson.projections),
      row(text('cost.scores_qkt'), terms.scores, lesson.scores),
      row(text('cost.weighted_sum_av'), terms.weighted_sum, lesson.weighted_sum),
      row('softmax', terms.softmax, lesson.softmax),
      { attrs: { class: 'total-row' }, cells: [named('total', text('cost.without_softmax')), fmt.int(lesson.total), fmt.short(lesson.total)] },
    ];
    const maxFlops = Math.max(...f.stages.map((s) => s.flops));
    // The multiply-adds go under the stage's name: a fourth column is cut on a phone.
    const macs = (value) => text('cost.stage_macs', { macs: fmt.int(value) });
    const stageRows = f.stages.map((s) => [named(math(s.stage), macs(s.macs), 'macs'), fmt.int(s.flops),
      barCell(h, fmt.percent(s.flops / f.exact_flops), s.flops / maxFlops)]);
    stageRows.push({ attrs: { class: 'total-row' }, cells: [named('total', macs(f.exact_macs), 'macs'), h('strong', { id: 'flops-total', dataset: { value: f.exact_flops } }, fmt.int(f.exact_flops)), ''] });
    const ratio = f.exact_flops / lesson.total;
    const agree = f.projections_dominate_lesson === f.projections_dominate_exact;
    fill(flops,
      h('h3', {}, text('cost.flops_which_term_dominates')),
      // Folded, the verdict and the counts that show it: the chapter asks the learner to predict it first
      // (exercises cost.dominant and cost.dominant-long).
      h('details', { class: 'fold-details verdict-fold', id: 'dominant-fold' },
        h('summary', {}, text('cost.which_dominates_here')),
        h('p', { class: 'verdict', id: 'dominant' }, text('cost.here_reason', { reason: f.dominant_reason })),
        h('h4', {}, text('cost.lesson_counts_one_projection')),
        d.n_q !== d.n_k ? h('p', { class: 'note' }, text('cost.lesson_writes_n2_n', { n_q: fmt.int(d.n_q), n_k: fmt.int(d.n_k) })) : null,
        dom.tableWrap({}, table(['term', 'operations', 'rounded'], lessonRows, { class: 'cost lesson-terms' }))),
      h('details', { class: 'fold-details', id: 'flops-exact' },
        h('summary', {}, h('h4', {}, text('cost.exactly_stage_stage_flops', { exact_flops: fmt.int(f.exact_flops) }))),
        h('p', { class: 'note' }, text('cost.whole_batch_2_flops')),
        dom.tableWrap({}, table(['stage', 'FLOPs', 'share'], stageRows, { class: 'cost stages' }))),
      h('p', { class: 'note' },
        text('cost.exact_count_lesson_s', { ratio: fmt.num(ratio, 1) }),
        text('cost.counts_multiply_add_two', { batch: fmt.int(d.batch) }),
        agree ? text('cost.both_counts_agree_which') : text('cost.here_two_counts_disagree')),
      sparseNote(h, a.sparse));
  }

  function renderMemory(a, budget) {
    const d = a.dims, m = a.memory;
    const matrices = a.derived.attention_maps; // h × batch
    const parts = [[text('cost.part_inputs'), m.inputs], [text('cost.part_outputs'), m.outputs], [text('cost.part_attention_weights'), m.weights],
      [text('cost.part_working_buffers'), m.working], [text('cost.part_parameters'), m.parameters]];
    const over = m.total > budget;
    fill(memory,
      h('h3', {}, text('cost.memory')),
      h('p', { id: 'attention-memory', dataset: { bytes: a.attention_weight_bytes } },
        text('cost.attention_weights_alone_h', { n_heads: d.n_heads, batch: fmt.int(d.batch), matrices: fmt.int(matrices) }),
        text('cost.weights_floats_bytes', { n_q: fmt.int(d.n_q), n_k: fmt.int(d.n_k), matrices: fmt.int(matrices) }),
        h('strong', {}, fmt.bytes(a.attention_weight_bytes)), text('cost.they_grow_with_n2')),
      h('details', { class: 'fold-details', id: 'memory-parts' },
        h('summary', {}, h('h4', {}, text('cost.one_forward_pass_part', { total: fmt.bytes(m.total) }))),
        dom.tableWrap({}, table(['part', 'bytes'], [
          ...parts.map(([name, bytes]) => [name, fmt.bytes(bytes)]),
          { attrs: { class: 'total-row' }, cells: [text('cost.one_forward_pass'), h('strong', { id: 'memory-total', dataset: { value: m.total } }, fmt.bytes(m.total))] },
        ], { class: 'cost' }))),
      h('div', { class: 'meter', role: 'img', 'aria-label': text('cost.tab_s_budget', { value: fmt.percent(m.total / budget) }) },
        h('span', { class: `fill${over ? ' over' : ''}`, style: { width: `${Math.min(100, (100 * m.total) / budget).toFixed(1)}%` } })),
      h('p', { class: 'note' }, text('cost.this_tab_s_budget', { value: fmt.percent(m.total / budget), budget: fmt.bytesBinary(budget), part: over ? text('cost.too_large_run_here') : '' })));
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
      h('h3', {}, current ? text('cost.this_run') : text('cost.last_run_previous_inputs')),
      h('dl', { class: 'facts', id: 'run-facts', dataset: { worker: result.timings.worker_ms, setup: result.timings.setup_ms, ms: result.timings.forward_ms, gflops: result.gflops, isa: result.isa } },
        h('dt', {}, text('cost.wall_time_forward_pass')), h('dd', {}, fmt.duration(result.timings.forward_ms),
          result.timings.repeats > 1 ? h('span', { class: 'note' }, text('cost.per_pass_timed_over', { repeats: fmt.int(result.timings.repeats) })) : null),
        h('dt', {}, text('cost.weights_inputs')), h('dd', {}, fmt.duration(result.timings.setup_ms)),
        h('dt', {}, text('cost.speed')), h('dd', {}, fmt.rate(result.gflops)),
        h('dt', {}, text('cost.module')), h('dd', {}, moduleName(result.isa))));
  }

  return { update };
}

/** With a causal, sliding or strided mask: the pairs it leaves visible and the FLOPs a kernel that skips the rest does (analyze().sparse). */
function sparseNote(h, s) {
  if (!s || s.visible_pairs >= s.total_pairs) return null;
  return h('p', { class: 'note', id: 'sparse-flops', dataset: { pairs: s.visible_pairs } },
    text('cost.mask_leaves_query_key', { mask: s.mask, visible_pairs: fmt.int(s.visible_pairs), total_pairs: fmt.int(s.total_pairs), fraction: fmt.percent(s.fraction) }),
    text('cost.kernel_that_skips_hidden', { score_flops_weighted_sum_flops: fmt.int(s.score_flops + s.weighted_sum_flops) }),
    text('cost.counts_above_are_dense', { dense_score_flops_dense_weighted_sum_flops: fmt.int(s.dense_score_flops + s.dense_weighted_sum_flops) }));
}
