// What a course page can rely on from <attention-playground> (issue 35, items 10, 16, 19): an author's
// lock covers imports too (a dropped file and importTensors() are refused with the lock named), a note
// about the view (a link's value replaced, which panels show imported maps) is a `note` event and
// never an `error`, and an export the element cannot finish because it was removed says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, serveSite, openUrl } from './harness.mjs';

let h, site;

const page = (a) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host contract</title><link rel="icon" href="data:,">
<script>
  window.events = [];
  for (const type of ['result', 'error', 'note']) {
    document.addEventListener(type, (e) => {
      if (e.target.localName === 'attention-playground') window.events.push({ type, id: e.target.id, detail: JSON.parse(JSON.stringify(e.detail)) });
    });
  }
</script>
<script type="module" src="${a}attention-playground.js"></script>
</head><body>
<attention-playground id="locked" panels="heatmaps,export" d_model="8" n_heads="2" source="random" n_q="3" lock="imported,seed,weights,source,input_seed"></attention-playground>
<attention-playground id="inputs" panels="heatmaps,export" d_model="8" n_heads="2" source="random" n_q="3" lock="source"></attention-playground>
<attention-playground id="free" panels="heatmaps,export" d_model="8" n_heads="2" source="random" n_q="3"></attention-playground>
</body></html>`;

before(async () => {
  h = await startHarness();
  site = await serveSite({ 'host.html': page(h.url) });
});
after(async () => { await site?.close(); await h?.close(); });

const open = () => openUrl(h, `${site.url}host.html`, { waitForResult: false });

/** Waits for the n-th event of `type` from element `id` and returns its detail. */
async function eventFrom(p, id, type, n = 1) {
  const handle = await p.waitForFunction(([id, type, n]) => window.events.filter((e) => e.id === id && e.type === type)[n - 1]?.detail,
    [id, type, n], { timeout: 60000 });
  return handle.jsonValue();
}

const eventsOf = (p, id, type) => p.evaluate(([id, type]) => window.events.filter((e) => e.id === id && e.type === type).map((e) => e.detail), [id, type]);

/** Drops a JSON file of `name` on element id's drop zone (as a reader would) and waits for the import's status. */
async function dropJson(p, id, name, json) {
  return p.evaluate(async ([id, name, json]) => {
    const root = document.getElementById(id).shadowRoot;
    const zone = root.getElementById('import-drop');
    const status = root.getElementById('import-status');
    status.textContent = '';
    const data = new DataTransfer();
    data.items.add(new File([json], name, { type: 'application/json' }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    for (let i = 0; i < 600 && !/^(Imported|Not imported)/.test(status.textContent); i++) await new Promise((r) => setTimeout(r, 100));
    return status.textContent;
  }, [id, name, json]);
}

const query = (n, d) => JSON.stringify({ query: { shape: [1, n, d], data: Array.from({ length: n * d }, (_, i) => ((i * 7) % 11) / 11 - 0.5) } });
const wq = (d) => JSON.stringify({ wq: { shape: [d, d], data: Array.from({ length: d * d }, (_, i) => ((i * 5) % 13) / 13 - 0.5) } });

test('lock covers imports: a dropped file and importTensors() are refused naming the lock; unlocked ones still import', async () => {
  const p = await open();
  try {
    for (const id of ['locked', 'inputs', 'free']) await eventFrom(p, id, 'result');
    await p.waitForFunction(() => ['locked', 'inputs', 'free'].every((id) => document.getElementById(id).shadowRoot.getElementById('import-drop')),
      null, { timeout: 60000 });
    const sumOf = (id) => p.evaluate((id) => document.getElementById(id).shadowRoot.getElementById('output-summary')?.getAttribute('data-sum') ?? null, id);
    const before = await sumOf('locked'), importedBefore = await p.$eval('#locked', (el) => el.state.imported);
    // lock includes imported: every import is refused.
    assert.match(await dropJson(p, 'locked', 'inputs.json', query(3, 8)), /^Not imported: importing tensors is locked on this page \(lock includes imported\)/);
    assert.match(await dropJson(p, 'locked', 'wq.json', wq(8)), /lock includes imported/);
    const api = await p.$eval('#locked', (el) => el.importTensors({ wq: { shape: [8, 8], data: new Float32Array(64).fill(0.25) } })
      .then(() => 'imported', (e) => e.message));
    assert.match(api, /^importing tensors is locked on this page \(lock includes imported\)/);
    assert.equal(await p.$eval('#locked', (el) => el.state.imported), importedBefore, 'the view says nothing was imported');
    assert.equal(await sumOf('locked'), before, 'the locked view still shows its own run');
    // lock="source": the inputs a file would replace are locked, the parameters are not.
    assert.match(await dropJson(p, 'inputs', 'inputs.json', query(3, 8)),
      /^Not imported: query cannot be imported on this page: it would replace what the locked field source sets \(lock includes source\)/);
    const keyRefused = await p.$eval('#inputs', (el) => el.importTensors({ key: { shape: [1, 3, 8], data: new Float32Array(24) } }).then(() => 'imported', (e) => e.message));
    assert.match(keyRefused, /^key cannot be imported on this page: .*lock includes source/);
    assert.match(await dropJson(p, 'inputs', 'wq.json', wq(8)), /^Imported wq/);
    // No lock: the same file imports.
    assert.match(await dropJson(p, 'free', 'inputs.json', query(3, 8)), /^Imported query/);
    assert.deepEqual(await eventsOf(p, 'locked', 'error'), [], 'a refused import is the reader’s message, not an error event');
    assert.deepEqual(p.problems, []);
  } finally {
    await p.closeAll();
  }
});

test('a note (an item that does not exist, the panels that show imported maps) is a `note` event, never an `error`', async () => {
  const p = await open();
  try {
    await eventFrom(p, 'free', 'result');
    /** The first note or error event of element `free` about `field`: { type, detail }. */
    const about = async (field) => (await p.waitForFunction((field) => window.events.find((e) => e.id === 'free' && e.detail?.field === field
      && (e.type === 'note' || e.type === 'error')), field, { timeout: 60000 })).jsonValue();
    await p.$eval('#free', (el) => el.setAttribute('item', '9'));
    const note = await about('item');
    assert.equal(note.type, 'note', `the view runs (item 0 shown), yet it was sent as ${note.type}: ${note.detail.message}`);
    assert.match(note.detail.message, /item=9 is not a batch item here \(0 to 0\): showing item 0/);
    // Imported attention maps: the note that says which panels show them.
    const maps = Array.from({ length: 2 * 3 * 3 }, (_, i) => [0.5, 0.3, 0.2][i % 3]);
    await p.$eval('#free', (el, data) => el.importTensors({ attention: { shape: [2, 3, 3], data } }), maps);
    const imported = await about('imported');
    assert.equal(imported.type, 'note', `an informational note sent as ${imported.type}: ${imported.detail.message}`);
    assert.match(imported.detail.message, /^Imported attention maps: the heatmaps/);
    assert.deepEqual(await eventsOf(p, 'free', 'error'), [], 'notes were sent as errors');
    // A real error is still an error.
    await p.$eval('#free', (el) => el.setAttribute('d_model', 'abc'));
    const error = await eventFrom(p, 'free', 'error');
    assert.equal(error.field, 'd_model');
    assert.deepEqual(p.problems, []);
  } finally {
    await p.closeAll();
  }
});

test('a chapter named like an object\'s own property ("constructor", "__proto__") is a note like any unknown chapter; the element runs on', async () => {
  const p = await open();
  try {
    await eventFrom(p, 'free', 'result');
    // With the exercises panel among its panels: a view of panels without it lists no chapter's exercises.
    await p.$eval('#free', (el) => el.setAttribute('panels', 'heatmaps,export,exercises'));
    for (const [n, chapter] of [[1, 'constructor'], [2, '__proto__']]) {
      await p.$eval('#free', (el, chapter) => el.setAttribute('chapter', chapter), chapter);
      const note = await eventFrom(p, 'free', 'note', n);
      assert.equal(note.field, 'chapter', JSON.stringify(note));
      assert.match(note.message, /chapter must be one of attention, .*not “(constructor|__proto__)”/);
      const ids = await p.$eval('#free', (el) => el.exercises.map((e) => e.id));
      assert.ok(ids.length > 0 && ids.every((id) => id.startsWith('attention.')), `the first chapter's exercises: ${ids}`);
    }
    // Still alive: a change runs, and the chapter can be set to a real one.
    const results = (await eventsOf(p, 'free', 'result')).length;
    await p.$eval('#free', (el) => { el.setAttribute('chapter', 'cost'); el.setAttribute('n_q', '4'); });
    await eventFrom(p, 'free', 'result', results + 1);
    assert.equal(await p.$eval('#free', (el) => el.state.chapter), 'cost');
    assert.deepEqual(await eventsOf(p, 'free', 'error'), []);
    assert.deepEqual(p.problems, []);
  } finally {
    await p.closeAll();
  }
});

