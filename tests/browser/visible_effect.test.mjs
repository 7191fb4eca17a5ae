// Every control does something you can see (issue 37): in each step of each lesson chapter, each form
// control shown is changed (a select to each of its other options, a number stepped, a checkbox toggled,
// a radio group to its other choice) and something visible in that step must change: the text of a
// shown panel (menus' own option text left out) or the pixels of a shown canvas. Left out: the exercises'
// answer fields (they act on Check), free text (the sentence), and a figure's "light" box (it changes the
// saved file only). Reference, the dashboard of every panel, repeats these controls and is not walked.
//
// KNOWN lists the controls that show nothing today, each with why: it must shrink. The test fails on a
// control that shows nothing and is not KNOWN, and on a KNOWN entry that no longer fails (remove it then).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, isChapterDrawn, POLL_MS } from './harness.mjs';
import { STEPS, hashOf, goToStep } from './steps.mjs';
import { parseHash, changedKeys, isField } from '../../web/src/model/schema.js';
import { startState } from '../../web/src/lesson/chapters.js';

/** 'chapter/control' (any step of the chapter) → why it shows nothing today (who is fixing it). */
const KNOWN = {}; // empty since issue 37's last six (helper "silent"): a control that shows nothing fails

const LESSON = STEPS.filter((s) => s.chapter !== 'reference');
const WAIT_MS = 5000; // how long a control set back may take to show the step again (else the step's hash sets it back)
// How long a change may take to show (a run, a lab's request queued behind another, a redraw): only a control
// that shows nothing waits it all, so it is long enough for a loaded machine.
const CHANGE_WAIT_MS = 20000;

let h;
let page; // one page walks every chapter: each test goes to its steps by the hash, which wins over the form
before(async () => { h = await startHarness(); });
after(async () => { await page?.closeAll(); await h?.close(); });

/** What the step shows: each shown panel's text (menus' options left out) and a checksum of each shown canvas (in the page). */
function snapshotInPage() {
  const root = playgroundRoot();
  const out = {};
  for (const section of root.querySelectorAll('section[data-panel]:not([hidden])')) {
    const name = section.dataset.panel;
    if (name === 'exercises' || name === 'controls') continue; // the answers, and the form itself (its own messages and hints)
    const texts = [];
    const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || parent.closest('select, option, textarea, script, style') || !parent.checkVisibility()) continue;
      const t = n.textContent.trim();
      if (t) texts.push(t);
    }
    out[`${name} text`] = texts.join(' ');
    section.querySelectorAll('canvas').forEach((c, i) => {
      if (!c.checkVisibility() || !c.width || !c.height) return;
      let sum = 0;
      try {
        const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let k = 0; k < data.length; k += 3) sum = (sum * 31 + data[k]) >>> 0;
      } catch { sum = c.toDataURL().length; }
      out[`${name} canvas ${i}`] = `${c.width}x${c.height}:${sum}`;
    });
  }
  return out;
}
const snapshot = (page) => page.evaluate(snapshotInPage);

/** The parts of `now` that differ from `before` (names only). */
function changed(before, now) { return [...new Set([...Object.keys(before), ...Object.keys(now)])].filter((k) => before[k] !== now[k]); }

/**
 * A snapshot without what the machine measures for the run (its time, passes and rate, in the cost and
 * performance panels), which differs from one run of the same view to the next: for "the step shows again
 * what it showed", never for "something changed".
 */
function steady(snapshot) {
  const measured = /[\d.,]+ ?(?:[mµn]?s|[kMGT]?FLOP\/s)\b|timed over [\d,]+ passes?/g;
  return Object.fromEntries(Object.entries(snapshot).map(([k, v]) => [k, v.replace(measured, '#')]));
}

/**
 * Runs `body` in the page with the checks above (snapshotInPage, changed, steady, isChapterDrawn) and
 * `waitDrawn(ms)`, chapterDrawn(page, ms, { orIdle: true }) without its error: one round trip for a loop
 * that took four per look (a frame wait, the drawn wait, the snapshot, the pause).
 */
