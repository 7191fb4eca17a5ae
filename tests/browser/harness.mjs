// Shared set-up of the browser tests: dist/ served by scripts/serve.mjs on 127.0.0.1, Debian's
// Chromium driven by playwright-core, and pages that record console errors and every request made.
import { loadPlaywright } from './code_cache.mjs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { serve } from '../../scripts/serve.mjs';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { CHAPTERS } from '../../web/src/lesson/chapters.js';
import { treeCpu, reapedCpu, sum } from './cpu.mjs';

const { chromium } = loadPlaywright();

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const screenshotDir = join(root, 'tests/browser/screenshots');

/**
 * Debian's chromium-headless-shell (package chromium-headless-shell, the same Chromium version as the
 * chromium package): the same Blink and V8 without the desktop browser's window, tabs and UI around each
 * page, which the tests never look at. On modes+heads+kvmap its browser process took 2.7 CPU-s against
 * 7.0 for the full browser, the GPU process 2.9 against 3.5, the renderers the same (2026-11-29).
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * How every test's Chromium starts (a lane's of tests/browser/run.mjs, or a file's own): the
 * headless shell when it is installed, else Debian's chromium; CHROMIUM=path names another.
 */
export const LAUNCH_OPTIONS = {
  ...chromiumLaunchOptions(),
  ...(process.env.CHROMIUM === undefined && existsSync(HEADLESS_SHELL) ? { executablePath: HEADLESS_SHELL } : {}),
};

/**
 * Starts the server on a free port and the browser; call the returned close() in after(). In a lane of
 * tests/browser/run.mjs (ATTN_BROWSER_LANE set) the browser is the lane's, launched by its first file and
 * shared by the files after it (see laneBrowser): close() then closes only the contexts this file made.
 * Alone (`node --test FILE`), the file launches a browser of its own and close() closes it.
 */
export async function startHarness() {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error('dist/ is missing: run `bash scripts/build.sh dist` first');
  const server = await serve({ dir: dist, port: 0 });
  await mkdir(screenshotDir, { recursive: true });
  const idle = []; // pages a test has closed that openPage(…, { reuse: true }) may load again (see there)
  if (process.env.ATTN_BROWSER_LANE) {
    let browser;
    try {
      browser = await laneBrowser();
      // Files run one at a time in a lane: a context still open now is one an earlier file's `after` left.
      await Promise.allSettled(browser.contexts().map((c) => c.close()));
    } catch (error) {
      await server.close();
      throw error;
    }
    const close = async () => {
      try { await Promise.allSettled(browser.contexts().map((c) => c.close())); } finally { await server.close(); }
    };
    return { url: server.url, browser, idle, close };
  }
  const browser = await chromium.launch(LAUNCH_OPTIONS);
  return { url: server.url, browser, idle, close: async () => { await browser.close(); await server.close(); } };
}

/**
 * The lane's browser: launched once per lane process (again if it was lost), in this process, so that
 * Playwright's messages go from the test to Chromium without a hop through another process. lane.mjs
 * closes it after the lane's last file, through the function this puts on globalThis[LANE_BROWSER]: that
 * reads the CPU its processes used first (cpu.mjs), which the runner cannot read once they are gone.
 */
let lanes = null;
const LANE_BROWSER = Symbol.for('attention-playground.lane-browser');
async function laneBrowser() {
  const browser = await lanes?.catch(() => null); // a launch that failed is tried again by the next file
  if (browser?.isConnected()) return browser;
  lanes = chromium.launch(LAUNCH_OPTIONS);
  const launched = await lanes;
  globalThis[LANE_BROWSER] = async () => {
    const byKind = treeCpu({ withRoot: false })?.byKind ?? {};
    const before = reapedCpu();
    await launched.close();
    const reaped = (reapedCpu() ?? 0) - (before ?? 0);
    // What close() reaped beyond everything read before it (the browser's own shutdown) counts as the
    // browser's; never more (what it reaped may be only part of what was read: the zygote's renderers are not).
    byKind.browser = (byKind.browser ?? 0) + Math.max(0, reaped - sum(byKind));
    return { byKind, reaped };
  };
  return launched;
}

