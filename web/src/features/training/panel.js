// The training lab: a tiny model (embedding + positional encoding → one multi-head attention layer →
// a linear read-out) trained with Adam in the compute worker, a few steps per request, while the loss
// and accuracy curves (uPlot) and every head's attention map update. The settings are state fields
// (train_*), so a link reproduces them; the learnt layer can be loaded into the playground
// (weights=trained), whose other panels then inspect it. The words follow the measured focus.

import * as fmt from '../../model/format.js';
import { Heatmap } from '../../render/heatmap.js';
import { parseTraining, trainingKey, TRAIN_TASKS, TASK_TEXT, TRAIN_VOCAB, TRAIN_BATCH } from '../../model/training_settings.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)
import { chartButtons, figureButtons } from '../../export/figure_button.js';
import { heatmapSvg, figureGrid } from '../../export/figure.js';
import { followWidth, chartWidth } from '../../render/follow_width.js';
import { createLabRun } from './lab_run.js';
import { createPreview } from './preview.js';
import { stepLayout } from './step_layout.js';
import { stepFold } from '../../ui/fold_in_step.js';
import { text } from '../../lesson/panels/training.js';
import { stillAsked } from '../../lesson/covered.js';
import { textsOf } from '../../lesson/text.js';

// Read when the form is drawn (textsOf): an author's words registered later still show.
const SETTING_WORDS = textsOf({ d_model: 'training.setting_d_model', n_heads: 'training.setting_n_heads', seq_len: 'training.tokens_per_sample',
  lr: 'training.adam_s_learning_rate', seed: 'training.initial_weights_data' });
const SETTINGS = [['train_d_model', 'd_model'], ['train_n_heads', 'n_heads'], ['train_seq_len', 'seq_len'], ['train_lr', 'lr'], ['train_seed', 'seed']];
const START_LOSS = 'training.start-loss'; // the question whose answer the loss figure is
const SKETCH = 'training.sketch-previous'; // the question whose answer a trained model's maps are
const FIELDS = ['train_task', ...SETTINGS.map(([key]) => key)];

/** What the relation names mean, for the text under the maps. */
const RELATION_TEXT = textsOf({ previous: 'training.previous_token', first: 'training.first_token', mirror: 'training.mirrored_position', key: 'training.pair_holding_key_asked' });

/**
 * Sentences about the heads, from the held-out focus (evaluation.focus: per head, the mean weight on
 * the position each relation reads) and accuracy: which head reads what, and whether they split the work.
 */
export function focusStory(evaluation, relations) {
  const heads = evaluation.focus;
  const out = [];
  const pct = (w) => (w === null ? '—' : fmt.percent(w));
  heads.forEach((f, h) => out.push(text('training.head_puts', { head: h + 1,
    weights: relations.map((r) => text('training.weight', { value: pct(f[r]), part: RELATION_TEXT[r] ?? r })).join(text('training.and')) })));
  const best = relations.map((r) => {
    let head = 0;
    heads.forEach((f, h) => { if ((f[r] ?? 0) > (heads[head][r] ?? 0)) head = h; });
    return { r, head, weight: heads[head][r] ?? 0 };
  });
  const acc = fmt.percent(evaluation.accuracy);
  if (relations.length > 1) {
    const specialised = best.every((b) => b.weight >= 0.8) && new Set(best.map((b) => b.head)).size === best.length;
    if (specialised) {
      out.push(text('training.heads_have_split_work', { value: best.map((b) => text('training.head_reads', { head: b.head + 1, relation: RELATION_TEXT[b.r] ?? b.r })).join(', '), acc }));
    } else if (heads.length === 1) {
      out.push(text('training.one_head_has_one', { acc }));
    } else {
      out.push(text('training.no_head_has_specialised', { acc }));
    }
  } else if (best[0].weight >= 0.8) {
    out.push(text('training.head_has_learnt_read', { value: best[0].head + 1, part: RELATION_TEXT[best[0].r] ?? best[0].r, acc }));
  } else {
    out.push(text('training.no_head_reads_with', { part: RELATION_TEXT[best[0].r] ?? best[0].r, acc }));
  }
  return out;
}

