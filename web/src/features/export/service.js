// What the export adds to a playground besides its panel (its service, see playground/feature_services.js):
// the run bar's Export button (the run's tensors, view.json and reproduce.py as a zip), the members
// exportTensors() and exportBundle() of the playground and of <attention-playground>, the reading and
// holding of imported tensors (importTensors(), the notebook's `tensors` trait). First-view code:
// the export's own code (fflate included) comes with its panel's module (panels.js) when first used.

import { text } from '../../lesson/panels/export_service.js';

const refuse = () => Promise.reject(new Error('<attention-playground> exports once it is in a document'));

/** The members it adds (create()'s `api`); `element`: <attention-playground> offers them too, refused out of a document. */
export const api = Object.freeze({
  exportTensors: { element: { detached: refuse } },
  exportBundle: { element: { detached: refuse } },
});

/**
 * Notebook traits the widget hands to this feature at once and on each change
 * (element/anywidget.js): key → { take({ value, read, playground }) → true once imported, nothing when
 * there is nothing to take; refused(err) → the line shown under the view }.
 */
export const widgetInputs = Object.freeze({
  // `tensors` (traitlets.Bytes): an .npz (np.savez of attention, or of query, key, value, wq, …), with
  // optional `tokens` (a list of strings: the labels of both axes).
  tensors: Object.freeze({
    async take({ value: bytes, read, playground }) {
      if (!bytes?.byteLength) return undefined;
      const { module } = await playground.feature('export');
      const u8 = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
      const { tensors } = module.readImportFile('tensors.npz', u8);
      const tokens = read('tokens');
      const labels = Array.isArray(tokens) && tokens.length ? { labels_q: tokens, labels_k: tokens } : {};
      await playground.importTensors({ ...tensors, ...labels });
      return true;
    },
    refused: (err) => text('export.notebook_tensors_not_imported', { message: err.message }),
  }),
});

/** ctx (playground/feature_services.js): { feature() → its module, actions and the view, untilEngine(), destroyed(), doc, emit }. */
export function create(ctx) {
  // After the engine is ready (as run() waits); it fails if the engine cannot start or the playground is
  // removed. Before it, the view has no d_k, d_v or tensor shapes yet, and a host that exported as soon as the
  // element existed (EMBED.md's snippet) got "d_k must be a number, got null".
  const withModule = (fn) => ctx.untilEngine().then(ctx.feature).then(({ module, actions, view }) => fn(module, { actions, view }));
  /** An export; if the playground is removed before it finishes, the error says so (whatever step it stopped at). */
  const exporting = (what, fn) => withModule(fn).catch((err) => {
    if (ctx.destroyed()) {
      throw new Error(`${what}() did not finish: this <attention-playground> was removed from the page before the export was ready; put it back (or export before removing it)`);
    }
    throw err;
  });
  return {
    api: {
      /** Every tensor of the current run, { name: { shape, data: Float32Array } }, from the engine. */
      exportTensors: () => exporting('exportTensors', (module, own) => module.exportTensors(own)),
      /** A Promise of a Blob: a zip of the run's tensors (.npy), view.json and reproduce.py (PyTorch). */
      exportBundle: () => exporting('exportBundle', (module, own) => module.exportBundle(own)),
    },
    /** Tensors brought into the view (playground/imports.js): checked against it and handed to the compute. */
    imports: { hold: (given, config) => withModule((module, own) => module.holdImport(own.actions, given, config)) },
    /** The run bar's Export button. */
    runbar: ({ h }) => [h('button', { type: 'button', class: 'export', id: 'export', title: text('export.save_run_tensors_zip'),
      onclick: () => withModule((module, own) => module.saveBundle(own, ctx.doc))
        .catch((err) => ctx.emit('error', { message: text('export.export_failed', { message: err.message }), field: err.field ?? null })) }, text('export.export'))],
  };
}
