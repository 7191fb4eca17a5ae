// When a playground runs an edit and which panels it redraws. A run is started at once when the core's
// estimate of its cost (validate's estimateRun, from analyze's FLOPs and parameters) is below a frame:
// running every keystroke of "512" costs less than waiting would. A costlier run waits for the typing to
// pause, in proportion to its cost. Panels are redrawn only while on screen and shown; the others keep
// what they missed (one reason, see mergeReasons) and are brought up to date when they come into view,
// or once the learner pauses, one per task (so hosts and tests that read any panel find it current soon after).

/** Runs estimated below this start with the keystroke (a frame: no typing is faster than one). */
export const QUICK_RUN_MS = 16;
/** The longest wait before a run: typing "512" in a field runs once when each run is costly. */
export const MAX_WAIT_MS = 200;
/** Panels off screen are updated once nothing was redrawn for this long (the learner paused typing). */
export const CATCH_UP_MS = 150;

/** Milliseconds to wait before running an edit whose run is estimated at `estimateSeconds`. */
export function waitBeforeRun(estimateSeconds) {
  const ms = Number(estimateSeconds) * 1000;
  if (!(ms >= 0)) return MAX_WAIT_MS; // no estimate: wait as before
  return ms < QUICK_RUN_MS ? 0 : Math.min(MAX_WAIT_MS, Math.round(ms));
}

/**
 * The one reason a panel gets for every update it missed: the reason itself when all were the same, else
 * 'result' (every panel treats 'result' as "anything may have changed": heatmaps rebuild, performance
 * redraws, the others redraw from the view whatever the reason).
 */
export function mergeReasons(missed, reason) {
  if (!missed || missed === reason) return reason;
  if (!reason) return missed;
  return 'result';
}

/**
 * Watches which sections are on screen (within `margin` px of the viewport). onScreen(entry) is true
 * until the first observation says otherwise (a fresh playground draws everything it shows once);
 * onShown(entry) is called when an entry comes on screen.
 */
export function watchScreen(win, entries, onShown, { margin = 200 } = {}) {
  const off = new WeakSet();
  if (typeof win.IntersectionObserver !== 'function') return { onScreen: () => true, disconnect() {} };
  const byElement = new Map([...entries].map((entry) => [entry.section, entry]));
  const observer = new win.IntersectionObserver((records) => {
    for (const record of records) {
      const entry = byElement.get(record.target);
      if (!entry) continue;
      if (record.isIntersecting) {
        const was = off.has(entry);
        off.delete(entry);
        if (was) onShown(entry);
      } else off.add(entry);
    }
  }, { rootMargin: `${margin}px 0px ${margin}px 0px` });
  for (const element of byElement.keys()) observer.observe(element);
  return { onScreen: (entry) => !off.has(entry), disconnect: () => observer.disconnect() };
}