/** The lab's settings form sends a field's edit to the playground's state (viewNow(): the view drawn last). */
function sendEdits(form, viewNow, actions) {
  const onEdit = (e) => {
    const el = e.target;
    if (!FIELDS.includes(el.name) || viewNow()?.state[el.name] === el.value) return;
    actions.edit({ [el.name]: el.value }, el.name);
  };
  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  form.addEventListener('submit', (e) => e.preventDefault());
}

export function create(body, { dom, host, actions }) {
  const { h, fill } = dom;
  let view = null;
  const preview = createPreview(dom, actions);
  const { form, inputs, more } = buildSettingsForm(dom, body, preview.el);
  sendEdits(form, () => view, actions);

  const play = h('button', { type: 'button', id: 'train-play' }, text('training.train'));
  const stepButton = h('button', { type: 'button', class: 'secondary', id: 'train-step' }, text('training.step'));
  const reset = h('button', { type: 'button', class: 'secondary', id: 'train-reset' }, text('training.reset'));
  const another = h('button', { type: 'button', class: 'secondary', id: 'train-sample' }, text('training.another_sample'));
  const use = h('button', { type: 'button', class: 'secondary', id: 'train-use' }, text('training.use_playground'));
  const status = h('p', { class: 'readout', id: 'train-status', 'aria-live': 'polite', dataset: { busy: '0' } }, text('training.waiting_engine'));
  const story = h('div', { id: 'train-story', class: 'note' });
  const curves = h('div', { class: 'chart', id: 'train-curves' });
  const maps = h('div', { class: 'heat-grid', id: 'train-maps' });
  const sampleLine = h('p', { class: 'note', id: 'train-sample-line' });
  const mapsCover = h('p', { class: 'note', id: 'train-maps-cover', hidden: true }, text('training.maps_after_you_answer'));
  let mapsFigure = null; // the maps' save buttons, hidden with them
  const about = stepFold(dom, body, { name: 'train-about', summary: text('training.about_lab') }, // folded in a lesson's step
    h('p', { class: 'lead' }, text('training.embedding_plus_sinusoidal_position'), text('training.what_learns_shows_maps', { TRAIN_BATCH, TRAIN_VOCAB })));
  // The sample's line before the curves: in a step's two columns it ends the settings' column (style.css).
  fill(body,
    about.element,
    form,
    h('div', { class: 'button-row' }, play, stepButton, reset, another, use),
    status, sampleLine, curves,
    chartButtons({ dom, host, id: 'train-figure', title: () => text('training.training_loss_accuracy_step', { steps: lab.steps }), plot: () => plot }),
    story, mapsCover, maps,
    mapsFigure = figureButtons({ dom, host, id: 'train-maps-figure', make: (theme) => mapsSvg(lab.reply, run.sample, lab.steps, theme) }));

  // ---- the lab's run: the panel owns time (playing, one request at a time); the worker owns the model ----
  const settingsNow = () => (view ? parseTraining(view.state).settings : null);
  const run = createLabRun({ host, actions, settingsNow, draw: () => draw(), showBusy: (busy) => { status.dataset.busy = busy ? '1' : '0'; } }); // Pause is over at '0'
  const { lab } = run;
  let plot = null, plotLoading = null;
  const shownMaps = { maps, sampleLine, heatmaps: [] };
  // The chart follows its box's width (a resize, a rotated phone, a host page's column).
  const fitChart = () => plot?.setSize({ width: chartWidth(curves), height: layout.chartHeight() });
  const layout = stepLayout(body, fitChart); // a step's part of the lab, and the curves' height there
  const stopFollowing = followWidth(curves, fitChart);

  play.addEventListener('click', () => {
    run.playing = !run.playing;
    lab.note = null;
    draw();
    if (run.playing) run.loop();
  });
  stepButton.addEventListener('click', () => { run.playing = false; run.request(1); });
  reset.addEventListener('click', () => {
    run.playing = false;
    run.clearHistory();
    run.request(0, { reset: true });
  });
  another.addEventListener('click', () => { run.sample += 1; if (!run.playing) run.request(0); });
  use.addEventListener('click', () => {
    const s = settingsNow();
    if (!s || !lab.reply) return;
    run.playing = false;
    // The layer and input become the lab's: sizes that match, self-attention, the sample shown here.
    actions.load({ weights: 'trained', train_steps: String(lab.steps), source: 'task', input_seed: String(run.sample),
      d_model: String(s.d_model), n_heads: String(s.n_heads), d_k: '', d_v: '', bias: '1', attention: 'self',
      mask: 'none', dropout: '0', scale: '1', item: '0', head: '' }, 'training');
    host.scrollToResults();
  });

  // ---- drawing ----
  async function drawCurves() {
    if (!plot) {
      plotLoading ??= Promise.all([host.importVendor('vendor/uplot/uPlot.esm.js'), host.loadStyle('vendor/uplot/uPlot.min.css')]);
      const [{ default: uPlot }] = await plotLoading;
      if (plot || run.destroyed) return;
      plot = new uPlot(curvesOptions(host, chartWidth(curves), layout.chartHeight()), [[], [], [], []], curves);
    }
    // The held-out points sit at their steps on the same x axis (null elsewhere).
    const held = new Map(lab.evals.step.map((s, i) => [s, lab.evals.accuracy[i]]));
    const xs = lab.history.step.length ? lab.history.step : lab.evals.step;
    plot.setData([xs, lab.history.step.length ? lab.history.loss.map((v) => Math.max(v, 1e-6)) : xs.map(() => null),
      lab.history.step.length ? lab.history.accuracy : xs.map(() => null), xs.map((s) => held.get(s) ?? null)]);
  }

  function draw() {
    if (!view || run.destroyed) return;
    const r = lab.reply;
    play.textContent = run.playing ? text('training.pause') : lab.steps ? text('training.resume') : text('training.train');
    play.setAttribute('aria-pressed', run.playing ? 'true' : 'false');
    const enabled = !!settingsNow() && !!view.engine;
    for (const b of [play, stepButton, reset, another]) b.disabled = !enabled;
    preview.el.hidden = lab.steps > 0; // once trained, the curves show what the rate did
    use.disabled = !enabled || !r || view.readOnly;
    if (lab.error) {
      status.textContent = text('training.stopped', { error: lab.error });
    } else if (r) {
      const e = r.evaluation;
      // The loss answers the exercise on the untrained model's loss: covered until that one is done.
      const loss = stillAsked(view, START_LOSS) ? text('training.loss_after_you_answer') : fmt.num(r.report.loss.at(-1) ?? e.loss, 4);
      status.textContent = text('training.step_loss', { steps: fmt.int(r.steps), loss }) +
        text('training.held_out_accuracy_samples', { accuracy: fmt.percent(e.accuracy), samples: fmt.int(e.samples) }) +
        (lab.note ? ` · ${lab.note}` : '') + (lab.restarted ? text('training.compute_worker_restarted_training') : '');
      status.dataset.steps = String(r.steps);
      status.dataset.accuracy = String(e.accuracy);
      status.dataset.focus = JSON.stringify(e.focus);
      // A trained model's maps and the words about them answer the sketch of a trained row: covered until it is done.
      const covered = r.steps > 0 && stillAsked(view, SKETCH);
      for (const el of [story, sampleLine, maps, mapsFigure]) el.hidden = covered;
      mapsCover.hidden = !covered;
      fill(story, focusStory(e, r.shape.relations).map((t) => h('p', {}, t)));
      drawMaps(dom, host, shownMaps, r, run.sample);
      drawCurves().catch((err) => { curves.textContent = text('training.curves_could_not_drawn', { message: err.message }); });
    }
  }

  function update(v) {
    view = v;
    about.sync(); more.sync(); // the folds: closed in a lesson's step, open elsewhere
    layout.part(v.state);
    if (plot && plot.height !== layout.chartHeight()) fitChart();
    showFields({ form, inputs }, v.state, v.readOnly);
    const settings = settingsNow();
    const key = settings ? trainingKey(settings) : null;
    if (v.engine) preview.ask(settings);
    if (key !== lab.key) {
      // New settings: a new model, shown untrained (step 0) until Train is pressed.
      run.playing = false;
      lab.key = key;
      lab.note = null;
      lab.error = null;
      lab.restarted = false;
      run.msPerStep = 0;
      run.clearHistory();
      plot?.setData([[], [], [], []]);
      if (settings && v.engine) run.request(0, { reset: true });
      else if (!settings) status.textContent = text('training.fix_highlighted_settings_train');
    } else if (key && v.engine && !lab.reply && !run.busy && !lab.error) {
      run.request(0, { reset: true }); // the engine just arrived
    }
    draw();
  }

  return {
    update,
    destroy() {
      run.destroyed = true;
      for (const part of [about, more, layout]) part.destroy();
      stopFollowing();
      run.playing = false;
      plot?.destroy();
    },
  };
}