/**
 * A browser context whose pages have `playgroundRoot(i)`: the shadow root of the i-th playground (the
 * page's #playground or an <attention-playground>), where tests look for what a playground shows.
 */
export async function newContext(h, options) {
  const context = await h.browser.newContext(options);
  await context.addInitScript(() => {
    globalThis.playgroundRoot = (i = 0) => document.querySelectorAll('#playground, attention-playground')[i]?.shadowRoot ?? null;
  });
  return context;
}

/**
 * A second origin: `files` ({ name: text }) written to a temporary folder and served on another port of
 * 127.0.0.1 (another port is another origin). Returns { url, close() }.
 */
export async function serveSite(files) {
  const dir = await mkdtemp(join(tmpdir(), 'attention-site-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const server = await serve({ dir, port: 0 });
  return { url: server.url, close: async () => { await server.close(); await rm(dir, { recursive: true, force: true }); } };
}

/**
 * How often the harness's waits for a lasting state (a result, a drawn chapter or step) look, in ms.
 * Playwright's default looks on every animation frame, which makes a waiting page draw 60 frames a second
 * and rerun the check each time: on the page with every panel 0.4 of a core while it waits, against 0.1
 * looking every 100 ms. A state that lasts is seen either way, at most this much later. A test's own
 * waits keep the default (some catch a state that lasts a frame or two), except the long ones for a state
 * that lasts (a result, a finished import, a training's step count), which pass `polling: POLL_MS`.
 */
export const POLL_MS = 100;

/**
 * A page at `hash`. `page.problems` collects console errors and warnings, page errors and failed requests;
 * `page.requests` every URL the page or its worker asked for. By default (`reuse`, see openUrl) a page of this
 * file that a test has closed (page.closeAll()) is loaded again instead of a new context: a new document at
 * `hash` in a tab that held another, ~0.8 of the ~1.2 CPU-s an open in a new context costs.
 */
export async function openPage(h, hash = '', options = {}) {
  return openUrl(h, h.url + (options.asIs ? hash : referenceHash(hash)), options);
}

/**
 * The page opens on the lesson's first chapter; the tests written for the one long page (every panel,
 * random heads) ask for it by name: a hash that names no chapter and no panels gets chapter=reference,
 * which is that page. `asIs: true` (openPage's option) opens the hash as given.
 */
export function referenceHash(hash) {
  const body = String(hash).replace(/^#/, '');
  if (/(^|&)(chapter|panels)=/.test(body)) return hash;
  // With no other key, `heads=` (random, the schema's default) keeps the lesson's constructed heads away.
  return `#${body || 'heads='}&chapter=reference`;
}

/**
 * Whether pages are reused when a test does not say: yes, unless ATTN_REUSE_PAGES=0 (every open then gets a new
 * context, to compare). A reused tab is warm (HTTP and code cache), so a page's code arrives in another order
 * than in a first visit: that found two product races a first visit rarely shows (an export asked before the
 * engine was ready, an iframe asked its size before it loaded), fixed in the product, not hidden here.
 */
const REUSE_PAGES = process.env.ATTN_REUSE_PAGES !== '0';

/** The harness's own per-page state, out of the tests' way: origins asked, taint, its listeners. */
const OWN = Symbol('harness');

/**
 * As openPage, at any URL. `init` is a script run in the page's every document before its own (removed again
 * when the page is put aside). `reuse` (default true; false with ATTN_REUSE_PAGES=0): the page may be one a test of
 * this file closed, loaded again (reusablePage), and closeAll() puts it aside for the next open (putAside).
 * `reuse: false` is for a test that needs what only a new context has: a first visit's cold HTTP and code
 * cache, a tab with no history; its page is closed with its context. A test that changes its page or
 * context in a way that cannot be undone (permissions, its own init scripts, context routes, a second
 * page…) is seen doing so (watchForTaint) and its page closed instead of reused, with no option needed.
 * After closeAll() a test must not touch its page again: the next test may be using it.
 */
export async function openUrl(h, url, { width = 1280, height = 900, colorScheme = 'light', waitForResult = true, init, reuse = REUSE_PAGES } = {}) {
  let page = reuse ? await reusablePage(h, { width, height, colorScheme }) : null;
  if (!page) {
    const context = await newContext(h, { viewport: { width, height }, colorScheme });
    page = await context.newPage();
    const own = { origins: new Set(), navigations: new WeakMap(), tainted: null, listeners: null, cdp: null, aside: false, init: null };
    page[OWN] = own;
    // Warnings count too: a preload never used or a deprecated API is something to fix, not ignore.
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') page.problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
    context.on('request', (r) => {
      page.requests.push(r.url());
      own.origins.add(URL.parse(r.url())?.origin);
      noteRequest(page, r);
    });
    page.on('framenavigated', (frame) => { const nav = own.navigations.get(frame); if (nav) nav.pending = false; });
    context.on('requestfailed', (r) => {
      if (!abortedByNavigation(r)) page.problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
    });
    // Every listener there is now (the harness's and Playwright's own) stays; a test's are removed (putAside).
    own.listeners = new Set([page, context].flatMap((t) => t.eventNames().flatMap((e) => t.listeners(e))));
    if (reuse) watchForTaint(page);
  }
  page.problems = [];
  page.requests = [];
  // Through the prototype: the harness's own init script, which putAside removes, taints nothing.
  if (init) page[OWN].init = await Object.getPrototypeOf(page).addInitScript.call(page, init);
  await page.goto(url);
  if (waitForResult) await resultReady(page);
  page.closeAll = reuse ? () => putAside(h, page) : () => page.context().close();
  return page;
}

/** The frame a request belongs to (the page's main frame for the few Chromium makes itself, such as the icon). */
function frameOf(page, request) {
  try { return request.frame(); } catch { return page.mainFrame(); }
}

/**
 * Notes, for abortedByNavigation, how many navigations the request's frame had started when the request began,
 * and whether one was under way (started, its document not yet in place): until then the old document runs
 * on and may start loads that the new one's arrival will abort.
 */
function noteRequest(page, request) {
  const frame = frameOf(page, request);
  let nav = page[OWN].navigations.get(frame);
  if (!nav) page[OWN].navigations.set(frame, nav = { started: 0, pending: false });
  if (request.isNavigationRequest()) { nav.started += 1; nav.pending = true; }
  request[OWN] = { nav, started: nav.started, duringNavigation: nav.pending && !request.isNavigationRequest() };
}

/**
 * Whether a failed request was cut short because its frame went on to another document: a reload or a goto
 * aborts the old document's loads (the page's icon among them, which failed modes.test's reload once in CI;
 * a worker script the old document asked for while the reload was on its way, likewise). That is the
 * navigation's doing, not a failure of the page; any other failure, and an abort with no navigation after
 * the request, still counts.
 */
function abortedByNavigation(request) {
  if (request.failure()?.errorText !== 'net::ERR_ABORTED' || !request[OWN]) return false;
  // The frame's record as the request began (not looked up again: by now the frame may be gone, or a popup's).
  const { nav, started, duringNavigation } = request[OWN];
  return duringNavigation || nav.started !== started;
}

/**
 * What a test may change in its page or context that putAside cannot undo: calling any of these marks the
 * page, which is then closed, not reused. (Routes of the page, its size, colour scheme and media, timeouts,
 * cookies and storage are undone; listeners a test added to the page or context are removed.)
 */
const TAINTING = {
  page: ['addInitScript', 'exposeFunction', 'exposeBinding', 'setExtraHTTPHeaders', 'routeFromHAR', 'routeWebSocket', 'addLocatorHandler'],
  context: ['addInitScript', 'exposeFunction', 'exposeBinding', 'route', 'routeFromHAR', 'routeWebSocket', 'grantPermissions',
    'clearPermissions', 'setGeolocation', 'setOffline', 'setExtraHTTPHeaders', 'setHTTPCredentials', 'setDefaultTimeout',
    'setDefaultNavigationTimeout', 'newPage'],
  clock: ['install', 'fastForward', 'pauseAt', 'resume', 'runFor', 'setFixedTime', 'setSystemTime'],
};

/** Wraps the page's, its context's and its clock's TAINTING methods so that calling one marks the page. */
function watchForTaint(page) {
  const targets = { page, context: page.context(), clock: page.clock };
  for (const [name, methods] of Object.entries(TAINTING)) {
    const target = targets[name];
    for (const method of methods) {
      const original = target[method];
      if (typeof original !== 'function') continue;
      target[method] = function (...args) {
        page[OWN].tainted ??= `${name}.${method}`;
        return original.apply(this, args);
      };
    }
  }
}

/**
 * A page of `h.idle` (closed by a test that opened it with `reuse`), ready for a new document: the size and
 * colour scheme asked for, no other media emulated, the default timeouts. What the last document left is
 * gone (putAside). What stays is the tab's: its history (Back past the new document's first entry leads to
 * the empty document putAside left), the HTTP cache, the context's compiled code.
 */
async function reusablePage(h, { width, height, colorScheme }) {
  const page = h.idle?.pop();
  if (!page) return null;
  page[OWN].aside = false;
  const size = page.viewportSize();
  if (size?.width !== width || size?.height !== height) await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme, reducedMotion: null, forcedColors: null, contrast: null, media: null });
  page.setDefaultTimeout(30000);
  page.setDefaultNavigationTimeout(30000);
  return page;
}

/**
 * The document putAside empties a page on: nothing in it but the reset of what a tab keeps across documents,
 * and an icon of its own (data:), so that Chromium does not ask the server for /favicon.ico, whose 404 could
 * log its console error after the next test's open had cleared page.problems (training.test failed so once).
 */
const BLANK = '<!doctype html><title>emptied</title><link rel="icon" href="data:,"><script>window.name = "";</script>';

/**
 * What closeAll() does to a page opened with `reuse`: its document unloaded, its workers gone, localStorage,
 * sessionStorage, IndexedDB, caches, service workers and cookies of every origin it asked anything of
 * cleared, window.name reset, the listeners a test added removed, the mouse released and moved off the window; then it
 * waits in `h.idle` for the next open. A page that cannot be cleaned, or that a test tainted
 * (watchForTaint) or gave a second page in its context (a popup), is closed with its context.
 */
async function putAside(h, page) {
  const own = page[OWN];
  if (own.aside) return; // closed twice (a finally and an after): it is in h.idle once
  own.aside = true;
  const context = page.context();
  try {
    if (own.tainted) throw new Error(`tainted by ${own.tainted}`);
    if (context.pages().length !== 1) throw new Error('other pages in the context');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    // An empty document of the page's own origin, answered here (no request reaches a server, none fails:
    // a 404's console error could reach the next test's page.problems): the same renderer process, where
    // about:blank would start a new process, and the next page another (0.1 CPU-s each).
    const at = URL.parse(page.url())?.origin;
    if (/^https?:/.test(at ?? '')) {
      const blank = `${at}/attention-harness-blank`;
      await page.route(blank, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: BLANK }));
      await page.goto(blank);
      await page.unroute(blank);
    } else {
      await page.goto('about:blank');
    }
    await own.init?.dispose();
    own.init = null;
    removeTestListeners(page, own);
    await page.mouse.up(); // a button a test left pressed (released in the empty document, which has no handler)
    await page.mouse.move(-1, -1);
    for (let i = 0; i < 100 && page.workers().length; i++) await page.waitForTimeout(20);
    if (page.workers().length) throw new Error('workers left');
    own.cdp ??= await context.newCDPSession(page); // kept for the page's next putAside
    for (const origin of own.origins) {
      if (/^https?:/.test(origin ?? '')) await own.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    }
    await context.clearCookies();
    if (context.serviceWorkers().length) throw new Error('service workers left');
    own.origins.clear();
    h.idle.push(page);
  } catch {
    await context.close();
  }
}

