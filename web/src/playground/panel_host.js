// A playground's panel host: which sections are shown (features/index.js's visiblePanels, the chapter's
// folds: folds.js), building each shown panel (the first view's at once, the lazy ones from dist/panels.js
// once the first result is on screen), a panel's error in its own section, and data-settled, which tells
// hosts and tests that every shown panel is built and drawn for the current view.

import { visiblePanels, FEATURE_NAMES } from '../features/index.js';
import { foldedPanels, chapterOf } from '../lesson/chapters.js';
import { createFolds } from './folds.js';

/**
 * m: the model (store.js); p: the playground's parts (win, base, baseError, shell, chapterNav, view,
 * actions, redraw, connection, features).
 */
export function createPanelHost(m, p) {
  const { win, shell } = p;
  const { sections, wrapper, host, dom } = shell;
  let pendingLoads = 0; // lazy panels whose code is on its way
  // A chapter's secondary panels are shown collapsed; opening one shows (and so builds) its section.
  const folds = createFolds({ dom, sections, toggled: () => applyVisibility(), loadWords: () => host.importVendor('panels.js') });

  function applyVisibility() {
    const shown = new Set(visiblePanels(m.state));
    const collapsed = folds.apply(shown, foldedPanels(m.state, FEATURE_NAMES), chapterOf(m.state).name);
    for (const entry of sections.values()) entry.section.hidden = !shown.has(entry.spec.name) || collapsed.has(entry.spec.name);
    wrapper.classList.toggle('no-controls', !shown.has('controls'));
    buildPanels();
  }

  /**
   * Builds every shown panel that is not built yet: the first view's at once, the lazy ones once the
   * first result is on screen, from dist/panels.js, which is fetched (once per page: the browser keeps
   * the module) when the first of them is needed. Lazy panels that arrive are drawn with the view of
   * that moment; the wrapper's data-settled is '1' once every shown panel is built.
   */
  function buildPanels() {
    for (const entry of sections.values()) {
      if (entry.panel || entry.loading || entry.section.hidden || (entry.spec.lazy && !m.released)) continue;
      if (!entry.spec.lazy) {
        makePanel(entry, entry.spec.panel);
        continue;
      }
      entry.loading = true;
      pendingLoads++;
      wrapper.dataset.settled = '0';
      lazyPanel(entry.spec.name).then((module) => {
        if (m.destroyed || entry.section.hidden) return;
        if (makePanel(entry, module)) updatePanel(entry, p.view(), 'engine');
      }).catch((err) => {
        // The browser keeps a failed module fetch for the page's life: only a reload fetches it again.
        if (!m.destroyed) showPanelError(entry, err, 'Reload the page to try again.');
      }).finally(() => {
        entry.loading = false;
        if (--pendingLoads === 0 && m.released && !m.destroyed) markSettled();
      });
    }
    if (m.released && pendingLoads === 0) markSettled();
  }

  /** A lazy feature's panel module, from panels.js in the asset folder (a relative import fails from blob:). */
  function lazyPanel(name) {
    if (!p.base) return Promise.reject(new Error(p.baseError));
    return host.importVendor('panels.js').then((bundle) => bundle.loadPanel(name), (err) => {
      throw new Error(`its code (panels.js) could not be loaded from ${p.base}: ${err.message}`);
    });
  }

  /** Creates one panel; says so in its section when that throws. True when it was made. */
  function makePanel(entry, module) {
    try {
      entry.panel = module.create(entry.body, p.actions.ctxFor(entry.spec.name, module));
      return true;
    } catch (err) {
      showPanelError(entry, err);
      return false;
    }
  }

  function showPanelError(entry, err, whatToDo = 'Change the inputs to try again.') {
    entry.failed = true;
    entry.error.hidden = false;
    entry.error.textContent = `This panel could not be drawn: ${err.message}. ${whatToDo}`;
  }

  /** Draws one panel for view `v`; a panel that throws says so in its own section. */
  function updatePanel(entry, v, reason) {
    entry.pending = null;
    delete entry.section.dataset.stale;
    try {
      entry.panel.update(v, reason);
      if (entry.failed) {
        entry.failed = false;
        entry.error.hidden = true;
      }
    } catch (err) {
      // One panel failing must not blank the others: it says so in its own section.
      showPanelError(entry, err);
    }
  }

  /** data-settled: '1' once every shown panel is built and drawn for the current view (tests and hosts wait for it). */
  function markSettled() {
    const behind = [...sections.values()].some((e) => e.panel && e.pending && !e.section.hidden);
    wrapper.dataset.settled = m.released && pendingLoads === 0 && !behind ? '1' : '0';
  }

  /** What the first view does without: the pager below the panels, and the features' start (e.g. a record read from storage). */
  function afterFirstView() {
    shell.layout.after(...p.chapterNav.bottom);
    shell.setLabel(m.state.label); // names the pager's landmark as the others (with the playground's name when several)
    p.features.start();
  }

  /** The first result is on screen (or none will come by itself): the rest is built on the next frame. */
  function releaseLater() {
    if (m.released) return;
    m.released = true;
    // Next frame: the first result gets painted before the rest is built.
    win.requestAnimationFrame(() => win.setTimeout(() => {
      if (m.destroyed) return;
      p.connection.startWorker(); // the first result is on screen: now the worker may use the CPU
      afterFirstView();
      buildPanels(); // sets data-settled once every shown panel is built (tests and hosts wait for it)
      p.redraw.render('engine');
    }));
  }

  /**
   * A feature's panel module (a lazy one loaded as for its panel), its compute requests as actions and
   * the current view: for what a feature offers the host besides its panel (the export's API).
   */
  async function feature(name) {
    const spec = sections.get(name)?.spec;
    if (!spec) throw new Error(`“${name}” is not a feature`);
    const module = spec.lazy ? await lazyPanel(name) : spec.panel;
    // Removed while the module loaded: its view is gone (an export would read "still loading").
    if (m.destroyed) throw new Error('this playground was removed');
    return { module, actions: p.actions.ctxFor(name, module).actions, view: p.view() };
  }

  function destroy() {
    for (const entry of sections.values()) {
      try {
        entry.panel?.destroy?.();
      } catch {
        // a panel that fails to clean up must not keep the rest from being freed
      }
    }
  }

  return { applyVisibility, lazyPanel, updatePanel, markSettled, afterFirstView, releaseLater, feature, destroy };
}
