// The heatmaps panel: every head's attention weights for one batch item as small multiples, one head
// enlarged with the words on its axes, a shared colour legend, and a readout of the cell under the cursor.
// Compact by design (a chapter should fit in two screens): beside the enlarged map sit the small maps,
// the readout and what each head does; the layer's output table is folded under its heading.

import { Heatmap, drawColorbar } from '../../render/heatmap.js';
import { configKey } from '../../model/validate.js';
import { colorPositions, legendEnds } from '../../model/colorscale.js';
import * as fmt from '../../model/format.js';
import { focusedIn, setText } from '../../ui/dom.js';
import { LESSON_START } from '../../lesson/chapters.js';
import { watchStep } from '../../ui/fold_in_step.js';
import { text } from '../../lesson/panels/heatmaps.js';
import { firstRowOfPrevious } from './first_row.js';
import { textsOf } from '../../lesson/text.js';

// Beyond this many heads the small multiples would be specks and thousands of canvases: the
// enlarged map still shows any head (head= in the URL), the grid shows the first ones.
const MAX_SMALL = 64;
const MAX_ITEM_MENU = 64;

export function create(body, { dom, host, actions }) {
  const { h, fill } = dom;
  let view = null;
  const {
    intro, itemSelect, itemNumber, itemLabel, itemField, scaleSelect, legendMin, legendMax, note, untrained, mainCanvas, mainCaption, grid,
    groups, readout, jobs, jobsFold, headsSwitch, outputTitle, outputBody, output, placeholder, content,
  } = buildParts(dom, actions, () => current?.config);
  fill(body, intro, placeholder, content);

  let current = null; // { item, config, key, max }
  let baseNote = '';   // what the current result needs said (downsampling, masked rows, dropout)
  let smalls = [];
  let smallsLayout = '', drawnAs = ''; // what the small maps were built for, and which head and scale were drawn last
  // The maps' widths: read once, and again when the panel's width or the small maps change (the grid's
  // columns are fractions of the panel, whatever is drawn in them). Reading them after other panels
  // changed the page would lay it out before the drawing, and the drawing lays it out again.
  let knownWidths = null;
  const mapWidths = () => (knownWidths ??= [main, ...smalls.map((s) => s.map)].map((map) => map.available()));
  const main = new Heatmap(mainCanvas, { labels: true, maxHeight: FULL_ROOM, onCursor: (cell) => describe(readout, current, selectedHead(), cell), onPick: () => follow(main.cursor) });

  // In a lesson's step (the playground's .stepped class, ui/fold_in_step.js) the heads' fold closes and the
  // enlarged map keeps to the step's room; on the whole dashboard the fold opens and the map has 400 px.
  let stepped = false;
  const step = watchStep(body, (now) => {
    stepped = now;
    jobsFold.open = !now; // each time the view goes from one to the other: a learner's toggle stays until then
    if (current && view && body.clientWidth > 0) draw(); // the class can change with no update (a chapter's words loaded later)
  });
  const room = () => mapRoom(stepped, host.win);

  /** Click or Enter on a cell of the enlarged map: "Follow one query" (features/query/panel.js) explains it. */
  function follow(cell) {
    const item = current?.item;
    if (!cell || !item || item.rowStep !== 1 || item.colStep !== 1) return; // a block mean is no one query
    actions.edit({ q_item: String(item.b), q_head: String(selectedHead()), q_query: String(cell.r), q_key: String(cell.c) }, 'q_query');
  }

  /** The enlarged head: validate() keeps only a head of this layer (a link's head=-1 shows head 0, with a note). */
  function selectedHead() {
    const head = view?.check?.config?.head ?? 0;
    return current && head < current.config.n_heads ? head : 0;
  }

  // The theme's colours, read once per colour scheme (a style read after the page changed recomputes its styles).
  let palette = null;
  function colors() {
    return (palette ??= { masked: host.cssVar('--masked'), text: host.cssVar('--fg') });
  }

  function enlarge(head) {
    actions.edit({ head: String(head) }, 'head');
    mainCanvas.focus({ preventScroll: true });
  }

  function buildSmalls(config) {
    knownWidths = null;
    smalls = Array.from({ length: Math.min(config.n_heads, MAX_SMALL) }, (_, k) => {
      const { figure, canvas } = smallFigure(h, config, k);
      return { figure, map: new Heatmap(canvas, { maxHeight: 220, onCursor: (cell) => describe(readout, current, k, cell), onPick: () => enlarge(k) }) };
    });
    placeSmalls(dom, { grid, groups }, config, smalls.map((s) => s.figure));
  }

  function draw() {
    if (!current) return;
    const { item, config } = current;
    current.scale = ['linear', 'log', 'row'].includes(view.state.colors) ? view.state.colors : 'linear';
    const [low, high] = legendEnds(current.scale, current.max, (v) => fmt.fixed(v, v < 0.001 ? 6 : 3));
    legendMin.textContent = low;
    legendMax.textContent = high;
    const head = selectedHead();
    drawnAs = `${head}|${view.state.colors}|${room()}`;
    main.maxHeight = room();
    // Every width first, then every drawing: each drawing resizes its canvas, and a width read after
    // that would cost the browser a layout per map.
    const widths = mapWidths();
    const palette = colors(); // read once: a style read between drawings would recompute the styles each time
    main.setData(gridFor(current, head, palette), widths[0]);
    // The enlarged head's attention as drawn, for readers and tests that check a pattern (small maps only).
    const size = item.rows * item.cols;
    mainCanvas.dataset.attention = size <= 4096 ? JSON.stringify(Array.from(item.data.subarray(head * size, (head + 1) * size))) : '';
    const [q, k] = config.cross ? [text('heatmaps.axis_decoder_queries'), text('heatmaps.axis_encoder_keys')] : [text('heatmaps.axis_queries'), text('heatmaps.axis_keys')];
    mainCaption.textContent = text('heatmaps.head_down_across', { value: fmt.int(head + 1), n_heads: fmt.int(config.n_heads), part: grouped(config) ? text('heatmaps.k_v_head', { value: kvHeadOf(config, head) + 1 }) : '', q, k });
    smalls.forEach(({ figure, map }, k) => {
      map.setData(gridFor(current, k, palette), widths[k + 1]);
      figure.classList.toggle('selected', k === head);
      figure.dataset.row0 = JSON.stringify(Array.from(item.data.subarray(k * item.rows * item.cols, k * item.rows * item.cols + Math.min(8, item.cols))));
    });
  }

  function update(v, reason) {
    view = v;
    step.sync(); // the chapter list set the class just before the panels' update
    const { check, result, state, running, engine } = v;
    const config = check?.config;
    updateItemMenu(dom, { itemSelect, itemNumber, itemLabel, itemField, scaleSelect }, config, result, state);

    if (!result) {
      content.hidden = true;
      knownWidths = null; // nothing to measure while hidden
      placeholder.hidden = false;
      placeholder.textContent = placeholderText(check, engine, running);
      return;
    }
    content.hidden = false;
    placeholder.hidden = true;
    untrained.hidden = result.config.source !== 'text' || result.config.weights === 'trained';
    fill(untrained, dom.math(untrainedText(result.config.heads))); // Wᴽ, Wᴷ with their letters raised
    renderJobs(dom, { jobs, headsSwitch }, result, v.locked?.has('heads') || v.readOnly);
    const stale = !config || result.key !== configKey(config);
    body.classList.toggle('stale', stale);
    body.dataset.stale = stale ? '1' : '0';

    if (reason === 'result' || !current || current.item !== result.item) {
      // The small maps are made again only when their number, captions or groups change: a new canvas
      // costs a context and a layout, and most edits (a seed, a word, d_model) keep them.
      const layout = JSON.stringify([result.config.n_heads, result.config.kv_head_of, result.config.heads]);
      const fresh = !current || layout !== smallsLayout || smalls.length !== Math.min(result.config.n_heads, MAX_SMALL);
      smallsLayout = layout;
      let max = 0;
      for (const v of result.item.data) if (v > max) max = v;
      current = { item: result.item, config: result.config, key: result.key, max: max || 1 };
      if (fresh) buildSmalls(result.config);
      const { item } = result;
      baseNote = resultNotes(result);
      renderOutput(dom, { output, outputTitle, outputBody }, result);
      draw();
    } else if (reason === 'state' && drawnAs !== `${selectedHead()}|${state.colors}|${room()}`) {
      draw(); // the enlarged head, the colour scale or the map's room (a step of a chapter, or the whole dashboard) changed
    }
    setText(note, [baseNote, stale ? staleNote(check) : ''].filter(Boolean).join(' '));
    note.hidden = !note.textContent;
  }

  onWidthChange(host, body, () => {
    knownWidths = null;
    if (!current) return;
    const widths = mapWidths();
    main.draw(widths[0]);
    smalls.forEach(({ map }, k) => map.draw(widths[k + 1]));
  });
  const offScheme = host.onSchemeChange(() => {
    palette = null;
    draw();
  });

  return { update, destroy: () => { offScheme(); step.destroy(); } };
}

