// Tensors brought into a playground's view ({ query, key, value, wq, …, bo } or { attention }, see
// import/tensors.js): checked against the view by the export feature, handed to the compute, and the view
// runs with them (its link then says imported=…) until `imported` is set to none.

/** m: the model (store.js); p: the playground's parts (panels, store, redraw, runs). Returns importTensors(given) → the run's result. */
export function createImports(m, p) {
  return async function importTensors(given) {
    const { module, actions } = await p.panels.feature('export');
    const held = await module.holdImport(actions, given, m.plainConfig);
    m.imported = held;
    if (!p.store.apply({ imported: held.kind }, { kind: 'edit', edited: 'imported' })) { // an edit: the page's link says so
      p.store.revalidate();
      p.redraw.render('state');
    }
    return p.runs.run();
  };
}