/** Removes every listener of the page and its context that was not there when openUrl made the page. */
function removeTestListeners(page, own) {
  for (const target of [page, page.context()]) {
    for (const event of target.eventNames()) {
      for (const fn of target.listeners(event)) if (!own.listeners.has(fn)) target.off(event, fn);
    }
  }
}

/** Waits until the run bar reports a current result (not running, not stale) and every shown panel is built. */
export async function resultReady(page, timeout = 30000) {
  await page.waitForFunction(() => {
    const root = playgroundRoot();
    const status = root?.getElementById('status')?.textContent ?? '';
    const body = root?.querySelector('[data-panel="heatmaps"] .panel-body');
    return status.startsWith('Ran in') && body?.dataset.stale === '0' && root.querySelector('.ap')?.dataset.settled === '1';
  }, null, { timeout, polling: POLL_MS });
}

/**
 * Waits up to `timeout` ms until the iframe `selector` in `page` is as tall as its content (read in `frame`,
 * its document, which may be of another origin) within `tolerance` px, and returns the last look:
 * { content, frame } (px). The content's height is read again at each look: a late font or panel moves it,
 * and the frame must follow.
 */
export async function frameFollowsContent(page, selector, frame, { tolerance = 2, timeout = 15000 } = {}) {
  const look = async () => ({ content: await frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height)),
    frame: await page.$eval(selector, (el) => el.getBoundingClientRect().height) });
  let seen = await look();
  for (const until = Date.now() + timeout; Math.abs(seen.frame - seen.content) > tolerance && Date.now() < until;) {
    await page.waitForTimeout(POLL_MS);
    seen = await look();
  }
  return seen;
}