/** The batch item menu (a number field for thousands of items) and the colour scale, with the legend. */
function buildToolbar(dom, actions) {
  const { h } = dom;
  // A menu for a handful of batch items, a number field for thousands; both count from 0, like the
  // queries, keys and the URL's item=.
  const itemSelect = h('select', { id: 'f-item', name: 'item' });
  const itemNumber = h('input', { id: 'f-item-number', name: 'item', type: 'number', min: 0, step: 1, inputmode: 'numeric' });
  const itemLabel = h('label', { for: 'f-item' }, text('heatmaps.batch_item_shown'));
  const itemField = h('div', { class: 'field inline', hidden: true }, itemLabel, itemSelect, itemNumber);
  itemSelect.addEventListener('change', () => actions.edit({ item: itemSelect.value }, 'item'));
  itemNumber.addEventListener('change', () => actions.edit({ item: itemNumber.value }, 'item'));
  const scaleSelect = h('select', { id: 'f-colors', name: 'colors' },
    h('option', { value: 'linear' }, text('heatmaps.linear_0_max')), h('option', { value: 'log' }, text('heatmaps.log_decades')),
    h('option', { value: 'row' }, text('heatmaps.each_row_max')));
  const scaleField = h('div', { class: 'field inline' }, h('label', { for: 'f-colors' }, text('heatmaps.colour_scale')), scaleSelect);
  scaleSelect.addEventListener('change', () => actions.edit({ colors: scaleSelect.value }, 'colors'));
  const bar = h('canvas', { class: 'colorbar', 'aria-hidden': 'true' });
  drawColorbar(bar);
  const legendMin = h('span', { class: 'num' }), legendMax = h('span', { class: 'num' });
  const legend = h('div', { class: 'legend', role: 'img', 'aria-label': text('heatmaps.colour_scale') },
    h('span', {}, text('heatmaps.legend_weight')), legendMin, bar, legendMax,
    h('span', { class: 'swatch masked-swatch', title: text('heatmaps.masked_before_softmax_weight') }), h('span', {}, text('heatmaps.legend_masked')));
  return { itemSelect, itemNumber, itemLabel, itemField, scaleSelect, scaleField, legend, legendMin, legendMax };
}

