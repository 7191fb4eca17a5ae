// The members a feature's service adds to <attention-playground> (features/services.js: the exercises'
// exercises, answer() and clearProgress(), the export's exportTensors() and exportBundle()) out of a document and in one: out of a document each does what
// its service says (no list, a refusal naming the element, the stored record forgotten); in a document the
// playground's. Then the element is removed again and its members go back to the detached ones.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, serveSite, openUrl } from './harness.mjs';

let h, site;

before(async () => {
  h = await startHarness();
  site = await serveSite({ 'p.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Services</title><link rel="icon" href="data:,">
<script type="module" src="${h.url}attention-playground.js"></script></head><body></body></html>` });
});
after(async () => { await site?.close(); await h?.close(); });

test('the element\'s feature members out of a document, in one, and after it is removed', async () => {
  const page = await openUrl(h, `${site.url}p.html`, { waitForResult: false });
  try {
    await page.waitForFunction(() => customElements.get('attention-playground'));
    const detached = await page.evaluate(async () => {
      localStorage.setItem('attention-playground:exercises:/p.html#s1', JSON.stringify({ 'heads.d_k': { attempts: 1, correct: true } }));
      const el = document.createElement('attention-playground');
      el.id = 's1';
      const refused = await el.answer('heads.d_k', 16).then(() => 'answered', (err) => err.message);
      const notShown = await el.reveal('heads.d_k').then(() => 'shown', (err) => err.message);
      el.clearProgress();
      const exports = await Promise.all([el.exportTensors(), el.exportBundle()].map((p) => p.then(() => 'exported', (err) => err.message)));
      return { list: el.exercises, refused, notShown, stored: localStorage.getItem('attention-playground:exercises:/p.html#s1'), exports };
    });
    assert.deepEqual(detached, { list: [], refused: '<attention-playground> answers once it is in a document', notShown: '<attention-playground> answers once it is in a document', stored: null,
      exports: ['<attention-playground> exports once it is in a document', '<attention-playground> exports once it is in a document'] });

    const inDocument = await page.evaluate(async () => {
      const el = document.createElement('attention-playground');
      el.id = 's2';
      el.setAttribute('exercises', 'heads.d_k');
      el.setAttribute('d_model', '48');
      el.setAttribute('n_heads', '3');
      const events = [];
      for (const type of ['attempt', 'progress']) el.addEventListener(type, (e) => events.push([type, e.detail]));
      document.body.append(el);
      const reply = await el.answer('heads.d_k', 32);
      const list = el.exercises.map((e) => e.id);
      el.remove();
      return { reply: reply.correct, list, events, after: el.exercises };
    });
    assert.equal(inDocument.reply, true, 'the exercise asks about twice the layer: d_k = 96 / 3 = 32');
    assert.deepEqual(inDocument.list, ['heads.d_k']);
    const { statement, ...attempt } = inDocument.events.find(([type]) => type === 'attempt')[1];
    assert.deepEqual(attempt, { id: 'heads.d_k', chapter: 'heads', correct: true, answer: 32, expected: 32, attempts: 1, first_try: true, revealed: false });
    // Its xAPI statement (issue 38; validated in tests/browser/author_lesson.test.mjs and exercises.test.mjs).
    assert.deepEqual([statement.verb.display['en-US'], statement.object.id, statement.result.success], ['answered', 'urn:attention-playground:exercise:heads.d_k', true]);
    const progress = inDocument.events.filter(([type]) => type === 'progress').map(([, detail]) => detail);
    assert.ok(progress.length >= 1, 'a progress event');
    const { statement: completed, ...last } = progress.at(-1);
    assert.deepEqual(last, { chapter: 'attention', done: 1, total: 1, score: 1, first_try: 1 }, 'the host gets the progress without the per-chapter counts');
    // This answer finished the set shown: its progress event carries the "completed" statement.
    assert.deepEqual([completed.verb.display['en-US'], completed.object.id, completed.result.score.scaled], ['completed', 'urn:attention-playground:chapter:attention', 1]);
    assert.deepEqual(inDocument.after, [], 'removed: the detached member again');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

// The peak's measure is not in the first view's bundle (worker/handlers.js gets it from its host): on
// the page's own thread it comes from panels.js, once a result is on screen.
test('where no worker can start, the performance panel still measures the f32x4 peak (on the page\'s thread, from panels.js)', async () => {
  const page = await openUrl(h, `${h.url}#panels=heatmaps,performance`, { init: () => { delete window.Worker; } });
  try {
    await page.waitForSelector('#peak[data-gflops]', { timeout: 30000 });
    const peak = Number(await page.$eval('#peak', (el) => el.dataset.gflops));
    assert.ok(peak > 1, `peak ${peak} GFLOP/s`);
    assert.match(await page.locator('#engine-badge').textContent(), /on this page’s thread/);
    assert.ok(page.requests.some((url) => url.endsWith('/panels.js')), 'panels.js was loaded');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});
