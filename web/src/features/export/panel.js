// The "Export and import" panel: the current run's tensors, view.json and reproduce.py as a zip (the
// same bundle as the run bar's Export and the element's exportBundle()), and a file picker and drop
// zone that bring tensors in (.npy, .npz, .json, .csv: import/files.js reads them, import/tensors.js
// checks them against the view). The module also carries the export's and the import's API for the
// hosts (playground.feature('export')), so its code, fflate included, is downloaded only with the lazy
// panels, never with the first view.

import { exportTensors, exportBundle, download, bundleName } from '../../export/host.js';
import { checkImport } from '../../import/tensors.js';
import { checkFileSize, importLimits } from '../../import/files.js';
import { heatmapSvg, figureGrid, svgToPng, tableCsv, THEMES } from '../../export/figure.js';
import { figureButtons } from '../../export/figure_button.js';
import { text } from '../../lesson/panels/export.js';

export { requests } from './requests.js';
export { exportTensors, exportBundle };
export { readImportFile } from '../../import/files.js'; // the notebook widget's `tensors` bytes

let imports = 0;

/** The run bar's Export: the bundle of the view, saved as a file. */
export async function saveBundle(ctx, doc) {
  const blob = await exportBundle(ctx);
  download(doc, blob, bundleName(ctx.view));
  return blob;
}

/**
 * The enlarged map of the view (the heatmaps' head and batch item) as a figure: heatmapSvg's result, or
 * null before a result. theme: THEMES entry; the page's shown theme when `shown` colours are given.
 */
export function mapFigure(view, theme, only = null, cell = null) {
  const item = view.result?.item, config = view.result?.config;
  if (!item || !config) return null;
  const size = item.rows * item.cols;
  const head = only ?? Math.min(view.check?.config?.head ?? 0, config.n_heads - 1);
  let max = 0;
  for (const v of item.data) if (v > max) max = v; // the heatmaps' scale: the largest weight of the item's maps
  const labels = (list, step, n) => (step !== 1 ? null : list ?? Array.from({ length: n }, (_, i) => String(i)));
  const imported = config.imported?.kind === 'attention' ? text('export.imported') : '';
  return heatmapSvg({
    title: text('export.attention_weights_head', { imported, value: head + 1, n_heads: config.n_heads, part: config.batch > 1 ? text('export.batch_item', { b: item.b }) : '' }),
    data: item.data.subarray(head * size, (head + 1) * size), rows: item.rows, cols: item.cols, masked: item.masked,
    rowLabels: labels(item.labels_q, item.rowStep, item.rows), colLabels: labels(item.labels_k, item.colStep, item.cols),
    scale: view.state.colors, max: max || 1, axes: config.cross ? [text('export.decoder_queries'), text('export.encoder_keys')] : [text('export.queries'), text('export.keys')], theme, cell,
  });
}

/**
 * Every head's map (the heatmaps' small maps) as one figure: each head laid out by mapFigure at a
 * smaller cell, in a grid of nested SVGs under one title. → { svg, width, height } or null.
 */
export function headsFigure(view, theme) {
  const item = view.result?.item, config = view.result?.config;
  if (!item || !config) return null;
  const n = config.n_heads; // the grid's tiles: as square as figureGrid lays any number of tiles
  const cell = Math.max(3, Math.min(18, Math.floor(220 / Math.max(item.rows, item.cols))));
  const tiles = Array.from({ length: n }, (_, k) => mapFigure(view, theme, k, cell));
  const imported = config.imported?.kind === 'attention' ? text('export.imported') : '';
  return figureGrid({ title: text('export.attention_weights_all_heads', { imported, n, part: config.batch > 1 ? text('export.batch_item', { b: item.b }) : '' }), tiles, theme });
}

/**
 * Checks `given` against `config` (the view without its imports) and hands the tensors to the compute:
 * → { id, kind, shapes } for the playground to name in its config (import/tensors.js withImports).
 */
export async function holdImport(actions, given, config) {
  if (!config) throw new Error('nothing to import into: the view must be valid and the engine loaded first');
  const held = checkImport(given, config);
  const id = `import-${Date.now().toString(36)}-${++imports}`;
  await actions.holdImports({ id, kind: held.kind, tensors: held.tensors, labels_q: held.labels_q, labels_k: held.labels_k });
  return { id, kind: held.kind, shapes: held.shapes };
}

/**
 * The tables of the panels shown in the playground that holds `body` (the export panel's own aside), each with
 * its name: its panel's heading, numbered within the panel when it has several.
 */
