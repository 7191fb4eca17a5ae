// Nothing cut (issue 37): in every step of every chapter, at 320, 375 and 1280 px, no select, button, table
// cell, label or cell-pick cell shows less than its text. An element counts as whole when its content fits
// its box (scrollWidth ≤ clientWidth) and no box that clips (overflow hidden or clip) hides part of it.
// A select: where its button wraps (appearance: base-select, playground/styles.css) nothing in it may
// overflow; elsewhere its chosen option must fit, and it must be as wide as its longest option or its row.
// Part of an element may sit out of sight in a box that scrolls sideways only when that box shows the
// scroll cue: a soft shadow at each edge beyond which more content lies (styles.css, "the scroll cue":
// background gradients attached to the content and to the box). The test checks the cue is declared on
// every such box and, once per width, that it is drawn (the box's right edge changes without it).
// A cell-pick grid's column headers must show their key's whole word (their title has it).
// One page: each step reached by the hash once (steps.mjs) and measured at each width, the window resized
// on it; each offender printed with its text, its width, the width it has, and the step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, chapterDrawn } from './harness.mjs';
import { STEPS, HAS_STEP, hashOf, goToStep, resizeStep } from './steps.mjs';

const WIDTHS = [320, 375, 1280];
let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/**
 * In the page: every shown select, button, th, td and label of the playground (or of `scope`, a selector)
 * that is cut, as { what, text, need, box, how }, and the scrollers whose hidden content carries the cue.
 */
function findCut(page, scope = null) {
  return page.evaluate((scope) => {
    const root = playgroundRoot();
    const base = scope ? root.querySelector(scope) : root;
    const vw = document.documentElement.clientWidth;
    const out = [];
    const cued = new Set();
    const parentOf = (el) => el.parentElement ?? (el.parentNode instanceof ShadowRoot ? el.parentNode.host : null);
    const unseen = (el) => { // text for screen readers only (1 px boxes that clip on purpose)
      for (let p = el; p && p !== root.host; p = parentOf(p)) if (p.classList?.contains('sr-only') || p.classList?.contains('ex-unseen')) return true;
      return false;
    };
    const hasCue = (p) => { const s = getComputedStyle(p); return /gradient/.test(s.backgroundImage) && /local/.test(s.backgroundAttachment); };
    const describe = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
    /** A select's width with only `options` in it (a copy sized by its content, measured beside it). */
    const selectNeed = (el, options) => {
      const copy = el.cloneNode(false);
      copy.append(...options.map((o) => o.cloneNode(true)));
      copy.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;left:0;top:0';
      el.parentNode.append(copy);
      const w = copy.getBoundingClientRect().width;
      copy.remove();
      return w;
    };
    /** The width a select could take: its form row's (the field's box that lays the fields out). */
    const rowWidth = (el) => {
      const row = el.closest('.grid2, fieldset, form, .panel-body') ?? el.parentElement;
      const s = getComputedStyle(row);
      return row.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    };
    const hidden = new Map(); // scroller → what it hides with no cue
    const overflowOf = new Map(); // element → its computed overflow-x (read once per element)
    const overflowX = (p) => { if (!overflowOf.has(p)) overflowOf.set(p, getComputedStyle(p).overflowX); return overflowOf.get(p); };
    for (const el of base.querySelectorAll('select, button, th, td, label')) {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false }) || unseen(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      const panel = el.closest('section[data-panel]')?.dataset.panel ?? el.closest('nav, .chapter-intro, .runbar')?.className ?? '';
      const near = el.parentElement?.closest('[id]');
      const what = `${panel ? `${panel} ` : ''}${describe(el)}${near && !el.id ? ` in #${near.id}` : ''}`;
      if (el.tagName === 'SELECT') {
        // A menu that cannot wrap: what is read now (the chosen option) must show whole, and the menu is as
        // wide as its longest option, or as its whole row when that option is longer still.
        // A menu whose button wraps (appearance: base-select) shows its chosen option whole when nothing overflows.
        if (getComputedStyle(el).appearance === 'base-select') {
          if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) out.push({ what, text: el.selectedOptions[0]?.text ?? '', need: el.scrollWidth, box: el.clientWidth, how: 'its chosen option overflows the menu' });
          continue;
        }
        const chosen = el.selectedOptions[0];
        const now = chosen ? selectNeed(el, [chosen]) : 0;
        const longest = selectNeed(el, [...el.options]);
        const text = `${chosen?.text ?? ''}`;
        if (now > r.width + 1) out.push({ what, text, need: Math.round(now), box: Math.round(r.width), how: 'its chosen option is cut' });
        else if (Math.min(longest, rowWidth(el)) > r.width + 1) out.push({ what, text: [...el.options].reduce((a, o) => (o.text.length > a.length ? o.text : a), ''), need: Math.round(Math.min(longest, rowWidth(el))), box: Math.round(r.width), how: 'narrower than its longest option and its row' });
        continue;
      }
      const text = el.innerText.trim().replace(/\s+/g, ' ').slice(0, 60);
      if (el.scrollWidth > el.clientWidth + 1 && !/auto|scroll/.test(getComputedStyle(el).overflowX)) {
        out.push({ what, text, need: el.scrollWidth, box: el.clientWidth, how: 'content wider than its box' });
        continue;
      }
      let inBox = false;
      for (let p = parentOf(el); p; p = parentOf(p)) {
        const x = overflowX(p);
        if (x === 'visible') continue;
        const pr = p.getBoundingClientRect();
        const left = pr.left + p.clientLeft, right = left + p.clientWidth;
        if (r.right <= right + 1 && r.left >= left - 1) continue;
        inBox = true;
        const scrolls = (x === 'auto' || x === 'scroll') && p.scrollWidth > p.clientWidth;
        if (scrolls && hasCue(p)) cued.add(p);
        else if (scrolls) {
          if (!hidden.has(p)) hidden.set(p, { what: `${panel ? `${panel} ` : ''}${describe(p)}`, texts: [], count: 0, need: p.scrollWidth, box: p.clientWidth });
          const e = hidden.get(p);
          e.count++;
          if (text && e.texts.length < 4) e.texts.push(text);
        } else out.push({ what, text, need: Math.round(r.width), box: Math.round(p.clientWidth), how: `clipped by ${describe(p)}` });
        break;
      }
      if (!inBox && r.right > vw + 1) out.push({ what, text, need: Math.round(r.right), box: vw, how: 'past the window' });
    }
    for (const e of hidden.values()) out.push({ what: e.what, text: e.texts.join(' | '), need: e.need, box: e.box, how: `a scroller with no cue hides ${e.count} cells, buttons or labels` });
    // Each cued scroller: its right edge (8 px) must look different once its cue is taken away.
    const scrollers = [...cued].map((p) => { p.dataset.cueProbe = String(cued.size); return describe(p); });
    return { cut: out, scrollers };
  }, scope);
}

