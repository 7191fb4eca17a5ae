// The "Export and import" panel: the current run's tensors, view.json and reproduce.py as a zip (the
// same bundle as the run bar's Export and the element's exportBundle()). The module also carries the
// export's API for the hosts (playground.feature('export')), so its code, fflate included, is
// downloaded only with the lazy panels, never with the first view.

import { exportTensors, exportBundle, download, bundleName } from '../../export/host.js';

export { requests } from './requests.js';
export { exportTensors, exportBundle };

/** The run bar's Export: the bundle of the view, saved as a file. */
export async function saveBundle(ctx, doc) {
  const blob = await exportBundle(ctx);
  download(doc, blob, bundleName(ctx.view));
  return blob;
}

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  let view = null;
  const status = h('p', { class: 'note', id: 'export-status', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', id: 'export-bundle', onclick: () => save() }, 'Export tensors and reproduce.py (.zip)');
  fill(body,
    h('p', { class: 'lead' }, 'Take the numbers out: every tensor of this run as a NumPy .npy file (inputs, Q, K, V, the ',
      'layer’s parameters, the attention weights, the head outputs and the output), view.json (this view) and reproduce.py, ',
      'a PyTorch script that recomputes the output and the weights from them and checks they agree.'),
    h('p', {}, button), status);

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

  return {
    update(v) {
      view = v;
      button.disabled = !v.check?.config || !!v.check.blocked;
    },
  };
}
