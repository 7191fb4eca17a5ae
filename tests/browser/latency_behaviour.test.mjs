// How the playground answers an edit (issue 25, "Instant"), checked as behaviour, never as speed
// (scripts/measure_latency.mjs measures the speed): a run the core estimates quicker than a frame starts
// in the keystroke's own task; a costlier one waits for the typing to pause; panels off screen are drawn
// when they come into view or once the learner pauses; a result superseded by newer inputs is never
// drawn, and keystrokes typed while a run computes make one run, not one each.
// Runs beside other files (tests/browser/run.mjs): where a run starts depends on the core's estimate of its cost
// (validate.js's estimateRun: FLOPs at an assumed rate), not on how fast this machine is at the moment.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, resultReady } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h.close(); });

/** In the page: types `value` into field `name` as one input event, and reports what is true right after it (same task). */
function editNow([name, value, panel]) {
  const root = playgroundRoot();
  const input = root.getElementById(`f-${name}`);
  const panelText = () => root.querySelector(`[data-panel="${panel}"] .panel-body`)?.textContent ?? '';
  const shownBefore = panelText();
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  return {
    running: root.querySelector('.runbar').dataset.state === 'running',
    panelChanged: panelText() !== shownBefore,
    settled: root.querySelector('.ap').dataset.settled,
  };
}