function tablesShown(body) {
  const root = body.getRootNode();
  const found = [...root.querySelectorAll('section:not([hidden]) table')].filter((t) => !body.contains(t));
  const sections = found.map((t) => t.closest('section'));
  const count = new Map(), seen = new Map(); // tables per panel, and per panel so far
  for (const s of sections) count.set(s, (count.get(s) ?? 0) + 1);
  return found.map((table, i) => {
    const title = sections[i]?.querySelector('h2, h3')?.textContent?.trim() || text('export.table_n', { n: i + 1 });
    seen.set(sections[i], (seen.get(sections[i]) ?? 0) + 1);
    return { table, title, label: text('export.copy_csv', { title, part: count.get(sections[i]) > 1 ? ` (${seen.get(sections[i])})` : '' }) };
  });
}

/**
 * The Copy buttons of the tables of the panels shown: { element, list() (after a settled view), destroy() }.
 * Tables come and go as the other panels are built and drawn, and a lazy panel's may arrive after the
 * last result: the list follows the playground's DOM, looked at no more than once a frame.
 */
function copyButtons({ dom, body, win, doc, settled }) {
  const { h, fill } = dom;
  const tables = h('div', { id: 'figure-tables' });
  let listed = null; // the names of the tables the buttons stand for
  // What a Copy did, beside the button pressed (a list of ~36 on the every-panel page: a line above it is off a phone's
  // screen); screen readers hear it from a live region that stays put (one inserted or moved as it changes is not read).
  const tableStatus = h('p', { class: 'note', id: 'table-status' });
  const announce = h('p', { class: 'sr-only', role: 'status' });
  let said = null; // { label, at } of the button the status speaks of: it stays beside it when the list is made again
  let listQueued = false;
  const watcher = win.MutationObserver && new win.MutationObserver(() => {
    if (listQueued || !settled()) return;
    listQueued = true;
    win.requestAnimationFrame(() => { listQueued = false; listTables(); });
  });
  watcher?.observe(body.getRootNode(), { childList: true, subtree: true });

  // One Copy button per table of the panels shown, kept (with focus) while the tables' names are: a redraw makes
  // new tables of the same names, so a button finds its table by name when pressed (~36 buttons were remade per redraw).
  function listTables() {
    const shown = tablesShown(body);
    const names = shown.map((t) => t.label).join('\n');
    if (names === listed) return;
    listed = names;
    fill(tables, shown.length ? h('ul', {}, shown.map(({ title, label }) =>
      h('li', {}, h('button', { type: 'button', class: 'copy-csv', onclick: (e) => {
        const at = [...tables.querySelectorAll('li')].indexOf(e.currentTarget.closest('li'));
        const now = tablesShown(body).find((t) => t.label === label); // by its name: the list may change before the next frame
        if (now) return copy(now.table, title, { label, at });
        listed = null; // gone (its panel hidden, renamed): the list is made again, and the learner told where the button was
        listTables();
        say({ label: null, at }, text('export.table_gone', { title }));
      } }, label)))) : h('p', { class: 'note' }, text('export.no_table_shown')));
    if (said) place();
  }

  /**
   * Puts the status line under the button it speaks of (by its name; a gone table's: the item at its place, else
   * the last); with no such button left, the line goes (it would speak of another table).
   */
  function place() {
    const items = [...tables.querySelectorAll('li')];
    const item = said.label !== null ? items.find((li) => li.firstChild?.textContent === said.label) : items[Math.min(said.at, items.length - 1)];
    if (item) item.append(tableStatus);
    else {
      tableStatus.remove();
      said = null;
    }
  }

  /** Says `words` beside the button `where` ({ label (null: its table is gone), at }). */
  function say(where, words) {
    said = where;
    fill(tableStatus, words);
    fill(announce, words);
    place();
  }

  async function copy(table, title, where) {
    const csv = tableCsv(table);
    try {
      await win.navigator.clipboard.writeText(csv);
      say(where, text('export.copied_csv_rows', { title, length: csv.trim().split('\n').length }));
    } catch {
      download(doc, new win.Blob([csv], { type: 'text/csv' }), 'table.csv'); // no clipboard (an insecure page): a file instead
      say(where, text('export.saved_table_csv_clipboard', { title }));
    }
  }

  return { element: h('div', {}, tables, announce), list: listTables, destroy: () => watcher?.disconnect() };
}

