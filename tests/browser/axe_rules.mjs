// How the axe tests (axe.test.mjs, axe_frames.test.mjs) run axe-core, and wait for a state worth checking.
// A run of every rule costs 8-10 CPU-s on the page with every panel (colour-contrast about half), so no rule
// runs twice where its answer cannot change: a frame's nodes are judged in the frame whether axe runs there
// alone or from its host (iframes: true); only the rules that judge a document as a whole (contextRules)
// answer differently when it runs alone.
import { createRequire } from 'node:module';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Loads axe.min.js into `frame` (a page or a frame) once, configured with noHtml: a result's node then has no
 * copy of the element's markup (outerHTML, cut short), which these tests never read (a violation's line is its
 * rule, impact and target). Nothing else reads it: no rule's answer changes. A run from a host takes each
 * frame's every node (the passes too) with that copy: over two every-panel frames, 14.5 CPU-s a run with it and
 * 13.7 without (the second and later runs in a state; a document's first run costs ~5 CPU-s more either way).
 */
export async function injectAxe(frame) {
  if (await frame.evaluate(() => typeof globalThis.axe === 'object')) return;
  await frame.addScriptTag({ path: axePath });
  await frame.evaluate(() => globalThis.axe.configure({ noHtml: true }));
}

/** Readable lines (rule, impact, up to 6 targets) for axe's violations. */
export const violationLines = (violations) => violations.map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 6).map((n) => JSON.stringify(n.target)).join(' ')}`);

/** axe's violations in `frame`'s document as readable lines; `only`: the rules to run (axe's runOnly), else those axe runs by default. */
export async function violations(frame, { iframes = true, only } = {}) {
  await injectAxe(frame);
  const options = { iframes, resultTypes: ['violations'] };
  if (only) options.runOnly = { type: 'rule', values: only };
  return violationLines(await frame.evaluate(async (options) => (await globalThis.axe.run(document, options)).violations
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target })) })), options));
}

/**
 * The ids of the rules whose answer for a document depends on whether axe starts there or reaches it
 * from a host, read from the axe loaded in `frame`: rules of a whole page (pageLevel), rules whose checks
 * gather the nodes' results afterwards (an `after` step: landmark-unique, region, page-has-heading-one…),
 * and rules that match only in the document axe started in, or only in a frame (matches reading the
 * context's initiator, focusable or size: html-has-lang, document-title, frame-focusable-content…); of
 * those axe runs by default (enabled).
 */
export async function contextRules(frame) {
  await injectAxe(frame);
  return frame.evaluate(() => {
    const { rules, checks } = globalThis.axe._audit;
    const readsContext = (fn) => typeof fn === 'function' && /\.(initiator|focusable|size)\b/.test(String(fn));
    return rules.filter((r) => r.enabled !== false).filter((r) => r.pageLevel || readsContext(r.matches)
      || [...r.any, ...r.all, ...r.none].some((c) => { const check = checks[c.id ?? c]; return check?.after || readsContext(check?.evaluate); }))
      .map((r) => r.id);
  });
}

/**
 * Waits until every playground in `frame` shows `scheme` (its data-scheme: set on the media change, which
 * comes with a rendering step) and two more frames have been drawn (charts and canvases follow).
 */
export async function schemeShown(frame, scheme) {
  await frame.waitForFunction((scheme) => [...document.querySelectorAll('#playground, attention-playground')]
    .every((el) => el.shadowRoot?.querySelector('.ap')?.dataset.scheme === scheme), scheme, { polling: 100 });
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Waits until every playground in `frame` is settled with no panel marked stale (an off-screen panel behind
 * the last result is drawn at 0.45 opacity until it catches up: its text would fail colour-contrast), seen
 * twice 300 ms apart (a later result marks them stale again).
 */
export async function playgroundsCalm(frame, timeout = 30000) {
  const calm = () => [...document.querySelectorAll('#playground, attention-playground')]
    .every((el) => el.shadowRoot?.querySelector('.ap')?.dataset.settled === '1' && !el.shadowRoot.querySelector('.panel[data-stale="1"]'));
  const end = Date.now() + timeout;
  for (let held = 0; held < 2;) {
    if (Date.now() > end) throw new Error(`the playgrounds did not settle in ${timeout} ms`);
    held = (await frame.evaluate(calm)) ? held + 1 : 0;
    await frame.waitForTimeout(300);
  }
}