function inPage(page, body, arg) {
  return page.evaluate(`(async (arg) => {
    const snapshotInPage = ${snapshotInPage}, changed = ${changed}, steady = ${steady}, isChapterDrawn = ${isChapterDrawn};
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    const waitDrawn = async (ms) => { const until = performance.now() + ms; while (!isChapterDrawn(true) && performance.now() < until) await sleep(${POLL_MS}); };
    return (${body})(arg);
  })(${JSON.stringify(arg)})`);
}

/** The step's controls: { key (name or id), kind, values to set (as changes from the default) }. */
const controlsOf = (page) => page.evaluate(() => {
  const root = playgroundRoot();
  const shown = [...root.querySelectorAll('section[data-panel]:not([hidden]) :is(input, select)')]
    .filter((e) => e.checkVisibility() && !e.closest('[data-panel="exercises"], .figure-buttons') && !['file', 'hidden', 'submit', 'button'].includes(e.type));
  const out = [];
  const seen = new Set();
  for (const e of shown) {
    const key = e.name || e.id;
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const panel = e.closest('section').dataset.panel;
    const original = e.type === 'checkbox' ? String(e.checked) : e.type === 'radio' ? shown.find((r) => r.name === key && r.checked)?.value : e.value;
    if (e.tagName === 'SELECT') out.push({ key, panel, original, kind: 'select', values: [...e.options].filter((o) => !o.disabled && o.value !== e.value).map((o) => o.value) });
    else if (e.type === 'checkbox') out.push({ key, panel, original, kind: 'checkbox', values: [String(!e.checked)] });
    else if (e.type === 'radio') out.push({ key, panel, original, kind: 'radio', values: shown.filter((r) => r.name === key && !r.checked).map((r) => r.value) });
    else if (e.type === 'range') out.push({ key, panel, original, kind: e.type, values: [e.value === e.max ? 'down' : 'up'] });
    else if (e.type === 'number') out.push({ key, panel, original, kind: 'typed', values: [e.value] });
    else if (/numeric|decimal/.test(e.inputMode) && !e.readOnly && !e.disabled) out.push({ key, panel, original, kind: 'typed', decimal: e.inputMode === 'decimal', values: [e.value] });
  }
  return out;
});

/**
 * Sets control `c` to `value` as a learner would (events from the element); a typed number is stepped to
 * the first of ×2, +1, −1, ÷2 that the form accepts (no message beside it). `restore`: back to c.original.
 * Returns the value set.
 */
function setControl(page, c, value, restore = false) {
  return page.evaluate(async ({ c, value, restore }) => {
    const root = playgroundRoot();
    const all = [...root.querySelectorAll('section[data-panel]:not([hidden]) :is(input, select)')].filter((e) => (e.name || e.id) === c.key && e.checkVisibility());
    const fire = (e) => { e.dispatchEvent(new Event('input', { bubbles: true })); e.dispatchEvent(new Event('change', { bubbles: true })); };
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const e = all[0];
    if (!e) return '(gone)';
    if (c.kind === 'checkbox') { if (String(e.checked) !== (restore ? c.original : value)) e.click(); return String(e.checked); }
    if (c.kind === 'radio') { all.find((r) => r.value === (restore ? c.original : value))?.click(); return value; }
    if (restore || c.kind === 'select') { e.value = restore ? c.original : value; fire(e); return e.value; }
    if (c.kind === 'range') { if (value === 'up') e.stepUp(); else e.stepDown(); fire(e); return e.value; }
    const x = Number(value);
    const decimals = (String(value).split('.')[1] ?? '').length;
    const decimal = c.decimal || decimals > 0;
    const tries = [...new Set([x * 2, x + 1, x - 1, x / 2, ...(decimal ? [0.1, 0.5] : [])].filter((v) => v >= 0 && v !== x)
      .map((v) => (decimal ? String(Number(v.toFixed(Math.max(decimals, 1)))) : String(Math.round(v)))))].filter((t) => t !== String(value));
    for (const t of tries) {
      e.value = t;
      fire(e);
      await frames();
      const field = e.closest('.field');
      if (!field?.classList.contains('invalid') && e.checkValidity()) return t;
    }
    return `${e.value} (refused)`;
  }, { c, value, restore });
}