test('a quick edit runs in its own task; panels off screen wait, and are drawn when scrolled to or once typing pauses', async () => {
  // The controls, the maps, the derivation and the shape trace: the trace starts ~2,000 px down, below the fold.
  const page = await openPage(h, '#panels=controls,heatmaps,derive,shapes');
  const shapes = () => page.evaluate(() => playgroundRoot().querySelector('[data-panel="shapes"] .panel-body').textContent);
  assert.match(await shapes(), /64/, 'the shape trace shows d_model 64 to begin with');
  assert.ok(await page.evaluate(() => playgroundRoot().querySelector('[data-panel="shapes"]').getBoundingClientRect().top > innerHeight + 400),
    'the shape trace starts off screen');

  // d_model 64 → 48: a layer that runs in well under a frame.
  const now = await page.evaluate(editNow, ['d_model', '48', 'shapes']);
  assert.equal(now.running, true, 'the run started in the input event’s task (no fixed wait)');
  assert.equal(now.panelChanged, false, 'the off-screen shape trace was not redrawn in the keystroke’s task');
  assert.equal(now.settled, '0', 'data-settled says panels are behind');
  await resultReady(page); // heatmaps fresh and data-settled '1': the off-screen panels caught up
  const caught = await shapes();
  assert.match(caught, /48/, 'once the typing paused, the shape trace shows d_model 48');
  assert.doesNotMatch(caught, /\b64\b/, 'and no longer d_model 64');

  // Scrolled into view right after an edit, a panel is drawn within two frames (before the pause's catch-up).
  const scrolled = await page.evaluate(async (edit) => {
    const root = playgroundRoot();
    const before = root.querySelector('[data-panel="shapes"] .panel-body').textContent;
    const input = root.getElementById(`f-${edit[0]}`);
    input.value = edit[1];
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const sameTask = root.querySelector('[data-panel="shapes"] .panel-body').textContent === before;
    root.querySelector('[data-panel="shapes"]').scrollIntoView();
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    await frame();
    await frame();
    await new Promise((resolve) => setTimeout(resolve, 0)); // the observer's callback is a task after the frame
    return { sameTask, after: root.querySelector('[data-panel="shapes"] .panel-body').textContent };
  }, ['d_model', '96']);
  assert.equal(scrolled.sameTask, true, 'not drawn in the keystroke’s task (it was off screen)');
  assert.match(scrolled.after, /96/, 'drawn once it came into view');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a costly edit waits for the typing; a superseded result is never drawn and keystrokes during a run make one run', async () => {
  // Random inputs of 256 tokens at d_model 512, two sequences: ~1.3 GFLOP, estimated at well over a frame
  // (and under the limit of runs that follow the typing).
  const page = await openPage(h, '#source=random&d_model=512&n_heads=8&n_q=256&batch=2&panels=controls,heatmaps');
  const worker = page.workers().find((w) => /worker/.test(w.url())) ?? page.workers()[0];
  assert.ok(worker, 'the compute worker runs');
  await worker.evaluate(() => {
    self.runsAsked = [];
    self.addEventListener('message', (e) => { if (e.data?.type === 'run') self.runsAsked.push(e.data.config.seed); });
  });
  await page.evaluate(() => {
    const root = playgroundRoot();
    const body = root.querySelector('[data-panel="heatmaps"] .panel-body');
    globalThis.draws = [];
    // Every drawing of the maps rewrites the enlarged map's data-attention: note what was current then.
    new MutationObserver(() => draws.push({ stale: body.dataset.stale, seed: root.getElementById('f-seed').value }))
      .observe(body, { subtree: true, attributes: true, attributeFilter: ['data-attention'] });
  });

  const now = await page.evaluate(editNow, ['seed', '5', 'heatmaps']);
  assert.equal(now.running, false, 'a run estimated longer than a frame does not start in the keystroke’s task');
  // While seed 5 computes, three more keystrokes: 56, 567, 5678, typed in the page as soon as the run bar
  // says "running" (a MutationObserver's microtask: no round trip to the test, which on a loaded machine took
  // longer than the run itself and let seed 5's result be drawn before the keystrokes came).
  await page.evaluate(() => new Promise((resolve, reject) => {
    const root = playgroundRoot();
    const bar = root.querySelector('.runbar');
    const type = () => {
      for (const value of ['56', '567', '5678']) {
        const input = root.getElementById('f-seed');
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
      resolve();
    };
    if (bar.dataset.state === 'running') return type();
    const timer = setTimeout(() => reject(new Error('no run started within 10 s of the first keystroke')), 10000);
    new MutationObserver((_, observer) => {
      if (bar.dataset.state !== 'running') return;
      observer.disconnect();
      clearTimeout(timer);
      type();
    }).observe(bar, { attributes: true, attributeFilter: ['data-state'] });
  }));
  await resultReady(page, 60000);
  const asked = await worker.evaluate(() => self.runsAsked);
  const draws = await page.evaluate(() => globalThis.draws);
  assert.deepEqual(asked, [5, 5678], 'the worker ran seed 5 (already running) and then only the last inputs');
  assert.deepEqual(draws.map((d) => d.stale), ['0'], `the maps were drawn once, fresh (draws: ${JSON.stringify(draws)})`);
  assert.equal(draws[0].seed, '5678');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('an edit and its result leave the step bar and the chapter list alone; a new step rewrites the bar', async () => {
  // Every keystroke and every result re-renders the playground; the bar (Back, Next) and the chapter list show the
  // step, the locks and the progress, which an edit of the sentence does not change: writing them anyway cost
  // each edit style and layout work (bench/results.md, "Edit latency (stop 42)").
  const page = await openPage(h, '#chapter=attention&step=1', { asIs: true }); // the page as it opens
  await resultReady(page);
  const watch = () => page.evaluate(() => {
    const root = playgroundRoot();
    const seen = globalThis.__written = [];
    const observer = new MutationObserver((records) => seen.push(...records.map((r) => `${r.type} ${r.target.nodeName}${r.attributeName ? ` ${r.attributeName}` : ''}`)));
    for (const el of [root.querySelector('.step-bar'), root.querySelector('.chapter-list')]) {
      observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
    }
    globalThis.__stopWatch = () => { observer.disconnect(); return seen; };
  });
  await watch();
  const sentence = await page.evaluate(() => playgroundRoot().getElementById('f-text').value);
  await page.evaluate(editNow, ['text', `${sentence} again`, 'heatmaps']);
  await resultReady(page); // the new sentence's maps, and the timing pass's redraw (status "Ran in")
  await page.waitForTimeout(300); // a frame or two after it
  const written = await page.evaluate(() => globalThis.__stopWatch());
  assert.deepEqual(written, [], `an edit of the sentence and its result wrote into the step bar or the chapter list: ${written.join('; ')}`);

  // A new step still rewrites the bar: Back now leads to step 1.
  await watch();
  await page.click('#step-next');
  await page.waitForFunction(() => playgroundRoot().querySelector('.step-dot[aria-current="step"]')?.dataset.step === '2', null, { timeout: 30000 });
  const moved = await page.evaluate(() => globalThis.__stopWatch());
  assert.ok(moved.some((m) => m.startsWith('childList BUTTON')), `Next to step 2 rewrote no button of the step bar (${moved.join('; ') || 'no change'})`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
