// How the tests and the measuring scripts start Debian's Chromium (headless, through playwright-core).
//
// Each new browser context is a new window, and Chromium 156 preloads every window's omnibox popup: a
// WebUI page of its own (~600 chrome:// modules, 0.5–1 s of CPU) that loads while the page under test
// does. A learner's browser loads it once per window, not with every page it opens, so it is left out.
// Three features make that popup (the full, the AI-mode and the plain one).
//
// playwright-core passes a --disable-features list of its own, and Chromium keeps only the last
// --disable-features it is given: ours repeats playwright-core's list (its chromiumSwitches; the
// versions are pinned by package-lock.json, and tests/js/chromium_args.test.mjs fails if that list
// changes) and adds the popup's three.
//
// The measuring scripts (`learner: true`) keep one more of Chromium's defaults: paint holding, which
// playwright-core turns off for tests and every learner's browser has (the first paint of a navigation
// waits until the page has something to show). With it off, the first view paints the page half-built
// first: warm median 179 against 123 ms, cold 249 against 188 ms (bench/results.md, fourth pass).
//
// Switches tried for the tests and not kept (2026-11-29; A/B runs side by side at the same load, ~20-45
// on 2 cores, share + cut_text (+ sites) under tests/browser/run.mjs, CPU-s with Chromium's processes;
// the noise between two identical runs was ±4%): none cut the CPU beyond it, so none is passed.
// - Where it goes (steps, truth, share, cut_text: 155 CPU-s): renderers 78 (main thread 46, its thread pool
//   14: compiling and GC, the worker pool 8, compositor 6.5), the browser process 31, the GPU process's
//   display compositor 15, node 25 (run.mjs's browser server 10, the test files 15). Per page, not per switch.
// - Already in effect: Chromium gives the renderers --disable-gpu-compositing and --num-raster-threads=1
//   itself under --disable-gpu; playwright-core passes --disable-renderer-backgrounding,
//   --disable-backgrounding-occluded-windows, --disable-ipc-flooding-protection and no back-forward cache.
// - Site isolation off (--disable-site-isolation-trials, IsolateOrigins, site-per-process,
//   OriginKeyedProcessesByDefault) with --in-process-gpu, --disable-lcd-text, --disable-partial-raster,
//   --disable-threaded-animation and --disable-threaded-scrolling: 31 renderer processes became 17, and
//   the CPU 122.5 against 120.0 s (no gain: a page costs the same in a shared process).
// - --disable-domain-reliability, --disable-client-side-phishing-detection and the features Translate,
//   AutofillServerCommunication, CertificateTransparencyComponentUpdater, InterestFeedContentSuggestions,
//   PrivacySandboxSettings4, OptimizationGuideModelDownloading, DialMediaRouteProvider: 95.1 against 96.3 s.
// - --js-flags=--max-opt=2 (no TurboFan): 100.0 against 96.0 s; --js-flags=--single-threaded-gc: 104.1.
// - prefers-reduced-motion: the page animates nothing but a 0.2 s fade of a stale heatmap; not tried.
export const PLAYWRIGHT_FEATURES = ['AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled',
  'PreconnectToSearch', 'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion'];
export const POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];
const disableFeatures = (keep = []) => `--disable-features=${[...PLAYWRIGHT_FEATURES.filter((f) => !keep.includes(f)), ...POPUP_FEATURES].join(',')}`;

const BASE_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/**
 * playwright-core's launch options. `learner: true` (the measuring scripts) keeps paint holding on, as in
 * a learner's browser; `browserUi: true` keeps the omnibox popup page too (playwright-core's own features
 * list then applies unchanged, paint holding off).
 */
export function chromiumLaunchOptions({ browserUi = false, learner = false } = {}) {
  return {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
    args: browserUi ? [...BASE_ARGS] : [...BASE_ARGS, disableFeatures(learner ? ['PaintHolding'] : [])],
  };
}