/** The batch item menu: only when there is more than one; a menu for a few, a number field for many. */
function updateItemMenu({ h, fill }, { itemSelect, itemNumber, itemLabel, itemField, scaleSelect }, config, result, state) {
  // Batch item menu: only when there is more than one.
  const batch = config?.batch ?? result?.config.batch ?? 1;
  itemField.hidden = batch <= 1;
  const menu = batch <= MAX_ITEM_MENU;
  itemSelect.hidden = !menu;
  itemNumber.hidden = menu;
  itemLabel.htmlFor = menu ? 'f-item' : 'f-item-number';
  itemLabel.textContent = text('heatmaps.batch_item_shown_0', { value: fmt.int(batch - 1) });
  if (menu && itemSelect.options.length !== batch) {
    fill(itemSelect, Array.from({ length: batch }, (_, b) => h('option', { value: String(b) }, String(b))));
  }
  itemSelect.value = String(config?.item ?? 0);
  itemNumber.max = String(batch - 1);
  if (focusedIn(itemNumber) !== itemNumber) itemNumber.value = String(config?.item ?? 0);
  scaleSelect.value = state.colors;
}

/** One line per head: the job it was built for (heads=), random, or learnt in the training lab. */
function renderJobs({ h, fill }, { jobs, headsSwitch }, result, fixed) {
  const { config } = result;
  const trained = config.weights === 'trained';
  const patterns = Array.from({ length: config.n_heads }, (_, k) => (trained ? 'trained' : config.heads?.[k] ?? 'random'));
  const built = patterns.filter((p) => p !== 'random' && p !== 'trained').length;
  const listed = config.n_heads <= 16 ? patterns.map((p, k) => [p, k]) : patterns.map((p, k) => [p, k]).filter(([p]) => p !== 'random');
  // The previous-token head's first query has no token before it: where its weight goes, in words (first_row.js).
  const firstRow = (k) => {
    const row = firstRowOfPrevious(result, k);
    return row ? text('heatmaps.first_row_previous', { first: row.first, word: row.word, weight: fmt.fixed(row.weight, 2) }) : '';
  };
  const lines = listed.map(([p, k]) => h('li', { dataset: { head: k, pattern: p } }, h('strong', {}, text('heatmaps.job_head', { value: k + 1 })), `: ${JOB_LINES[p]}${p === 'previous' ? firstRow(k) : ''}`));
  if (listed.length < patterns.length) lines.push(h('li', {}, text('heatmaps.other_heads_are_random', { length_length: fmt.int(patterns.length - listed.length) })));
  // The same lines again (most redraws): the list is left as it is, not laid out again.
  if (jobs.innerHTML !== lines.map((li) => li.outerHTML).join('')) fill(jobs, lines);
  headsSwitch.hidden = trained || fixed;
  setText(headsSwitch, built ? text('heatmaps.make_every_head_random') : text('heatmaps.give_three_heads_job'));
}

