// What the export adds to a playground besides its panel (its service, see playground/feature_services.js):
// the run bar's Export button (the run's tensors, view.json and reproduce.py as a zip) and the members
// exportTensors() and exportBundle() of the playground and of <attention-playground>. First-view code:
// the export's own code (fflate included) comes with its panel's module (panels.js) when first used.

const refuse = () => Promise.reject(new Error('<attention-playground> exports once it is in a document'));

/** The members it adds (create()'s `api`); `element`: <attention-playground> offers them too, refused out of a document. */
export const api = Object.freeze({
  exportTensors: { element: { detached: refuse } },
  exportBundle: { element: { detached: refuse } },
});

/** ctx (playground/feature_services.js): { feature() → its module, actions and the view, doc, emit }. */
export function create(ctx) {
  const withModule = (fn) => ctx.feature().then(({ module, actions, view }) => fn(module, { actions, view }));
  return {
    api: {
      /** Every tensor of the current run, { name: { shape, data: Float32Array } }, from the engine. */
      exportTensors: () => withModule((module, own) => module.exportTensors(own)),
      /** A Promise of a Blob: a zip of the run's tensors (.npy), view.json and reproduce.py (PyTorch). */
      exportBundle: () => withModule((module, own) => module.exportBundle(own)),
    },
    /** The run bar's Export button. */
    runbar: ({ h }) => [h('button', { type: 'button', class: 'export', id: 'export', title: 'Save this run’s tensors (.npy), view.json and reproduce.py as a zip',
      onclick: () => withModule((module, own) => module.saveBundle(own, ctx.doc))
        .catch((err) => ctx.emit('error', { message: `Export failed: ${err.message}`, field: err.field ?? null })) }, 'Export')],
  };
}