/** True when the first cued scroller's edge changes when its cue is removed (the cue is drawn, not only declared). */
async function cueIsDrawn(page) {
  const probe = page.locator('[data-cue-probe]').first();
  if (!(await probe.count())) return null;
  await probe.scrollIntoViewIfNeeded();
  await probe.evaluate((p) => { p.scrollLeft = 0; }); // more content to the right: the right shadow shows
  const box = await probe.boundingBox();
  const clip = { x: box.x + box.width - 8, y: box.y, width: 8, height: Math.min(box.height, 200) };
  const withCue = await page.screenshot({ clip });
  await probe.evaluate((p) => { p.style.backgroundImage = 'none'; });
  const without = await page.screenshot({ clip });
  await probe.evaluate((p) => { p.style.backgroundImage = ''; });
  return !withCue.equals(without);
}

/** The cell-pick grids shown: a column header that shows less than its key's word (the title holds the whole word). */
const cutHeaders = (page) => page.evaluate(() => [...playgroundRoot().querySelectorAll('.ex-grid thead th[title]')]
  .filter((th) => th.checkVisibility()).map((th) => ({ shown: th.innerText.trim(), word: th.title.replace(/ \(\d+\)$/, '') }))
  .filter(({ shown, word }) => shown !== word));

/**
 * Every step, each at every width, on one page: a step is reached by the hash once (its runs and panels
 * built once) and measured at each width in turn, the window resized on it (resizeStep: its charts follow
 * their box, as goToStep waits). The widths go in a snake (320, 375, 1280 at one step, 1280, 375, 320 at
 * the next), so every other step is reached at 320 px and the others at 1280 px, each with one resize less.
 * Returns { offenders, cues } (lines to print).
 */