/** The layer's output rows for the shown batch item, folded under its heading. */
function renderOutput(dom, { output, outputTitle, outputBody }, result) {
  const { h, fill } = dom;
  const { item, config } = result;
  const rows = item.output_rows;
  const cols = rows[0]?.length ?? 0;
  Object.assign(output.dataset, {
    row0: JSON.stringify(rows[0] ?? []), sum: String(result.output_sum), itemSum: String(item.item_sum), item: String(item.b),
  });
  outputTitle.textContent = text('heatmaps.output_title', {
    item: config.batch > 1 ? text('heatmaps.batch_item', { b: fmt.int(item.b) }) : '', n_q: fmt.int(config.n_q), d_model: fmt.int(config.d_model) });
  fill(outputBody,
    h('p', { class: 'note' }, text('heatmaps.each_row_concat_head1', { d_model: fmt.int(config.d_model), length: rows.length, cols })),
    dom.tableWrap({ label: text('heatmaps.output_label') }, h('table', { class: 'numbers' },
      h('tbody', {}, rows.map((row, i) => h('tr', {},
        h('th', { scope: 'row' }, item.labels_q ? item.labels_q[i] : text('heatmaps.output_row', { value: i })),
        row.map((v) => h('td', {}, fmt.fixed(v, 4)))))))),
    h('p', { class: 'note' }, text('heatmaps.sum_every_output_value', { output_sum: fmt.fixed(result.output_sum, 6) })));
}

/** Which query heads read which key/value head, in words. */
function groupText(config) {
  const readers = (g) => config.kv_head_of.flatMap((kv, k) => (kv === g ? [k + 1] : [])); // query heads of K/V head g
  const per = readers(0).length;
  const shown = Math.min(config.n_kv_heads, 16);
  const parts = Array.from({ length: shown }, (_, g) => text('heatmaps.k_v_head_heads', { value: g + 1, value2: readers(g)[0], value3: readers(g).at(-1) }));
  return text('heatmaps.grouped_query_attention_key', { n_kv_heads: config.n_kv_heads, per })
    + text('heatmaps.heads_one_group_take', { value: parts.join(' · '), part: shown < config.n_kv_heads ? ' · …' : '' });
}

