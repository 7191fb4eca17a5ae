// How the tests and the measuring scripts start Debian's Chromium (headless, through playwright-core).
//
// Each new browser context is a new window, and Chromium 156 preloads every window's omnibox popup: a
// WebUI page of its own (~600 chrome:// modules, ~0.5 s of CPU) that loads while the page under test
// does. A learner's browser loads it once per window, not with every page it opens, so it is left out.
// Three features make that popup (the full, the AI-mode and the plain one); disabling only the plain
// one, as the scripts did until 2026-11-27, still loaded it (seen in a trace: omnibox_popup.js renderers).
export const BROWSER_UI_OFF = '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', BROWSER_UI_OFF];

/** playwright-core's launch options; `browserUi: true` keeps the omnibox popup (as a learner's new window has it). */
export function chromiumLaunchOptions({ browserUi = false } = {}) {
  return {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
    args: browserUi ? CHROMIUM_ARGS.filter((a) => a !== BROWSER_UI_OFF) : CHROMIUM_ARGS,
  };
}