/**
 * Presses the training lab's Pause and waits until it is paused with no request out (the status's
 * data-busy, set by the lab's run): the step count it resolves to no longer moves, however slow the host.
 */
export async function pauseLab(page, timeout = 60000) {
  await page.click('#train-play');
  await page.waitForFunction(() => {
    const root = playgroundRoot();
    return root.getElementById('train-play')?.getAttribute('aria-pressed') === 'false' && root.getElementById('train-status')?.dataset.busy === '0';
  }, null, { timeout, polling: POLL_MS });
  return page.evaluate(() => Number(playgroundRoot().getElementById('train-status').dataset.steps));
}

/**
 * Waits until a chapter is drawn: the result current where the chapter shows its maps, every shown panel
 * built, and the figures panels ask the engine for themselves (FlashAttention, the training lab) drawn too.
 * `orIdle: true` also accepts a view the page will not run by itself (see below) instead of a new result.
 */
export async function chapterDrawn(page, timeout = 30000, { orIdle = false } = {}) {
  await page.waitForFunction(isChapterDrawn, orIdle, { timeout, polling: POLL_MS });
}

/**
 * chapterDrawn's check, run in the page (no closure: Playwright sends its source): whether the chapter is
 * drawn now. For a test that looks in the page itself (several checks in one page.evaluate).
 */
