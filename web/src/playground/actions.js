// What a panel may do to its playground (its ctx.actions): the shared actions (edit, load, run, cancel,
// importTensors), its own feature's compute requests as actions (asks.js), and what its feature's service
// adds (feature_services.js). A panel never touches the playground's state: it asks through these.

import { actionsFor } from './asks.js';

/** m: the model (store.js); p: the playground's parts (store, runs, redraw, connection, features, importTensors). */
export function createActions(m, p) {
  const { store } = p;
  const actions = Object.freeze({
    /**
     * A learner's edit of one or more fields (ignored in a read-only playground, except view fields;
     * a field the author locked never changes this way). True when it changed the view.
     */
    edit: (changes, field) => {
      if (!store.editable(changes)) return false;
      const allowed = store.unlocked(changes);
      if (Object.keys(allowed).length) return store.apply(allowed, { edited: field, kind: 'edit' });
      p.redraw.render('state'); // a locked field: the form shows the state's value again
      return false;
    },
    /** A preset: many fields at once, one step of history (a locked field keeps its value). */
    load: (changes, preset) => {
      if (store.readOnly()) return;
      m.lastEdited = null;
      store.apply(store.unlocked(store.withoutStaleHeads(changes)), { kind: 'load', preset });
    },
    run: () => p.runs.run().catch(() => {}),
    cancel: () => p.runs.cancel(),
    /** Tensors a panel read from files (the export panel's drop zone): see imports.js. */
    importTensors: (given) => p.importTensors(given),
  });

  // A request whose declaration has movesTrainedModel(payload) true (the lab stepping on or starting
  // again) takes from the worker the trained model it may have handed to this playground
  // (model/training_side.js copies the lab's weights, not its trainer): a sample it has not drawn yet
  // (another input_seed) is then trained again from the seed, so the estimate must count that
  // training again rather than take the model as held.
  function heldModelMoves(asks, requests) {
    const wrapped = { ...asks };
    for (const [request, spec] of Object.entries(requests ?? {})) {
      if (typeof spec.movesTrainedModel !== 'function') continue;
      wrapped[request] = (payload = {}, ...rest) => {
        if (m.trainedHeld !== null && spec.movesTrainedModel(payload)) {
          m.trainedHeld = null;
          store.revalidate();
          p.redraw.render('state');
        }
        return asks[request](payload, ...rest);
      };
    }
    return wrapped;
  }

  /** A panel's ctx: the shared actions, its feature service's actions, and its own feature's requests as actions. */
  function ctxFor(name, module) {
    const asks = heldModelMoves(actionsFor(name, module.requests, p.connection.askHost), module.requests);
    return { dom: p.shell.dom, host: p.shell.host, actions: Object.freeze({ ...actions, ...p.features.actionsOf(name), ...asks }) };
  }

  return { actions, ctxFor };
}
