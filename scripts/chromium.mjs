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