export function isChapterDrawn(orIdle = false) {
  const root = playgroundRoot();
  const maps = root?.querySelector('section[data-panel="heatmaps"]');
  if (!maps) return false;
  const current = maps.hidden || maps.querySelector('.panel-body').dataset.stale === '0';
  const sections = [...root.querySelectorAll('section[data-panel]:not([hidden])')];
  const built = sections.every((s) => s.querySelector('.panel-body').childElementCount > 0 && s.dataset.stale !== '1');
  const status = root.getElementById('status');
  const text = status?.textContent ?? '';
  // orIdle: a view that will not run by itself is done too (the run bar idle on "Press Run (estimated …)",
  // "Analysed, not run" or an error): nothing more comes until someone presses Run or edits.
  const idle = orIdle && status?.closest('.runbar')?.dataset.state !== 'running'
    && (status.dataset.kind === 'error' || /^(Press Run \(|Analysed, not run)/.test(text));
  if (!((text.startsWith('Ran in') || idle) && current && built)) return false;
  // Last: a panel still waiting for its figures, in the text shown (innerText, which lays the page out),
  // read only from a panel whose text holds those words at all (textContent, no layout).
  const waiting = /Waiting for the engine|Computing…|Loading|Measuring d_k/;
  return !sections.some((s) => waiting.test(s.textContent) && waiting.test(s.innerText));
}

/**
 * Whether the tests save their screenshots (pictures for a person; no test reads them): with
 * ATTN_SCREENSHOTS=1 only. A screenshot costs Chromium 0.4 CPU-s (the window) to 2.8 CPU-s (the whole
 * reference page, 20,000 px tall), and the full test command took ~50 of them, on every run, for no check.
 */
export const SAVE_SCREENSHOTS = process.env.ATTN_SCREENSHOTS === '1';

/**
 * Saves a screenshot of the page (or of `options.of`, a locator) and prints where, so a person can look at
 * it; returns its path, or null when screenshots are not saved (SAVE_SCREENSHOTS).
 */
export async function screenshot(page, name, { of, ...options } = {}) {
  if (!SAVE_SCREENSHOTS) return null;
  const path = join(screenshotDir, `${name}.png`);
  await (of ?? page).screenshot({ path, ...options });
  console.log(`screenshot: ${path}`);
  return path;
}

/**
 * A notebook cell, the page a notebook front end makes: dist/attention-playground.js's widget (`a` is the
 * URL dist/ is served at) rendered with a stand-in for an anywidget model holding `data`. The stand-in is
 * Backbone-like, as anywidget's: get/set, on/off('change:key') (set and fromKernel fire it), save_changes
 * (keeps a JSON copy of the traits, as the kernel would get them, in model.saved), and listenerCount().
 * The page keeps window.model and window.cleanup (what render() returned). Shared by the widget's tests.
 */
export const notebookPage = (a, data) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A notebook cell</title><link rel="icon" href="data:,"></head>
<body><div id="cell"></div>
<script type="module">
  import widget from '${a}attention-playground.js';
  class StandInModel {
    constructor(data) { this.data = { ...data }; this.handlers = new Map(); this.saved = []; }
    get(key) { return this.data[key]; }
    set(key, value) { this.data[key] = value; this.#fire(key); }
    on(event, fn) { if (!this.handlers.has(event)) this.handlers.set(event, new Set()); this.handlers.get(event).add(fn); }
    off(event, fn) { this.handlers.get(event)?.delete(fn); }
    save_changes() { this.saved.push(JSON.parse(JSON.stringify(this.data))); }
    /** A change made on the kernel's side (Python set a trait). */
    fromKernel(key, value) { this.data[key] = value; this.#fire(key); }
    listenerCount() { let n = 0; for (const set of this.handlers.values()) n += set.size; return n; }
    #fire(key) { for (const fn of this.handlers.get('change:' + key) ?? []) fn(); }
  }
  window.model = new StandInModel(${JSON.stringify(data)});
  window.cleanup = widget.render({ model: window.model, el: document.getElementById('cell') });
</script></body></html>`;

/** The step (1-based) of `chapter` that places exercise `id` (issue 37); 1 when its steps place none. */
export function stepPlacing(chapter, id) {
  const steps = CHAPTERS.find((c) => c.name === chapter)?.steps ?? [];
  return Math.max(1, steps.findIndex((s) => s.exercises?.includes(id)) + 1);
}

/** The page's hash that opens exercise `id` of `chapter`: the chapter at the step that places it. */
export const exerciseHash = (chapter, id) => `#chapter=${chapter}${stepPlacing(chapter, id) > 1 ? `&step=${stepPlacing(chapter, id)}` : ''}`;

/**
 * Shows exercise `id`'s card in the page's playground: waits for the lazily built exercises panel to
 * hold it, then clicks its mark when the step shows several exercises (one alone has no marks).
 */
export async function showExercise(page, id, timeout = 60000) {
  await page.locator(`[data-exercise="${id}"]`).waitFor({ state: 'attached', timeout });
  const mark = page.locator(`[data-mark="${id}"]`);
  if (await mark.isVisible()) await mark.click();
}
