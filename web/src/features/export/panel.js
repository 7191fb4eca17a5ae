// The "Export and import" panel: the current run's tensors, view.json and reproduce.py as a zip (the
// same bundle as the run bar's Export and the element's exportBundle()), and a file picker and drop
// zone that bring tensors in (.npy, .npz, .json, .csv: import/files.js reads them, import/tensors.js
// checks them against the view). The module also carries the export's and the import's API for the
// hosts (playground.feature('export')), so its code, fflate included, is downloaded only with the lazy
// panels, never with the first view.

import { exportTensors, exportBundle, download, bundleName } from '../../export/host.js';
import { checkImport } from '../../import/tensors.js';
import { readImportFiles } from '../../import/files.js';

export { requests } from './requests.js';
export { exportTensors, exportBundle };

let imports = 0;

/** The run bar's Export: the bundle of the view, saved as a file. */
export async function saveBundle(ctx, doc) {
  const blob = await exportBundle(ctx);
  download(doc, blob, bundleName(ctx.view));
  return blob;
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

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  let view = null;
  const status = h('p', { class: 'note', id: 'export-status', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', id: 'export-bundle', onclick: () => save() }, 'Export tensors and reproduce.py (.zip)');
  const picker = h('input', { type: 'file', id: 'import-files', multiple: true, accept: '.npy,.npz,.json,.csv,.zip', onchange: () => bring(picker.files) });
  const importStatus = h('p', { class: 'note', id: 'import-status', 'aria-live': 'polite' });
  const drop = h('div', { class: 'drop-zone', id: 'import-drop', tabindex: '0', role: 'group', 'aria-label': 'drop tensor files here' },
    h('p', {}, 'Drop .npy, .npz, .json or .csv files here, or ', h('label', { for: 'import-files' }, 'pick them: '), picker),
    h('p', { class: 'note' }, 'Name a .npy or .csv after its tensor (query.npy, wq.npy, attention.csv…). Inputs and parameters ',
      'run through the layer; attention maps alone (n_heads × n_q × n_k, or batch × n_heads × n_q × n_k) are drawn as they are.'));
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.dataset.over = '1'; });
  drop.addEventListener('dragleave', () => { drop.dataset.over = '0'; });
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.dataset.over = '0';
    bring(e.dataTransfer?.files);
  });
  fill(body,
    h('p', { class: 'lead' }, 'Take the numbers out: every tensor of this run as a NumPy .npy file (inputs, Q, K, V, the ',
      'layer’s parameters, the attention weights, the head outputs and the output), view.json (this view) and reproduce.py, ',
      'a PyTorch script that recomputes the output and the weights from them and checks they agree.'),
    h('p', {}, button), status,
    h('p', { class: 'lead' }, 'Bring your own: your Q, K, V inputs, parameters or attention maps, checked against this view’s sizes.'),
    drop, importStatus);

  async function save() {
    if (!view) return;
    button.disabled = true;
    fill(status, 'Exporting…');
    try {
      const blob = await saveBundle({ actions, view }, body.ownerDocument);
      fill(status, `Saved ${bundleName(view)} (${blob.size.toLocaleString('en-US')} bytes).`);
    } catch (err) {
      fill(status, `Export failed: ${err.message}`);
    } finally {
      button.disabled = false;
    }
  }

  /** Reads the files and imports them into this playground (actions.importTensors); says what happened. */
  async function bring(fileList) {
    const files = [...(fileList ?? [])];
    if (!files.length) return;
    importStatus.dataset.kind = '';
    fill(importStatus, `Reading ${files.map((f) => f.name).join(', ')}…`);
    try {
      const read = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      const { given, skipped } = readImportFiles(read);
      await actions.importTensors(given);
      const names = Object.keys(given).filter((k) => !k.startsWith('labels_'));
      fill(importStatus, `Imported ${names.join(', ')}: the view now runs with ${names.includes('attention') ? 'these attention maps' : 'them'}.` +
        `${skipped.length ? ` Not used: ${skipped.join(', ')}.` : ''} Set imported to none (or change the sizes) to go back.`);
    } catch (err) {
      importStatus.dataset.kind = 'error';
      fill(importStatus, `Not imported: ${err.message}`);
    } finally {
      picker.value = '';
    }
  }

  return {
    update(v) {
      view = v;
      button.disabled = !v.check?.config || !!v.check.blocked;
    },
  };
}
