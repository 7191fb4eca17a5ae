// Links and snippets turned against a learner (issue 23, items 4, 5 and 6), in the built page:
// - the HTML snippets, read by the browser's own parser, give back exactly the hostile text they carry;
// - a link whose value is cut at 2,000 characters in the middle of an emoji keeps the address following
//   every later edit (no URIError);
// - a link whose trained weights would take minutes to train again is refused before anything runs, a
//   small trained link still runs, and the lab's own model (already trained) runs although training it
//   again would be refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, openUrl, resultReady, POLL_MS, pauseLab } from './harness.mjs';
import { snippets } from '../../web/src/page/snippets.js';
import { builderState } from '../../web/src/page/share_view.js';
import { defaults, withChanges, parseHash } from '../../web/src/model/schema.js';
import { HOSTILE } from '../js/hostile_texts.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('the element, Quarto and iframe snippets decode, in the browser, to exactly the hostile text', async () => {
  // The browser's HTML parser, in a template (inert: nothing in it runs or upgrades), is the same in any
  // document: a blank one, not the page with every panel building itself meanwhile (3 CPU-s).
  const page = await openUrl(h, 'about:blank', { waitForResult: false, reuse: true });
  for (const text of HOSTILE) {
    const texts = snippets(builderState(withChanges(defaults(), { text }), {}), { base: h.url });
    const got = await page.evaluate(({ element, quarto, iframe }) => {
      const parse = (html) => {
        const t = document.createElement('template');
        t.innerHTML = html;
        return t.content;
      };
      const body = quarto.split('\n').slice(1, -1).join('\n'); // what the raw block hands to the page
      return {
        element: parse(element).querySelector('attention-playground').getAttribute('text'),
        quarto: parse(body).querySelector('attention-playground').getAttribute('text'),
        elements: parse(body).querySelectorAll('attention-playground').length,
        scripts: parse(body).querySelectorAll('script').length,
        src: parse(iframe).querySelector('iframe').getAttribute('src'),
      };
    }, texts);
    assert.equal(got.element, text);
    assert.equal(got.quarto, text);
    assert.equal(got.elements, 1);
    assert.equal(got.scripts, 1, 'no script smuggled in by the text');
    assert.equal(parseHash(new URL(got.src).hash).state.text, text, 'the iframe’s link carries the text exactly');
  }
  await page.closeAll();
});

test('a link cut at 2,000 characters inside an emoji: later edits keep the address following the view', async () => {
  // The emoji's two UTF-16 halves are characters 2,000 and 2,001: the cut falls between them. (A label:
  // the sentences keep 2^18 characters, far past their own limits, tests/js/links.test.mjs.)
  const label = `${'a'.repeat(1999)}😀 tail`;
  // The form and the maps (what the link and the edits reach); the other panels follow the view, not the address.
  const page = await openPage(h, `#panels=controls,heatmaps&label=${encodeURIComponent(label)}`, { reuse: true });
  for (const d_model of ['32', '48']) {
    await page.fill('input[name="d_model"]', d_model);
    await page.waitForFunction((d) => location.hash.includes(`d_model=${d}`), d_model, { timeout: 30000, polling: POLL_MS });
  }
  const hash = await page.evaluate(() => location.hash);
  assert.equal(parseHash(hash).state.label, 'a'.repeat(1999), 'the emoji is dropped whole');
  await resultReady(page);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

const TRAINED = '#weights=trained&source=task&d_model=32&n_heads=2';
const blockedText = (page) => page.evaluate(() => playgroundRoot().getElementById('blocked')?.textContent ?? '');
const statusText = (page) => page.evaluate(() => playgroundRoot().getElementById('status')?.textContent ?? '');

test('a link that would train for minutes is refused before it starts; a small trained link runs', async () => {
  // The training lab's largest sizes and its most steps: 20 to 60 minutes of training on this machine.
  // Both links show the form and the maps alone: the refusal is the run bar's and the trained note the
  // form's, whatever the panels (the page with every panel built 25 more for nothing read here).
  const page = await openPage(h, '#panels=controls,heatmaps&weights=trained&source=task&d_model=256&n_heads=16&train_task=copy_previous' +
    '&train_d_model=256&train_n_heads=16&train_seq_len=64&train_steps=5000', { waitForResult: false, reuse: true });
  await page.waitForFunction(() => /Too slow to run here/.test(playgroundRoot().getElementById('blocked')?.textContent ?? ''), null, { timeout: 30000, polling: POLL_MS });
  assert.match(await blockedText(page), /5,000 training steps/);
  await page.waitForTimeout(1500);
  assert.doesNotMatch(await statusText(page), /Running|training step/, 'nothing was started');
  assert.match(await statusText(page), /not run/);
  await page.closeAll();

  const small = await openPage(h, `${TRAINED}&train_steps=60&panels=controls,heatmaps`, { reuse: true });
  assert.match(await small.textContent('#trained-note'), /60 steps/);
  assert.deepEqual(small.problems, []);
  await small.closeAll();
});

test('the lab’s model, trained already, runs in the playground although training it again from a link is refused', async () => {
  // copy_previous at d_model 64, 4 heads, 16 tokens: 300 steps take a few seconds in the lab, and are
  // estimated above the limit when a link alone must train them again.
  const lab = '#panels=controls,heatmaps,training&train_task=copy_previous&train_d_model=64&train_n_heads=4&train_seq_len=16';
  const page = await openPage(h, lab, { reuse: true });
  await page.waitForFunction(() => playgroundRoot().getElementById('train-status')?.dataset.steps === '0', null, { timeout: 30000, polling: POLL_MS });
  await page.click('#train-play');
  await page.waitForFunction(() => Number(playgroundRoot().getElementById('train-status')?.dataset.steps) >= 300, null, { timeout: 120000, polling: POLL_MS });
  const last = await pauseLab(page);
  await page.click('#train-use');
  await page.waitForFunction((n) => location.hash.includes(`train_steps=${n}`), last);
  await resultReady(page, 30000);
  assert.equal(await blockedText(page), '');
  const url = page.url();
  assert.deepEqual(page.problems, []);
  await page.closeAll();

  // The same link in a fresh page must train those steps again: refused, with the way round it.
  const again = await openPage(h, new URL(url).hash, { waitForResult: false, reuse: true });
  await again.waitForFunction(() => /Too slow to run here/.test(playgroundRoot().getElementById('blocked')?.textContent ?? ''), null, { timeout: 30000, polling: POLL_MS });
  assert.match(await blockedText(again), new RegExp(`${last.toLocaleString('en-US')} training steps.*training lab`));
  await again.closeAll();
});

test('a trained link estimated over the auto-run limit waits for Run; once run, what follows counts no training again', async () => {
  // 200 steps at the lab's default sizes: about half a second of training, so the link asks first.
  const page = await openPage(h, `${TRAINED}&train_steps=200&panels=controls,heatmaps,compare`, { waitForResult: false, reuse: true });
  await page.waitForFunction(() => /Press Run/.test(playgroundRoot().getElementById('status')?.textContent ?? ''), null, { timeout: 30000, polling: POLL_MS });
  await page.click('#run');
  await resultReady(page);
  // The comparison (n_heads + 1 passes) starts by itself: the model is held, its training is not counted.
  await page.waitForFunction(() => playgroundRoot().querySelectorAll('#compare-metrics [data-entropy]').length === 2, null, { timeout: 30000, polling: POLL_MS });
  assert.equal(await page.$('#compare-run'), null);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
