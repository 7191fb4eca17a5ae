// Tensors brought into a playground's view ({ query, key, value, wq, …, bo } or { attention }, see
// import/tensors.js): refused when the author locked what they would replace, checked against the view
// by the feature whose service holds imports (the export's), handed to the compute, and the view runs
// with them (its link then says imported=…) until `imported` is set to none. The lock's check and the
// view's check with imports (import/) come from panels.js, as the importer's own code does.

import { lockedKeys } from '../lesson/chapters.js';

/** m: the model (store.js); p: the playground's parts (features, store, redraw, runs). Returns importTensors(given) → the run's result. */
export function createImports(m, p) {
  return async function importTensors(given) {
    const locked = lockedKeys(m.state);
    const { refuseLockedImport, withImports } = await p.shell.host.importVendor('panels.js');
    refuseLockedImport(given, locked); // the drop zone and importTensors() both come here (import/import_lock.js)
    const importer = p.features.importer(); // the feature that reads and holds tensors (the export's service)
    if (!importer) throw new Error('this playground has no feature that imports tensors');
    // The view is read once the engine is ready (before it, it has no d_k or shapes); if the engine cannot
    // start or the playground is removed, this fails saying so instead of waiting for good.
    await p.connection.untilEngine();
    const held = await importer.hold(given, m.plainConfig);
    m.imported = { ...held, fit: withImports };
    if (!p.store.apply({ imported: held.kind }, { kind: 'edit', edited: 'imported' })) { // an edit: the page's link says so
      p.store.revalidate();
      p.redraw.render('state');
    }
    return p.runs.run();
  };
}