export function create(body, { dom, actions, host }) {
  const { h, fill } = dom;
  let view = null;
  const doc = body.ownerDocument, win = doc.defaultView;
  const light = h('input', { type: 'checkbox', id: 'figure-light' });
  const figureStatus = h('p', { class: 'note', id: 'figure-status', 'aria-live': 'polite' });
  const pngButton = h('button', { type: 'button', id: 'figure-png', onclick: () => figure('png') }, text('export.map_png_2'));
  const svgButton = h('button', { type: 'button', id: 'figure-svg', onclick: () => figure('svg') }, text('export.map_svg'));
  const tableList = copyButtons({ dom, body, win, doc, settled: () => !!view?.settled });
  const status = h('p', { class: 'note', id: 'export-status', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', id: 'export-bundle', onclick: () => save() }, text('export.export_tensors_reproduce_py'));
  // max-width: a file input's own width would push a 320 px page sideways
  const picker = h('input', { type: 'file', id: 'import-files', multiple: true, accept: '.npy,.npz,.json,.csv,.zip', style: { maxWidth: '100%' }, onchange: () => bring(picker.files) });
  const importStatus = h('p', { class: 'note', id: 'import-status', 'aria-live': 'polite' });
  const drop = h('div', { class: 'drop-zone', id: 'import-drop', tabindex: '0', role: 'group', 'aria-label': text('export.drop_tensor_files_here') },
    h('p', {}, text('export.drop_npy_npz_json'), h('label', { for: 'import-files' }, text('export.pick_them')), picker),
    h('p', { class: 'note' }, text('export.name_npy_or_csv'),
      text('export.run_through_layer_attention')));
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.dataset.over = '1'; });
  drop.addEventListener('dragleave', () => { drop.dataset.over = '0'; });
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.dataset.over = '0';
    bring(e.dataTransfer?.files);
  });
  fill(body,
    h('p', { class: 'lead' }, text('export.take_numbers_out_every'),
      text('export.layer_s_parameters_attention'),
      text('export.pytorch_script_that_recomputes')),
    h('p', {}, button), status,
    h('p', { class: 'lead' }, text('export.figures_enlarged_attention_map'),
      text('export.axes_token_labels_colour')),
    h('p', {}, pngButton, ' ', svgButton, ' ', h('label', {}, light, text('export.light_theme'))), figureStatus,
    h('p', { class: 'note' }, text('export.every_head_s_map')),
    figureButtons({ dom, host, id: 'attention-heads', make: (t) => (view ? headsFigure(view, t) : null) }),
    h('p', { class: 'note' }, text('export.tables_panels_shown_csv')), tableList.element,
    h('p', { class: 'lead' }, text('export.bring_your_own_your')),
    drop, importStatus);

  /** The theme shown (the page's colours), or the light one on request. */
  function theme() {
    if (light.checked) return THEMES.light;
    return { background: host.cssVar('--bg') || THEMES.light.background, text: host.cssVar('--fg') || THEMES.light.text, masked: host.cssVar('--masked') || THEMES.light.masked };
  }

  async function figure(kind) {
    const made = view && mapFigure(view, theme());
    if (!made) return;
    const name = `attention-map.${kind}`;
    try {
      const blob = kind === 'svg' ? new win.Blob([made.svg], { type: 'image/svg+xml' }) : await svgToPng(made.svg, made.width, made.height, win, 2);
      download(doc, blob, name);
      fill(figureStatus, text('export.saved_figure', { name, size: kind === 'png' ? `${made.width * 2} × ${made.height * 2} px` : `${made.width} × ${made.height}` }));
    } catch (err) {
      fill(figureStatus, text('export.figure_could_not_made', { message: err.message }));
    }
  }

  async function save() {
    if (!view) return;
    button.disabled = true;
    fill(status, text('export.exporting'));
    try {
      const blob = await saveBundle({ actions, view }, body.ownerDocument);
      fill(status, text('export.saved_bundle', { name: bundleName(view), bytes: blob.size.toLocaleString('en-US') }));
    } catch (err) {
      fill(status, text('export.export_failed', { message: err.message }));
    } finally {
      button.disabled = false;
    }
  }

  /**
   * Reads the files and imports them into this playground (actions.importTensors); says what happened.
   * Files too large are refused by their size before they are read; the rest are parsed in the compute
   * worker (actions.readImports), so the page's thread only copies their bytes there and back.
   */
  async function bring(fileList) {
    const files = [...(fileList ?? [])];
    if (!files.length) return;
    importStatus.dataset.kind = '';
    fill(importStatus, text('export.reading_files', { names: files.map((f) => f.name).join(', ') }));
    try {
      const config = view?.check?.config ?? null;
      const limits = importLimits(config);
      for (const f of files) checkFileSize(f.name, f.size, limits);
      const read = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      const { given, skipped } = await actions.readImports({ files: read, config });
      await actions.importTensors(given);
      const names = Object.keys(given).filter((k) => !k.startsWith('labels_'));
      fill(importStatus, text('export.imported_view_now_runs', { value: names.join(', '), part: names.includes('attention') ? text('export.these_attention_maps') : text('export.them') }) +
        text('export.set_imported_none_or', { part: skipped.length ? text('export.not_used', { names: skipped.join(', ') }) : '' }));
    } catch (err) {
      importStatus.dataset.kind = 'error';
      fill(importStatus, text('export.not_imported', { message: err.message }));
    } finally {
      picker.value = '';
    }
  }

  return {
    update(v) {
      view = v;
      button.disabled = !v.check?.config || !!v.check.blocked;
      pngButton.disabled = svgButton.disabled = !v.result?.item;
      if (v.settled) tableList.list();
    },
    destroy: () => tableList.destroy(),
  };
}