/** Short names of the patterns, for the small maps' captions. */
const JOB_NAMES = textsOf({ previous: 'heatmaps.job_name_previous', same_word: 'heatmaps.job_name_same_word', first_token: 'heatmaps.job_name_first_token', uniform: 'heatmaps.job_name_uniform' });

/** The patterns as the untrained note names them. */
const PATTERN_NAMES = textsOf({ previous: 'heatmaps.pattern_previous', same_word: 'heatmaps.pattern_same_word', first_token: 'heatmaps.pattern_first_token', uniform: 'heatmaps.pattern_uniform' });

/** What a head of each kind was made to do, in one line. */
const JOB_LINES = textsOf({ // looked up when shown: an author's words registered later still show
  previous: 'heatmaps.built_look_token_just',
  same_word: 'heatmaps.built_look_other_places',
  first_token: 'heatmaps.built_look_first_token',
  uniform: 'heatmaps.built_spread_every_row',
  random: 'heatmaps.random_projections_no_job',
  trained: 'heatmaps.learnt_training_lab_not',
});

/** Where the maps' patterns come from: chance for random heads, a construction for the heads given a pattern. */
function untrainedText(heads) {
  const words = text('heatmaps.words_become_vectors_random');
  const built = (heads ?? []).map((p, k) => [p, k]).filter(([p]) => p !== 'random');
  if (!built.length) {
    return text('heatmaps.projection_weights_are_random', { words });
  }
  const list = built.map(([p, k]) => text('heatmaps.built_head', { value: k + 1, pattern: PATTERN_NAMES[p] ?? p })).join(', ');
  const others = built.length === heads.length ? text('heatmaps.no_head_random') : text('heatmaps.other_heads_are_random_2');
  return text('heatmaps.constructed_whose_w_w', { words, list, others });
}

/**
 * How tall the enlarged map may be: in a step of a lesson chapter (`stepped`), what a window of its height
 * leaves under the chapter's title, the step's text and the run bar (260 px, cells of 21 px, on a
 * 1280 × 800 screen: the step fits it, issue 37); on the whole dashboard (Reference, an author's panels
 * alone, a chapter without its frame), 400.
 */
const FULL_ROOM = 400;
function mapRoom(stepped, win) {
  return stepped ? Math.max(240, Math.min(FULL_ROOM - 1, Math.round((win?.innerHeight ?? 800) - 540))) : FULL_ROOM;
}

/** Calls fn on the next frame after `body`'s width changed: drawing sets the canvases' heights, which must not loop back here. */
function onWidthChange(host, body, fn) {
  let width = 0;
  host.observeResize(body, ([entry]) => {
    const w = Math.round(entry.contentRect.width);
    if (w === width) return;
    width = w;
    host.win.requestAnimationFrame(fn);
  });
}

/** What the note says of maps drawn for other inputs than the form's. */
function staleNote(check) {
  return text('heatmaps.these_maps_are_from', { part: check?.ok && !check.blocked ? text('heatmaps.press_run_update_them') : text('heatmaps.current_inputs_cannot_run') });
}

/** What the panel says while it has no maps: why not, or that they are coming. */
function placeholderText(check, engine, running) {
  if (check?.blocked) return text('heatmaps.not_run_this_size');
  if (!check?.ok) return text('heatmaps.fix_highlighted_inputs_maps');
  if (!engine) return text('heatmaps.loading_engine');
  return running || check.auto ? text('heatmaps.computing') : text('heatmaps.press_run_compute_maps');
}

/** True when the layer shares key/value heads (fewer than query heads, as the core resolved them). */
const grouped = (config) => !!config.kv_head_of && config.n_kv_heads !== config.n_heads;

/** The key/value head query head k reads (counting from 0): the core's mapping (validation's kv_head_of). */
const kvHeadOf = (config, k) => config.kv_head_of?.[k];

