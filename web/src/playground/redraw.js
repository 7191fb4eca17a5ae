// A playground's redraw: every change is rendered with one reason ('state', 'result', 'running', …) to
// the run bar, the chapter list and each panel. Panels are redrawn while shown and on screen; the others
// keep the reason they missed (schedule.js's mergeReasons) and catch up when they come into view, or
// once the learner pauses, one panel per task (so a keystroke waits for one panel at most).

import { mergeReasons, watchScreen, CATCH_UP_MS } from './schedule.js';

/** m: the model (store.js); p: the playground's parts (win, shell, runbar, chapterNav, view, panels, features). */
export function createRedraw(m, p) {
  const { win } = p;
  const { sections, wrapper } = p.shell;
  let catchUpTimer = 0;
  const screen = watchScreen(win, sections.values(), (entry) => catchUpPanel(entry));

  function render(reason) {
    if (m.destroyed) return;
    const v = p.view();
    p.runbar.update(v, reason);
    p.chapterNav.update(v, p.features.chapterCounts(v)); // per chapter { done, total }, from a feature that counts them
    for (const entry of sections.values()) {
      if (!entry.panel) continue;
      // A panel hidden, or a lazy one off screen, keeps the reason it missed, and is drawn when shown
      // (catchUpPanel). The first view's panels (the form, the maps) are always current: hosts read them
      // as soon as an event says something changed.
      if (entry.section.hidden || (entry.spec.lazy && !screen.onScreen(entry))) {
        entry.pending = mergeReasons(entry.pending, reason);
        entry.section.dataset.stale = '1'; // says its numbers are behind until updatePanel draws it
      } else p.panels.updatePanel(entry, v, mergeReasons(entry.pending, reason));
    }
    if ([...sections.values()].some((e) => e.pending && !e.section.hidden)) {
      wrapper.dataset.settled = '0';
      win.clearTimeout(catchUpTimer);
      catchUpTimer = win.setTimeout(catchUp, CATCH_UP_MS);
    }
  }

  /** Brings one panel that missed updates up to date (it came on screen, or the learner paused). */
  function catchUpPanel(entry) {
    if (m.destroyed || !entry.panel || !entry.pending || entry.section.hidden) return;
    p.panels.updatePanel(entry, p.view(), entry.pending);
    p.panels.markSettled();
  }

  /** Off-screen panels, one per task (a keystroke waits for one panel at most), once nothing was drawn for a while. */
  function catchUp() {
    const entry = [...sections.values()].find((e) => e.panel && e.pending && !e.section.hidden);
    if (m.destroyed) return;
    if (!entry) return p.panels.markSettled();
    catchUpPanel(entry);
    catchUpTimer = win.setTimeout(catchUp, 0);
  }

  return {
    render,
    destroy() {
      win.clearTimeout(catchUpTimer);
      screen.disconnect();
    },
  };
}