/** Every head's map of sample `sample` of reply `r` (the lab's after `steps` steps) as one saved figure, or null before a reply. */
function mapsSvg(r, sample, steps, theme) {
  const T = r?.config.seq_len;
  if (!r) return null;
  const cell = Math.max(4, Math.min(24, Math.floor(220 / T)));
  const tiles = Array.from({ length: r.dims.n_heads }, (_, k) => heatmapSvg({ title: text('training.head_n', { n: k + 1 }), data: r.sample.attention.slice(k * T * T, (k + 1) * T * T),
    rows: T, cols: T, rowLabels: r.sample.labels, colLabels: r.sample.labels, scale: 'linear', max: 1, theme, cell }));
  return figureGrid({ title: text('training.training_lab_every_head', { sample, steps }), tiles, theme });
}

/**
 * The lab's settings form: the task menu and a field per setting, each with its message line; the
 * sample's length, the rate (with `previewLine`, what it does) and the seed fold in a lesson's step (`more`).
 */
function buildSettingsForm(dom, body, previewLine) {
  const { h } = dom;
  const msg = (key) => h('p', { class: 'msg', id: `m-${key}`, 'aria-live': 'polite' });
  const taskSelect = h('select', { id: 'f-train_task', name: 'train_task' }, TRAIN_TASKS.map((t) => h('option', { value: t }, TASK_TEXT[t])));
  const inputs = new Map([['train_task', taskSelect]]);
  const fieldBoxes = [h('div', { class: 'field', dataset: { field: 'train_task' } }, h('label', { for: 'f-train_task' }, text('training.task')), taskSelect, msg('train_task'))];
  for (const [key, name] of SETTINGS) {
    const what = SETTING_WORDS[name];
    const input = h('input', { id: `f-${key}`, name: key, type: 'text', inputmode: key === 'train_lr' ? 'decimal' : 'numeric', spellcheck: 'false' });
    inputs.set(key, input);
    fieldBoxes.push(h('div', { class: 'field', dataset: { field: key } },
      h('label', { for: `f-${key}` }, h('code', {}, name), ' ', h('span', { class: 'what' }, what)), input, msg(key)));
  }
  const more = stepFold(dom, body, { name: 'train-more', summary: text('training.more_settings') }, h('div', { class: 'grid2' }, fieldBoxes.slice(3)), previewLine);
  const form = h('form', { id: 'train-form', novalidate: true, autocomplete: 'off' }, h('div', { class: 'grid2' }, fieldBoxes.slice(0, 3)), more.element);
  return { form, inputs, more };
}

