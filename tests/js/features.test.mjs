// The feature folders (web/src/features/<name>/) and what is derived from the table of features:
// nothing outside a feature's folder names it or its requests (the playground's actions, the worker
// client's methods, the worker's dispatch and its whitelist, the lazy-load map and the panel registry
// were each a hand-written list once); each feature's requests, handler and panel agree; every derived
// action refuses with a message, not a TypeError, once its playground is removed or has no engine.
// Node only: no wasm and no browser (the worker's dispatch runs over a stand-in engine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { FEATURES } from '../../web/src/features/index.js';
import { loadPanel } from '../../web/src/features/lazy.js';
import { actionsFor, unavailable } from '../../web/src/playground/asks.js';
import { createHandlers, handle } from '../../web/src/worker/handlers.js';
import { loadHandlers } from '../../web/src/features/handlers_of.js';

const src = new URL('../../web/src/', import.meta.url);
const read = (path) => readFile(new URL(path, src), 'utf8');
const has = (folder, file) => existsSync(new URL(`features/${folder}/${file}`, src));

/** Every feature's panel module, requests and handlers (the first view's panel from the table). */
const features = await Promise.all(FEATURES.map(async (f) => ({
  ...f,
  module: f.lazy ? await loadPanel(f.name) : f.panel,
  requests: has(f.name, 'requests.js') ? (await import(new URL(`features/${f.name}/requests.js`, src))).requests : null,
  handlers: has(f.name, 'handler.js') ? (await import(new URL(`features/${f.name}/handler.js`, src))).handlers : null,
})));
const asking = features.filter((f) => f.requests);
const requestNames = asking.flatMap((f) => Object.keys(f.requests));

test('web/src/panels is gone, and the derived lists name no feature and no feature request', async () => {
  assert.ok(!existsSync(new URL('panels', src)), 'web/src/panels/ came back');
  assert.ok(asking.length >= 5 && requestNames.includes('sweep'), `the features that ask the compute were found: ${requestNames}`);
  const lazyNames = FEATURES.filter((f) => f.lazy).map((f) => f.name);
  // playground.js was one file once: its parts (the store, the run scheduler, the panel host, …) are held to it too.
  const playgroundParts = (await readdir(new URL('playground/', src))).filter((f) => f.endsWith('.js')).map((f) => `playground/${f}`);
  assert.ok(playgroundParts.length >= 10, `the playground's parts were found: ${playgroundParts}`);
  for (const path of ['worker/client.js', 'worker/handlers.js', 'worker/compute_side.js', 'worker/worker.js', ...playgroundParts,
    'features/lazy.js', 'features/handlers_of.js', 'features/services.js', 'element/element.js', 'element/anywidget.js', 'page/main.js']) {
    const text = await read(path);
    // A request as a string, a property or method, or a key: how a hand-written list would name it.
    for (const name of requestNames) {
      const named = new RegExp(`['"\`]${name}['"\`]|\\.${name}\\(|^\\s*(async\\s+)?${name}\\s*[:(]`, 'm');
      assert.doesNotMatch(text, named, `${path} names the request “${name}”: derive it from the feature's requests.js instead`);
    }
    // A feature as a string (its name is also a word of the lesson, e.g. a row's query). The store may
    // compare a preset's name, which can be a feature's ('training': the lab's model loaded). (The Export
    // button, the element's export methods, imports and the widget's tensors come from the export's service.)
    const allowed = { 'playground/store.js': ['training'] }[path] ?? [];
    for (const name of lazyNames.filter((n) => !allowed.includes(n))) {
      assert.doesNotMatch(text, new RegExp(`['"\`]${name}['"\`]`), `${path} names the feature “${name}”: derive it from the table instead`);
    }
  }
  const makeDist = await readFile(new URL('../../scripts/make_dist.mjs', import.meta.url), 'utf8');
  for (const name of lazyNames) assert.doesNotMatch(makeDist, new RegExp(`features/${name}\\b`), `make_dist.mjs names the feature “${name}”`);
});