/** The panel's parts: the toolbar, the enlarged map and the small ones, the readout, the heads' jobs, the output. */
function buildParts(dom, actions, currentConfig) {
  const { h } = dom;
  // Sentences look meaningful, so say where their patterns come from.
  const untrained = h('p', { class: 'note', id: 'untrained-note', hidden: true });
  const intro = h('p', { class: 'lead' },
    text('heatmaps.rows_are_queries_columns'));
  const { itemSelect, itemNumber, itemLabel, itemField, scaleSelect, scaleField, legend, legendMin, legendMax } = buildToolbar(dom, actions);
  const note = h('p', { class: 'note', id: 'heat-note' });
  const mainCanvas = h('canvas', { class: 'heat-main-canvas' });
  const mainCaption = h('figcaption');
  const grid = h('div', { class: 'heat-grid' });
  // Grouped-query attention: which query heads read the same keys and values.
  const groups = h('p', { class: 'note kv-groups', id: 'kv-groups', hidden: true });
  const readout = h('p', { class: 'readout', id: 'readout', 'aria-live': 'polite' }, text('heatmaps.point_cell_read_weight'));
  // What each head was built to do, one line per head, and the switch between built and random heads.
  const jobs = h('ul', { class: 'head-jobs', id: 'head-jobs' });
  const headsSwitch = h('button', { type: 'button', class: 'secondary small', id: 'heads-switch', onclick: () => {
    const built = (currentConfig()?.heads ?? []).some((p) => p !== 'random');
    // 'random' rather than '': an explicit choice, so the page's link keeps it (no hash = the lesson's start).
    actions.edit(built ? { heads: 'random' } : { ...LESSON_START, source: 'text' }, 'heads');
  } });
  // Folded in a step of a lesson chapter (the step's text says what the heads do; the map needs the room),
  // open on the whole dashboard: the list and where the sentence's patterns come from (the untrained note).
  const jobsFold = h('details', { class: 'head-jobs-fold', id: 'head-jobs-fold', open: true },
    h('summary', {}, h('h3', {}, text('heatmaps.what_each_head_does'))), jobs, untrained);
  const jobsBox = h('div', { class: 'head-jobs-box', id: 'head-jobs-box' }, jobsFold, headsSwitch);
  // The output table, folded under its heading (a details element): the maps are what a chapter is about.
  const outputTitle = h('h3', {});
  const outputBody = h('div', {});
  const output = h('details', { class: 'output-summary', id: 'output-summary' }, h('summary', {}, outputTitle), outputBody);
  const placeholder = h('p', { class: 'placeholder' });
  const content = h('div', { class: 'heat-content' },
    h('div', { class: 'heat-toolbar' }, itemField, scaleField, legend),
    note,
    h('div', { class: 'heat-layout' },
      h('figure', { class: 'heat-main' }, mainCaption, mainCanvas),
      h('div', { class: 'heat-side' }, groups, grid, readout, jobsBox)),
    output);
  return { intro, itemSelect, itemNumber, itemLabel, itemField, scaleSelect, legendMin, legendMax, note, untrained, mainCanvas, mainCaption, grid, groups, readout, jobs, jobsFold, headsSwitch, outputTitle, outputBody, output, placeholder, content };
}

/** What the map of `head` draws: the weights placed on the colour scale, the mask, the labels. */
function gridFor(current, head, palette) {
  const { item } = current;
  const size = item.rows * item.cols;
  const attention = item.data.subarray(head * size, (head + 1) * size);
  // Words when the inputs are sentences, positions otherwise; none for averaged blocks.
  const labels = (list, step, n) => (step !== 1 ? null : list ?? Array.from({ length: n }, (_, i) => String(i)));
  return {
    rows: item.rows, cols: item.cols, data: colorPositions(attention, item.rows, item.cols, current.scale, current.max), masked: item.masked,
    min: 0, max: 1, rowLabels: labels(item.labels_q, item.rowStep, item.rows), colLabels: labels(item.labels_k, item.colStep, item.cols),
    colors: palette,
  };
}

