// Every step of every lesson chapter, and how a test reaches one: by the page's hash (`chapter=` and, once
// the schema has the `step` key, `step=`), on one page, waiting until the step is drawn. Shared by the
// tests that look at every step (cut_text, visible_effect).
import { CHAPTERS } from '../../web/src/lesson/chapters.js';
import { FIELDS } from '../../web/src/model/schema.js';
import { isChapterDrawn, POLL_MS } from './harness.mjs';

/** True once the schema has the `step` key; until then a chapter shows all its steps at once. */
export const HAS_STEP = FIELDS.some((f) => f.key === 'step');

/** { chapter, step (1-based) } for every step of every chapter, read from the chapters' data (one per chapter without the step key). */
export const STEPS = CHAPTERS.flatMap((c) => (HAS_STEP ? c.steps : c.steps.slice(0, 1)).map((s, i) => ({ chapter: c.name, step: i + 1 })));

/** The hash that shows a step. */
export const hashOf = ({ chapter, step }) => `#chapter=${chapter}${HAS_STEP ? `&step=${step}` : ''}`;

/** Waits a frame or two and a short pause: charts and maps follow their box on the next frames. */
export const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 150)))));

/**
 * Goes to a step by the hash and waits until it is drawn: the chapter current, its panels built and
 * drawn (chapterDrawn; not data-settled, which a chapter change after the exercises' stepper moved focus
 * can leave at '0' with every panel drawn), and its charts as wide as their boxes. Returns what is still
 * wrong after 5 s (charts wider than their box), as lines to report. One page.evaluate (it took five
 * round trips): each wait looks every POLL_MS, as chapterDrawn does, with the same time limits.
 */
export async function goToStep(page, where) {
  const arg = JSON.stringify({ hash: hashOf(where), ...where, poll: POLL_MS });
  const got = await page.evaluate(`(() => { const isChapterDrawn = ${isChapterDrawn}, chartsFollowInPage = ${chartsFollowInPage}; return (${goToStepInPage})(${arg}); })()`);
  if (got.failed) throw new Error(`${hashOf(where)} not drawn: ${got.failed}`);
  return wideLines(got.wide);
}

/** goToStep in the page (isChapterDrawn is harness.mjs's, given beside it): { failed: why } or { wide: charts }. */
async function goToStepInPage({ hash, chapter, step, poll }) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  /** Whether check() holds within ms, looking every `poll` ms (the first look at once). */
  const within = async (check, ms) => { for (const end = performance.now() + ms; ; await sleep(poll)) { if (check()) return true; if (performance.now() >= end) return false; } };
  location.hash = hash;
  const root = playgroundRoot();
  const there = () => {
    const dots = [...root.querySelectorAll('.step-dot')].filter((d) => d.checkVisibility());
    return root.querySelector('nav.chapters [aria-current="page"]')?.dataset.chapter === chapter
      && (!dots.length || root.querySelector('.step-dot[aria-current="step"]')?.dataset.step === String(step));
  };
  if (!(await within(there, 30000))) return { failed: 'its chapter and step not current within 30000 ms' };
  if (!(await within(() => isChapterDrawn(), 30000))) { // eslint-disable-line no-undef
    const seen = [...root.querySelectorAll('section[data-panel]:not([hidden])')]
      .map((s) => `${s.dataset.panel}${s.dataset.stale === '1' ? ' (stale)' : ''}: ${s.innerText.slice(0, 80).replace(/\s+/g, ' ')}`).join('; ');
    return { failed: `chapterDrawn not within 30000 ms (${seen})` };
  }
  return { wide: await chartsFollowInPage(poll) }; // eslint-disable-line no-undef
}

/**
 * In the page (given beside goToStepInPage, and run alone after a resize): a frame or two and a short pause
 * (charts and maps follow their box on the next frames), then up to 5 s, looking every `poll` ms, for every
 * shown chart to be as wide as its box. Returns the charts still wider than their box.
 */
async function chartsFollowInPage(poll) {
  const root = playgroundRoot();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 150))));
  const wide = () => [...root.querySelectorAll('.chart')].filter((box) => box.checkVisibility() && box.querySelector('.uplot'))
    .map((box) => ({ id: box.id, box: box.clientWidth, chart: Math.round(box.querySelector('.uplot').getBoundingClientRect().width) })).filter((c) => c.chart > c.box + 1);
  for (const end = performance.now() + 5000; performance.now() < end; await new Promise((r) => setTimeout(r, poll))) if (!wide().length) return [];
  return wide();
}

/** The lines goToStep and resizeStep report for charts wider than their box. */
const wideLines = (wide) => wide.map((c) => `chart #${c.id} drawn ${c.chart} px wide in a ${c.box} px box`);

/**
 * Resizes the page's window to `size` ({ width, height }) on the step it shows and waits as goToStep does
 * once a step is drawn (its charts following their box, at most 5 s). Returns what is still wrong (charts
 * wider than their box), as lines to report. For a test that looks at one step at several widths: one
 * visit of the step (its runs and its panels built once), not one per width.
 */
export async function resizeStep(page, size) {
  await page.setViewportSize(size);
  return wideLines(await page.evaluate(`(${chartsFollowInPage})(${POLL_MS})`));
}