/** Waits until the step shows something other than `before` (true), or CHANGE_WAIT_MS passes with nothing new (false). */
function showsChange(page, before) {
  return inPage(page, async ({ before, waitMs }) => {
    const until = performance.now() + waitMs;
    while (performance.now() < until) {
      // Two frames, then a large problem that waits for Run (the form's Enter): press it once the run bar offers it.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const run = playgroundRoot().getElementById('run');
      if (run && !run.disabled && /Run to/i.test(playgroundRoot().getElementById('status')?.textContent ?? '')) run.click();
      // Drawn, or idle on a view that waits for Run (a large preset, a refused size, a failed run): before,
      // those waited all of WAIT_MS here although what they show was on screen (cost: 27 of its 100 s).
      await waitDrawn(waitMs);
      if (changed(before, snapshotInPage()).length) return true;
      await sleep(100);
    }
    return false;
  }, { before, waitMs: CHANGE_WAIT_MS });
}

/** The view a hash opens, as the page reads it (web/src/page/main.js's opening: the lesson's start unless the link gives heads). */
function viewOf(hash) {
  const { state } = parseHash(hash);
  return startState(state, String(hash).replace(/^#/, '').split('&').filter(Boolean).map((part) => part.split('=')[0]));
}

/**
 * After a control is set back: { again: 'shown', seen } once the step shows again exactly what it showed
 * when reached (`home`; the run's measured time and rate aside, see steady), `seen` being that snapshot (the
 * next control's `before`); 'other view' when the page's link opens another view than the step's (a change
 * that moved another field too), 'not shown' when WAIT_MS passed without `home`.
 */
async function showsAgain(page, where, home) {
  if (changedKeys(viewOf(await page.evaluate(() => location.hash)), viewOf(hashOf(where))).length) return { again: 'other view' };
  const { shown, differs, seen } = await inPage(page, async ({ home, waitMs }) => {
    const until = performance.now() + waitMs;
    let differs = [];
    while (performance.now() < until) {
      await waitDrawn(waitMs);
      const seen = snapshotInPage();
      const now = steady(seen);
      differs = changed(home, now).map((k) => [k, home[k], now[k]]);
      if (!differs.length) return { shown: true, seen };
      await sleep(100);
    }
    return { shown: false, differs };
  }, { home: steady(home), waitMs: WAIT_MS });
  if (!shown && process.env.VISIBLE_EFFECT_TIMES) console.log('differs', differs.map(([k, a, b]) => `${k}: ${String(a).slice(0, 300)} → ${String(b).slice(0, 300)}`));
  return shown ? { again: 'shown', seen } : { again: 'not shown' };
}

// One test per chapter (each well inside its time limit, and a failure names its chapter).
const CHAPTER_NAMES_WALKED = [...new Set(LESSON.map((s) => s.chapter))];
for (const chapter of CHAPTER_NAMES_WALKED) {
  test(`every control shown in a step of the chapter ${chapter} changes something visible in that step`, { timeout: 900000 }, () => walkChapter(chapter)); // 15 min: the full command runs it beside other files
}

async function walkChapter(chapter) {
  const steps = LESSON.filter((s) => s.chapter === chapter);
  const known = Object.fromEntries(Object.entries(KNOWN).filter(([k]) => k.startsWith(`${chapter}/`)));
  const started = Date.now();
  const silent = []; // 'chapter/control' that showed nothing
  const lines = [];
  page ??= await openPage(h, hashOf(LESSON[0]), { width: 1280, height: 800, asIs: true }); // the first step has the maps openPage waits for; goToStep goes on from there
  let tried = 0;
  const restoredBy = { controls: 0, hash: 0, nextStep: 0 };
  for (const where of steps) {
    await goToStep(page, where);
    const home = await snapshot(page); // what the step shows when reached
    let homeShows = true; // false once a control set back did not show `home` again: then the step's hash sets it back (a run more)
    const controls = await controlsOf(page);
    // What the step shows before the next control is set: `home` for the first; after a control set back, the
    // snapshot showsAgain found equal to `home` (taken after the step showed it again, as a new one would be);
    // null when the step was set back otherwise (a snapshot then).
    let shownNow = home;
    for (const [n, c] of controls.entries()) {
      const t0 = Date.now();
      const before = shownNow ?? await snapshot(page);
      shownNow = null;
      const none = [];
      for (const value of c.values) {
        tried++;
        const set = await setControl(page, c, value);
        if (!(await showsChange(page, before))) none.push(set);
      }
      if (none.length) {
        silent.push(`${where.chapter}/${c.key}`);
        lines.push(`${where.chapter} step ${where.step}: ${c.panel} ${c.kind} “${c.key}” set to ${none.join(', ')}: nothing visible changed${KNOWN[`${where.chapter}/${c.key}`] ? ' (KNOWN)' : ''}`);
      }
      if (process.env.VISIBLE_EFFECT_TIMES) console.log(`${where.chapter}/${c.key}: ${c.values.length} values in ${Date.now() - t0} ms`);
      // Back to the step as it was: the control to its first value; when that is not the step's view, shown as
      // when the step was reached, the link to the step's (the hash wins over the form).
      // A field's change that moved other fields too (a query cell's menus fill each other in, a mask its
      // sentence) is not undone by the field alone: the step's hash at once (one run of the engine, not two).
      // A panel's own control (not a field, not in the link) is always set back by hand.
      // The step's last control, a field, is not set back: the next step's hash (goToStep) sets every field it
      // moved (one run, not two); the chapter's next test reaches its own steps by their hash too. (A panel's own
      // control is not in the link: set back by hand, as below.)
      if (n === controls.length - 1 && isField(c.key)) { restoredBy.nextStep++; continue; }
      const moved = isField(c.key) ? changedKeys(viewOf(await page.evaluate(() => location.hash)), viewOf(hashOf(where))) : [];
      if (moved.some((key) => key !== c.key)) { restoredBy.hash++; await goToStep(page, where); continue; }
      await setControl(page, c, null, true);
      const { again, seen } = homeShows ? await showsAgain(page, where, home) : { again: 'not waited for' };
      if (again === 'shown') { restoredBy.controls++; shownNow = seen; } else if (again !== 'other view' && await page.evaluate(() => location.hash) === hashOf(where)) restoredBy.controls++;
      else { restoredBy.hash++; await goToStep(page, where); }
      if (again === 'not shown') { homeShows = false; console.log(`${hashOf(where)}: ${c.key} set back did not show the step as reached within ${WAIT_MS} ms`); }
    }
  }
  const unknown = silent.filter((k) => !known[k]);
  const nowPassing = Object.keys(known).filter((k) => !silent.includes(k));
  console.log(`visible_effect ${chapter}: ${tried} changes in ${steps.length} steps in ${((Date.now() - started) / 1000).toFixed(1)} s (set back by the control ${restoredBy.controls}, by the hash ${restoredBy.hash}, the step's last by the next step's hash ${restoredBy.nextStep})`);
  console.log(`controls that show nothing (${lines.length}):\n  ${lines.join('\n  ') || 'none'}`);
  console.log(`KNOWN (${Object.keys(known).length}):\n  ${Object.entries(known).map(([k, why]) => `${k}: ${why}${nowPassing.includes(k) ? ' — NOW PASSES: remove it from KNOWN' : ''}`).join('\n  ') || 'none'}`);
  assert.deepEqual(unknown, [], 'controls that show nothing and are not KNOWN (above)');
  assert.deepEqual(nowPassing, [], 'KNOWN entries that show something now: remove them from KNOWN');
}
