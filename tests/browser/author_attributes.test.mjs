// What a course author sets on <attention-playground>, on a page of another origin: `lock` (fields shown
// disabled that no learner edit or preset changes, while the author's attribute still does), `hide`
// (fields not shown), `label` (the name of the element's landmarks, unique across two elements, also
// when unnamed), an attribute set again to the value it already has after the learner edited that field
// (an author's reset), the lesson's start for an element with no view attribute, the fallback content
// shown when the module cannot load, and no "Loading the engine…" beside the error when the engine
// cannot start.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, serveSite, openUrl } from './harness.mjs';
import { CHAPTERS } from '../../web/src/lesson/chapters.js';

const HEADS_FIELDS = CHAPTERS.find((c) => c.name === 'heads').fields;

let h, site;

const head = (a, src = `${a}attention-playground.js`) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Author attributes</title><link rel="icon" href="data:,">
<script type="module" src="${src}"></script></head><body><main>`;

const course = (a) => `${head(a)}
<attention-playground id="a" label="Masks demo" chapter="heads" lock="d_model,n_heads" hide="seed,bias" text="the cat saw the dog">
  <p class="fallback">The interactive playground could not load.</p>
</attention-playground>
<attention-playground id="b"><p class="fallback">The interactive playground could not load.</p></attention-playground>
</main></body></html>`;

const broken = (a) => `${head(a, `${a}missing-module.js`)}
<attention-playground id="c" d_model="32"><p id="fallback">The interactive playground could not load: <a href="${a}index.html">open it on its own page</a>.</p></attention-playground>
</main></body></html>`;

before(async () => {
  h = await startHarness();
  site = await serveSite({ 'course.html': course(h.url), 'broken.html': broken(h.url) });
});
after(async () => { await site?.close(); await h?.close(); });

/** Runs `fn(root)` in the shadow root of element `id`. */
const inRoot = (page, id, fn, arg) => page.evaluate(([id, body, arg]) => new Function('root', 'arg', body)(document.getElementById(id).shadowRoot, arg), [id, `return (${fn})(root, arg);`, arg]);

test('lock, hide, label, an author reset and the lesson start, on two elements of a course page', async () => {
  const page = await openUrl(h, `${site.url}course.html`, { waitForResult: false, width: 1100 });
  await page.waitForFunction(() => ['a', 'b'].every((id) => document.getElementById(id).result));

  // lock: shown disabled; an input event from the form (as if the field were edited) changes nothing.
  const locked = await inRoot(page, 'a', (root) => {
    const input = root.querySelector('input[name="d_model"]');
    const shownBox = input.closest('[data-field]').getClientRects().length > 0;
    input.disabled = false; // a learner cannot; forcing it shows that the playground refuses the edit too
    input.value = '128';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    return { shownBox, locked: input.closest('.field').classList.contains('locked') };
  });
  assert.deepEqual(locked, { shownBox: true, locked: true });
  await page.waitForTimeout(100);
  assert.equal(await page.$eval('#a', (el) => el.state.d_model), '64', 'a locked field ignores the form');
  assert.deepEqual(await inRoot(page, 'a', (root) => { const i = root.querySelector('input[name="d_model"]'); return [i.disabled, i.value]; }), [true, '64'], 'the form shows the locked value again, disabled');
  // A preset changes only the unlocked fields (E2 sets d_model 512 and n_heads 8).
  await inRoot(page, 'a', (root) => root.querySelector('select[name="preset"]').focus());
  await page.waitForFunction(() => document.getElementById('a').shadowRoot.querySelector('option[value^="example:E2"], option[value="E2"]'));
  const e2 = await inRoot(page, 'a', (root) => {
    const select = root.querySelector('select[name="preset"]');
    select.value = [...select.options].find((o) => /E2/.test(o.value)).value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return select.value;
  });
  assert.equal(typeof e2, 'string'); // the menu then shows no preset: the view is not E2's (d_model and n_heads stayed)
  const afterPreset = await page.$eval('#a', (el) => el.state);
  assert.equal(afterPreset.d_model, '64');
  assert.equal(afterPreset.n_heads, '4');
  assert.equal(afterPreset.source, 'random', 'the preset’s other fields applied');
  // The author's attribute still sets a locked field.
  await page.$eval('#a', (el) => el.setAttribute('d_model', '32'));
  assert.equal(await page.$eval('#a', (el) => el.state.d_model), '32');

  // hide: the fields are not in the form; the others of the chapter are (d_k and n_heads, locked, are heads' fields).
  const fields = await inRoot(page, 'a', (root) => Object.fromEntries(['seed', 'bias', 'd_k', 'n_heads'].map((k) =>
    [k, root.querySelector(`#controls [data-field="${k}"]`).getClientRects().length > 0])));
  assert.ok(['seed', 'd_k', 'n_heads'].every((k) => HEADS_FIELDS.includes(k)), `heads' fields: ${HEADS_FIELDS}`);
  assert.deepEqual(fields, { seed: false, bias: false, d_k: true, n_heads: true });

  // An author's reset: the learner edits the sentence, the author sets the attribute to the value it has.
  // (The sentence is a field of the heads chapter's second step: the author's step attribute opens it.)
  await page.$eval('#a', (el) => el.setAttribute('step', '2'));
  await page.$eval('#a', (el) => { el.state = { ...el.state, source: 'text' }; });
  await page.locator('#a textarea[name="text"]').waitFor({ state: 'visible' });
  await page.locator('#a textarea[name="text"]').fill('a learner typed this');
  await page.waitForFunction(() => document.getElementById('a').state.text === 'a learner typed this');
  await page.$eval('#a', (el) => el.setAttribute('text', el.getAttribute('text')));
  assert.equal(await page.$eval('#a', (el) => el.state.text), 'the cat saw the dog', 'setting the attribute again applies it');
  assert.equal(await page.inputValue('#a textarea[name="text"]'), 'the cat saw the dog');

  // label: every landmark named, no name twice across the two elements.
  const names = () => page.evaluate(() => ['a', 'b'].flatMap((id) => [...document.getElementById(id).shadowRoot
    .querySelectorAll('[role="region"], section:not([hidden]), nav:not([hidden])')].map((el) => el.getAttribute('aria-label'))));
  let all = await names();
  assert.ok(all.every(Boolean), `every landmark has a name: ${JSON.stringify(all)}`);
  assert.equal(new Set(all).size, all.length, `names repeat: ${JSON.stringify(all)}`);
  assert.ok(all.includes('Masks demo') && all.includes('Attention playground') && all.includes('Inputs (Masks demo)') && all.includes('Inputs'), JSON.stringify(all));
  // Unnamed, the first element takes the second's name with a number: still unique.
  await page.$eval('#a', (el) => el.removeAttribute('label'));
  all = await names();
  assert.equal(new Set(all).size, all.length, `names repeat: ${JSON.stringify(all)}`);
  assert.ok(all.includes('Attention playground 2') && all.includes('Inputs (Attention playground 2)'), JSON.stringify(all));

  // The element with no view attribute opens on the lesson's first chapter with its constructed heads.
  await page.waitForFunction(() => document.getElementById('b').shadowRoot.querySelectorAll('#head-jobs li').length === 4);
  const b = await inRoot(page, 'b', (root) => ({
    chapter: root.querySelector('nav.chapters [aria-current]')?.dataset.chapter,
    jobs: [...root.querySelectorAll('#head-jobs li')].map((li) => li.dataset.pattern),
  }));
  assert.deepEqual(b, { chapter: 'attention', jobs: ['previous', 'same_word', 'first_token', 'random'] });
  // The fallback content inside a running element is not drawn (its shadow root has no slot).
  assert.equal(await page.locator('#b .fallback').isVisible(), false);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('the fallback content shows when the module cannot load; no engine badge stays beside an engine error', async () => {
  const page = await openUrl(h, `${site.url}broken.html`, { waitForResult: false });
  await page.waitForLoadState('load');
  assert.equal(await page.locator('#fallback').isVisible(), true, 'the author’s fallback is shown');
  assert.match(await page.locator('#fallback').textContent(), /could not load/);
  await page.closeAll();

  // The engine's wasm refused: the status says so, and "Loading the engine…" is gone.
  const failing = await openUrl(h, `${site.url}course.html`, {
    waitForResult: false,
    init: () => { WebAssembly.instantiateStreaming = WebAssembly.compileStreaming = WebAssembly.instantiate = () => Promise.reject(new Error('blocked by the test')); },
  });
  // A host's run(), exports, answer and import asked before the engine failed, and after: each fails saying why, none waits for good.
  const asked = () => {
    const el = document.getElementById('b');
    const answer = (promise) => Promise.race([promise.then(() => 'fulfilled', (e) => e.message),
      new Promise((resolve) => setTimeout(() => resolve('no answer within 20 s'), 20000))]);
    const attention = { shape: [1, 2, 4, 4], data: new Float32Array(32).fill(0.25) };
    return [el.run(), el.exportBundle(), el.exportTensors(), el.answer('attention.uniform', 0.1), el.importTensors({ attention })].map(answer);
  };
  await failing.evaluate(async (asked) => { await customElements.whenDefined('attention-playground'); globalThis.askedEarly = Promise.all((0, eval)(asked)()); }, `(${asked})`);
  await failing.waitForFunction(() => /could not start/.test(document.getElementById('b').shadowRoot.getElementById('status')?.textContent ?? ''), null, { timeout: 30000 });
  const early = await failing.evaluate(() => globalThis.askedEarly);
  const late = await failing.evaluate((asked) => Promise.all((0, eval)(asked)()), `(${asked})`);
  for (const [when, answers] of [['before the failure', early], ['after it', late]]) {
    for (const [i, message] of answers.entries()) assert.match(message, /could not start: .*blocked by the test/, `${['run()', 'exportBundle()', 'exportTensors()', 'answer()', 'importTensors()'][i]} asked ${when}`);
  }
  const badge = await inRoot(failing, 'b', (root) => ({ hidden: root.getElementById('engine-badge').hidden, text: root.getElementById('engine-badge').textContent }));
  assert.equal(badge.hidden, true, `the badge still shows “${badge.text}”`);
  await failing.closeAll();
});