async function checkSteps(times) {
  const offenders = [];
  const cues = [];
  const page = await openPage(h, hashOf(STEPS[0]), { width: WIDTHS[0], height: 800, asIs: true });
  const cueChecked = new Set(); // the widths whose scroll cue has been checked (once per width)
  let widths = WIDTHS;
  let t = Date.now();
  await chapterDrawn(page);
  times.drawing += Date.now() - t;
  for (const [k, where] of STEPS.entries()) {
    for (const [i, width] of widths.entries()) {
      t = Date.now();
      // The first width: the step reached there (the first step is open already); the others: a resize.
      const late = i > 0 ? await resizeStep(page, { width, height: 800 }) : k > 0 ? await goToStep(page, where) : [];
      times.drawing += Date.now() - t;
      t = Date.now();
      for (const c of late) offenders.push(`${width} px, ${where.chapter} step ${where.step}: ${c}`);
      await checkStepAt(page, where, width, { offenders, cues, cueChecked });
      times.measuring += Date.now() - t;
    }
    widths = [...widths].reverse();
  }
  assert.deepEqual(page.problems, [], "the page's problems");
  await page.closeAll();
  return { offenders, cues };
}

/** The step shown, at the window's width now: its cut elements, each exercise's card, the scroll cue once per width. */
async function checkStepAt(page, where, width, { offenders, cues, cueChecked }) {
  const at = `${width} px, ${where.chapter} step ${where.step}`;
  const report = (cut) => cut.forEach((o) => offenders.push(`${at}: ${o.what} “${o.text}” needs ${o.need} px, has ${o.box} px (${o.how})`));
  const first = await findCut(page);
  report(first.cut);
  cues.push(...first.scrollers.map((s) => `${at}: ${s}`));
  // Each exercise of the step (one card at a time behind the stepper): its card, and a cell-pick grid's headers.
  const marks = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.ex-marks button')].filter((b) => b.checkVisibility()).map((b) => b.dataset.mark));
  for (const mark of marks) {
    await page.evaluate((id) => playgroundRoot().querySelector(`.ex-marks button[data-mark="${id}"]`).click(), mark);
    const card = await findCut(page, `[data-panel="exercises"]`);
    report(card.cut.map((o) => ({ ...o, what: `${o.what} (exercise ${mark})` })));
    for (const c of await cutHeaders(page)) offenders.push(`${at}: exercise ${mark}: cell-pick header “${c.shown}” for the key “${c.word}”`);
  }
  if (!cueChecked.has(width) && first.scrollers.length) {
    const drawn = await cueIsDrawn(page);
    cueChecked.add(width);
    if (drawn === false) offenders.push(`${at}: the scroll cue of ${first.scrollers[0]} draws nothing at its edge`);
  }
  await page.evaluate(() => playgroundRoot().querySelectorAll('[data-cue-probe]').forEach((p) => delete p.dataset.cueProbe));
}

// 6 min: one page walks the steps at the three widths in turn (they were three pages side by side), ~75 s at a load of 11.
test('no select, button, table cell, label or cell-pick cell is cut in any step at 320, 375 or 1280 px', { timeout: 360000 }, async () => {
  const started = Date.now();
  const offenders = [];
  const cues = [];
  const times = { drawing: 0, measuring: 0 }; // ms
  const all = await checkSteps(times);
  offenders.push(...all.offenders);
  cues.push(...all.cues);
  console.log(`cut_text: ${STEPS.length} steps × ${WIDTHS.length} widths in ${((Date.now() - started) / 1000).toFixed(1)} s (${(times.drawing / 1000).toFixed(1)} s drawing steps, ${(times.measuring / 1000).toFixed(1)} s measuring); ${HAS_STEP ? 'steps by the step key' : 'one step per chapter (no step key yet)'}`);
  console.log(`scrollers with hidden content and their cue (${cues.length}):\n  ${[...new Set(cues)].join('\n  ') || 'none'}`);
  console.log(`offenders (${offenders.length}):\n  ${offenders.join('\n  ') || 'none'}`);
  assert.deepEqual(offenders, [], 'cut elements (above)');
});