test('exportBundle() or exportTensors() then remove(): the promise says the element was removed; an element on the page exports', async () => {
  const p = await open();
  try {
    await eventFrom(p, 'free', 'result');
    const said = await p.$eval('#free', (el) => {
      const pending = el.exportBundle();
      el.remove();
      return pending.then(() => 'exported', (e) => e.message);
    });
    assert.match(said, /^exportBundle\(\) did not finish: this <attention-playground> was removed from the page before the export was ready/);
    assert.doesNotMatch(said, /still loading/);
    const tensors = await p.evaluate(async () => {
      const el = document.createElement('attention-playground');
      el.id = 'again';
      for (const [k, v] of Object.entries({ panels: 'heatmaps', d_model: '8', n_heads: '2', source: 'random', n_q: '3' })) el.setAttribute(k, v);
      document.body.append(el);
      const pending = el.exportTensors();
      el.remove();
      return pending.then(() => 'exported', (e) => e.message);
    });
    assert.match(tensors, /^exportTensors\(\) did not finish: this <attention-playground> was removed/);
    // An element that stays on the page exports its view.
    const size = await p.evaluate(async () => {
      const el = document.createElement('attention-playground');
      for (const [k, v] of Object.entries({ panels: 'heatmaps', d_model: '8', n_heads: '2', source: 'random', n_q: '3' })) el.setAttribute(k, v);
      document.body.append(el);
      await new Promise((resolve) => el.addEventListener('result', resolve, { once: true }));
      return (await el.exportBundle()).size;
    });
    assert.ok(size > 1000, `a bundle of ${size} bytes`);
    assert.deepEqual(p.problems, []);
  } finally {
    await p.closeAll();
  }
});