test('the playground asks the compute only through derived actions (every one guarded), besides its own run, item and the re-timing of a quick run', async () => {
  // The playground's parts (playground.js composes them): the run scheduler sends the runs, the panels' actions derive the rest.
  const parts = (await readdir(new URL('playground/', src))).filter((f) => f.endsWith('.js') && f !== 'compute_link.js');
  const text = (await Promise.all(parts.map((f) => read(`playground/${f}`)))).join('\n');
  const calls = new Set([...text.matchAll(/compute\??\.session\.(\w+)/g)].map((m) => m[1]));
  assert.deepEqual([...calls].sort(), ['cancel', 'item', 'run', 'time'], 'a request sent straight to the session skips the guard of playground/asks.js');
  assert.match(await read('playground/actions.js'), /actionsFor\(/);
});

test('each feature: requests.js, handler.js and panel.js agree; the table and the folders are the same', async () => {
  const folders = (await readdir(new URL('features/', src), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  assert.deepEqual(folders.sort(), FEATURES.map((f) => f.name).sort());
  for (const f of features) {
    assert.equal(typeof f.module.create, 'function', `${f.name}: panel.js exports create`);
    if (!f.requests) {
      assert.equal(f.handlers, null, `${f.name}: a handler.js without requests.js is never called`);
      assert.equal(f.module.requests, undefined, `${f.name}: its panel exports requests, but there is no requests.js`);
      continue;
    }
    assert.equal(f.module.requests, f.requests, `${f.name}: panel.js re-exports requests.js (its actions come from there)`);
    assert.deepEqual(Object.keys(f.handlers ?? {}).sort(), Object.keys(f.requests).sort(), `${f.name}: handler.js answers exactly the declared requests`);
    // A handler is loaded on first use; what it imported would be wrapped and loaded that way too.
    assert.doesNotMatch(await read(`features/${f.name}/handler.js`), /^\s*import\s/m, `${f.name}: handler.js imports nothing (the side gives it what it needs)`);
    for (const [request, spec] of Object.entries(f.requests)) {
      assert.ok(!['edit', 'load', 'run', 'cancel'].includes(request), `${f.name}: ${request} would hide the playground's own action`);
      assert.ok(spec.passes !== undefined || spec.deadlineMs > 0, `${f.name}: ${request} says what bounds its deadline`);
      assert.equal(typeof f.handlers[request], 'function');
    }
  }
});

test('every derived action, called after its playground is removed (or without engine or assets), rejects with a message', async () => {
  const session = new Proxy({}, { get: () => { throw new TypeError('the session was used'); } });
  const cases = [
    [{ destroyed: true, assetsError: null, connected: false }, /this playground was removed/],
    [{ destroyed: false, assetsError: 'the asset folder “x” is not a URL', connected: false }, /the asset folder “x” is not a URL/],
    [{ destroyed: false, assetsError: null, connected: false }, /the engine is not connected/],
  ];
  for (const [state, message] of cases) {
    for (const f of asking) {
      const actions = actionsFor(f.name, f.requests, { unavailable: () => unavailable(state), session: () => session, passDeadline: () => 1000 });
      assert.deepEqual(Object.keys(actions).sort(), Object.keys(f.requests).sort());
      for (const [request, action] of Object.entries(actions)) {
        const reply = action({ config: { n_heads: 2 } }, () => {});
        assert.ok(reply instanceof Promise, `${f.name}.${request} returns a promise even when it cannot ask`);
        await assert.rejects(reply, (err) => {
          assert.ok(!(err instanceof TypeError), `${f.name}.${request}: ${err.message}`);
          assert.match(err.message, message);
          assert.match(err.message, new RegExp(`^${f.name}: ${request} cannot be asked`));
          return true;
        });
      }
    }
  }
});

test('a derived action sends its feature, request and payload, with the deadline its declaration gives', async () => {
  const sent = [];
  const session = { ask: (...args) => { sent.push(args); return Promise.resolve({ ok: true }); } };
  const host = { unavailable: () => null, session: () => session, passDeadline: (config, passes) => 1000 * passes + config.n_heads };
  const actions = actionsFor('demo', { twice: { passes: 2 }, heads: { passes: (c) => c.n_heads + 2 }, fixed: { deadlineMs: 1234 }, plain: {} }, host);
  const config = { n_heads: 4 };
  const progress = () => {};
  await actions.twice({ config, item: 1 }, progress);
  await actions.heads({ config });
  await actions.fixed({ x: 1 });
  await actions.plain();
  assert.deepEqual(sent, [
    ['demo', 'twice', { config, item: 1 }, { onProgress: progress, deadlineMs: 2004 }],
    ['demo', 'heads', { config }, { onProgress: undefined, deadlineMs: 6004 }],
    ['demo', 'fixed', { x: 1 }, { onProgress: undefined, deadlineMs: 1234 }],
    ['demo', 'plain', {}, { onProgress: undefined, deadlineMs: 60000 }],
  ]);
  await assert.rejects(actions.twice({ item: 1 }), /demo: twice needs the config it is about/);
});

test('the worker answers a feature\'s declared requests only, through its handler; without handlers it answers none', async () => {
  // A stand-in engine; its labs() gives the engine with the labs' functions synchronous (engine/labs.js).
  const attn = { isa: 'stand-in', labs: async () => ({ sqrtDkGradients: (args) => ({ echoed: args }) }) };
  const handlers = createHandlers(async () => attn, { featureHandlers: loadHandlers });
  await handlers.init({}).catch(() => {}); // the stand-in has no layers: the warm-up pass fails, the engine is loaded
  const ask = async (message) => {
    const replies = [];
    await handle(handlers, { id: 7, ...message }, (r) => replies.push(r));
    return replies.at(-1);
  };
  const ok = await ask({ type: 'ask', owner: 1, feature: 'gradients', request: 'gradients', payload: { d_k: [4] } });
  assert.deepEqual(ok, { type: 'done', id: 7, gradients: { echoed: { d_k: [4] } } });
  const refused = [
    [{ type: 'ask', owner: 1, feature: 'gradients', request: 'toString' }, /the feature “gradients” has no request 'toString'/],
    [{ type: 'ask', owner: 1, feature: 'gradients', request: 'sweep' }, /the feature “gradients” has no request 'sweep'/],
    [{ type: 'ask', owner: 1, feature: 'shapes', request: 'shapes' }, /the feature “shapes” asks the compute for nothing/],
    [{ type: 'ask', owner: 1, feature: 'nothing', request: 'x' }, /the feature “nothing” asks the compute for nothing/],
    [{ type: 'ask', owner: 1, feature: '../worker', request: 'x' }, /“\.\.\/worker” is not a feature name/],
    // The request types of before: no longer the compute's own.
    ...['trace', 'headLogits', 'compare', 'sweep', 'train', 'gradients'].map((type) => [{ type }, new RegExp(`unknown request '${type}'`)]),
  ];
  for (const [message, pattern] of refused) {
    const reply = await ask(message);
    assert.equal(reply.type, 'error', JSON.stringify(message));
    assert.match(reply.message, pattern);
  }
  const bare = createHandlers(async () => attn);
  await bare.init({}).catch(() => {});
  const replies = [];
  await handle(bare, { id: 8, type: 'ask', owner: 1, feature: 'gradients', request: 'gradients', payload: {} }, (r) => replies.push(r));
  assert.deepEqual(replies, [{ type: 'error', id: 8, message: 'this compute answers no feature requests' }]);
});

/** Every .js file under a folder of web/src, with its text. */
async function sources(folder) {
  const entries = await readdir(new URL(folder, src), { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map(async (e) => { const path = `${e.parentPath ?? e.path}/${e.name}`; return { path, text: await readFile(path, 'utf8') }; }));
}

test('a feature imports neither the playground nor the worker (the run bar\'s names and the error classes live in ui/ and model/)', async () => {
  for (const { path, text } of await sources('features/')) {
    for (const [, from] of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
      assert.doesNotMatch(from, /(^|\/)(playground|worker)\//, `${path} imports ${from}`);
    }
  }
});

test('no n_kv_heads fallback: the core resolves it, so the web side never supplies n_heads for it', async () => {
  for (const folder of ['features/', 'playground/', 'worker/']) {
    for (const { path, text } of await sources(folder)) {
      assert.doesNotMatch(text, /n_kv_heads\s*(\?\?|\|\|)|n_kv_heads\s*\?\s*\{/, `${path} falls back for n_kv_heads`);
    }
  }
});

test('each query head\'s key/value head comes from the core (kv_head_of), never from arithmetic on the head counts', async () => {
  for (const { path, text } of await sources('features/')) {
    assert.doesNotMatch(text, /n_heads\s*\/\s*[\w.]*n_kv_heads|Math\.floor\([^)]*\/\s*\(?[\w.]*(per|group)/, `${path} computes the key/value head of a query head`);
  }
  const heatmaps = await read('features/heatmaps/panel.js');
  assert.match(heatmaps, /kv_head_of/, 'the heatmaps read the core\'s kv_head_of');
});