/** The loss and accuracy chart's uPlot options, in the theme's colours. */
function curvesOptions(host, width, height) {
  const muted = host.cssVar('--muted'), accent = host.cssVar('--accent'), warn = host.cssVar('--warn'), ok = host.cssVar('--ok'), grid = host.cssVar('--grid');
  const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  return {
    width, height,
    scales: { x: { time: false }, loss: { distr: 3 }, acc: { range: [0, 1] } },
    axes: [
      { ...axis, label: text('training.step_axis'), labelSize: 18 },
      { ...axis, scale: 'loss', label: text('training.loss_nats_log'), labelSize: 18, size: 56 },
      { ...axis, scale: 'acc', side: 1, label: text('training.accuracy'), labelSize: 18, size: 58, grid: { show: false },
        values: (u, v) => v.map((x) => `${Math.round(x * 100)} %`) },
    ],
    series: [
      { label: text('training.step_axis') },
      { label: text('training.loss'), scale: 'loss', stroke: warn, width: 1.5, points: { show: false }, value: (u, v) => (v == null ? '' : fmt.num(v, 4)) },
      { label: text('training.accuracy_batch'), scale: 'acc', stroke: accent, width: 1, points: { show: false }, value: (u, v) => (v == null ? '' : fmt.percent(v)) },
      { label: text('training.held_out_accuracy'), scale: 'acc', stroke: ok, width: 2, value: (u, v) => (v == null ? '' : fmt.percent(v)) },
    ],
    legend: { live: false },
  };
}

