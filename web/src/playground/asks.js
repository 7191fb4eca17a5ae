// A feature's actions, derived from its declaration of what it asks the compute for (its requests.js):
// each request `name` becomes actions.name(payload, onProgress) → a promise of the reply. Every action
// checks first that the playground can ask at all (not removed, an engine connected), so a panel that
// asks too late, or a playground whose asset folder is missing, gets a message rather than a TypeError.
//
// A request's declaration: { passes } — it costs about that many forward passes of payload.config (a
// number, or a function of the config): its deadline comes from that config's last run or estimate;
// or { deadlineMs } — a fixed deadline (default DEFAULT_DEADLINE_MS).

export const DEFAULT_DEADLINE_MS = 60000;

/**
 * actionsFor(feature, requests, host) → { [request]: (payload, onProgress) → Promise }.
 * host: { unavailable() → message or null (why no request can be sent now), session() → the compute
 * session (ask(feature, request, payload, { onProgress, deadlineMs })), passDeadline(config, passes) → ms }.
 */
export function actionsFor(feature, requests, host) {
  const actions = {};
  for (const [request, spec] of Object.entries(requests ?? {})) {
    actions[request] = (payload = {}, onProgress) => {
      const why = host.unavailable();
      if (why) return Promise.reject(new Error(`${feature}: ${request} cannot be asked: ${why}`));
      let deadlineMs = spec.deadlineMs ?? DEFAULT_DEADLINE_MS;
      if (spec.passes !== undefined) {
        if (!payload.config) return Promise.reject(new Error(`${feature}: ${request} needs the config it is about ({ config, … })`));
        deadlineMs = host.passDeadline(payload.config, typeof spec.passes === 'function' ? spec.passes(payload.config) : spec.passes);
      }
      return host.session().ask(feature, request, payload, { onProgress, deadlineMs });
    };
  }
  return Object.freeze(actions);
}

/** Why a playground cannot ask the compute now, or null: { destroyed, assetsError, connected }. */
export function unavailable({ destroyed, assetsError, connected }) {
  if (destroyed) return 'this playground was removed';
  if (assetsError) return assetsError;
  if (!connected) return 'the engine is not connected';
  return null;
}