function word(list, i) {
  return list ? ` “${list[i]}”` : '';
}

/** The readout of the cell under the cursor (or the hint when there is none). */
function describe(readout, current, head, cell) {
  if (!cell || !current) {
    readout.textContent = text('heatmaps.point_cell_read_weight');
    delete readout.dataset.weight;
    return;
  }
  const { item } = current;
  const value = item.data[(head * item.rows + cell.r) * item.cols + cell.c];
  const masked = item.masked[cell.r * item.cols + cell.c];
  let where;
  if (item.rowStep === 1 && item.colStep === 1) {
    where = text('heatmaps.query_to_key', { r: cell.r, q_word: word(item.labels_q, cell.r), c: cell.c, k_word: word(item.labels_k, cell.c) });
  } else {
    const span = (k, step, n) => `${fmt.int(k * step)}–${fmt.int(Math.min(n, (k + 1) * step) - 1)}`;
    where = text('heatmaps.queries_keys_block_mean', { r: span(cell.r, item.rowStep, current.config.n_q), c: span(cell.c, item.colStep, current.config.n_k) });
  }
  readout.textContent = text('heatmaps.readout', { value: head + 1, where, weight: fmt.fixed(value, 4), masked: masked ? text('heatmaps.readout_masked') : '' });
  Object.assign(readout.dataset, { head, query: cell.r, key: cell.c, weight: String(value) });
}

/** What a result needs said beside its maps: downsampling, rows with every key masked, heads left out, dropout. */
function resultNotes(result) {
  const { item } = result;
  const notes = [];
  if (item.rowStep > 1 || item.colStep > 1) {
    notes.push(text('heatmaps.drawn_downsampled_each_cell', { rowStep: item.rowStep, colStep: item.colStep, n_q: fmt.int(result.config.n_q), n_k: fmt.int(result.config.n_k) }));
  }
  if (item.masked_rows.length) {
    notes.push(text('heatmaps.every_key_masked', { part: item.masked_rows.length === 1 ? text('heatmaps.masked_query_one') : text('heatmaps.masked_query_many'), value: item.masked_rows.slice(0, 8).join(', '), part2: item.masked_rows.length > 8 ? ', …' : '' }) +
      text('heatmaps.softmax_over_nothing_undefined'));
  }
  if (result.config.n_heads > MAX_SMALL) notes.push(text('heatmaps.grid_shows_first_heads', { MAX_SMALL, n_heads: fmt.int(result.config.n_heads) }));
  if (result.config.dropout > 0) notes.push(text('heatmaps.dropout_p_dropped_weights', { dropout: result.config.dropout }));
  return notes.join(' ');
}

/** The small map of head k: its canvas, and a caption with its job and its key/value head. */
function smallFigure(h, config, k) {
  const canvas = h('canvas', { 'aria-label': text('heatmaps.head_attention_weights_press', { value: k + 1 }) });
  const kv = kvHeadOf(config, k);
  const job = config.n_heads <= 8 && config.heads?.[k] && config.heads[k] !== 'random' ? text('heatmaps.small_job', { job: JOB_NAMES[config.heads[k]] }) : '';
  const caption = config.n_heads > 16 ? `${k + 1}` : text('heatmaps.small_caption', { value: k + 1, job });
  const figure = h('figure', { class: 'heat-small', dataset: { head: k, kvHead: kv } }, canvas,
    h('figcaption', {}, grouped(config) && config.n_heads <= 16 ? text('heatmaps.small_kv', { caption, value: kv + 1 }) : caption));
  return { figure, canvas };
}

/** The small maps in their grid (up to four a row, beside the enlarged one or under it on a phone) and the groups' line. */
function placeSmalls({ fill }, { grid, groups }, config, figures) {
  fill(grid, figures);
  fill(groups, grouped(config) ? groupText(config) : null);
  groups.hidden = !grouped(config);
  grid.style.setProperty('--cols', String(config.n_heads <= 4 ? Math.max(2, config.n_heads) : config.n_heads <= 16 ? 4 : 6));
}