/** Per output slot of the shown sample: what was wanted and what the model predicted, token by token. */
function predictionsText(reply, T) {
  const S = reply.shape.n_slots;
  return reply.shape.slots.map((slot, s) => {
    const wanted = [], got = [];
    for (let t = 0; t < T; t++) {
      const target = reply.sample.targets[t * S + s], predicted = reply.sample.predictions[t * S + s];
      wanted.push(target < 0 ? '·' : String(target));
      got.push(predicted < 0 ? '·' : predicted === target ? String(predicted) : `${predicted}✗`);
    }
    return text('training.wanted_predicted', { slot, wanted: wanted.join(' '), predicted: got.join(' ') });
  });
}

/** The settings' values (the field being typed in keeps its text) and their messages. */
function showFields({ form, inputs }, state, readOnly) {
  const { errors } = parseTraining(state);
  for (const key of FIELDS) {
    const input = inputs.get(key);
    // The field being typed in keeps its text (and cursor); any other change is written.
    if (input.getRootNode().activeElement !== input && input.value !== state[key]) input.value = state[key];
    input.placeholder = key === 'train_lr' ? text('training.task_s_default') : '';
    const box = form.querySelector(`[data-field="${key}"]`);
    const message = errors[key] ?? '';
    box.querySelector('.msg').textContent = message;
    box.classList.toggle('invalid', !!message);
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
    input.readOnly = readOnly;
  }
}

/** Every head's map of the shown sample (canvases made again when the head count or length changes), and the sample's line. */
function drawMaps({ h, fill }, host, shown, reply, sample) {
  const { maps, sampleLine } = shown;
  const { n_heads } = reply.dims, T = reply.config.seq_len;
  const labels = reply.sample.labels;
  if (shown.heatmaps.length !== n_heads || shown.heatmaps[0]?.T !== T) {
    shown.heatmaps = [];
    fill(maps, Array.from({ length: n_heads }, (_, k) => {
      const canvas = h('canvas', { 'aria-label': text('training.head_attention_weights_sample', { value: k + 1 }) });
      const caption = h('figcaption', {}, text('training.head_n', { n: k + 1 }));
      shown.heatmaps.push({ map: new Heatmap(canvas, { labels: true, maxHeight: 260 }), caption, T, canvas });
      return h('figure', { class: 'train-map', dataset: { head: String(k) } }, caption, canvas);
    }));
    maps.style.setProperty('--cols', String(n_heads <= 4 ? 2 : n_heads <= 9 ? 3 : 4));
  }
  const fg = host.cssVar('--fg');
  shown.heatmaps.forEach(({ map, canvas }, k) => {
    const data = reply.sample.attention.slice(k * T * T, (k + 1) * T * T);
    map.setData({ rows: T, cols: T, data, masked: null, min: 0, max: 1, rowLabels: labels, colLabels: labels, colors: { text: fg } });
    let sum = 0;
    for (const v of data) sum += v;
    canvas.dataset.sum = String(sum);
  });
  maps.dataset.attention = JSON.stringify(Array.from(reply.sample.attention));
  const slotText = predictionsText(reply, T);
  // The sentence on the maps' axes apart: a step without the maps (the first) shows the sample's line without it.
  fill(sampleLine, text('training.sample_wanted_predicted', { sample, value: labels.join(' '), value2: slotText.join('; ') }), ' ',
    h('span', { class: 'train-maps-key' }, text('training.rows_queries_columns_keys')));
}
