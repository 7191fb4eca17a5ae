// A part of a panel that a lesson's step folds (issue 37: one step, one 1280 × 800 screen) while the whole
// dashboard (Reference, an author's panels alone) shows it open as before: the playground's .stepped class
// (lesson/nav.js) says which, and a feature's stylesheet hides the fold's summary outside a step.

/**
 * Watches whether the playground around `body` shows a lesson's step (the .stepped class lesson/nav.js sets
 * while a chapter's step bar is shown): onChange(stepped) runs once the playground is found and each time
 * that changes. Returns { sync () → stepped (call from the panel's update: the class is set before the
 * panels are drawn), destroy }. The one place a panel learns whether it is in a step.
 */
export function watchStep(body, onChange) {
  let ap = null, observer = null, was = null;
  function sync() {
    ap ??= body.closest('.ap');
    if (!ap) return false;
    if (!observer && typeof MutationObserver === 'function') {
      observer = new MutationObserver(sync);
      observer.observe(ap, { attributes: true, attributeFilter: ['class'] });
    }
    const stepped = ap.classList.contains('stepped');
    if (stepped !== was) onChange((was = stepped));
    return stepped;
  }
  sync();
  return { sync, destroy: () => observer?.disconnect() };
}

/**
 * Keeps `details` open on the whole dashboard and folded while the playground shows a lesson's step (the
 * .stepped class lesson/nav.js sets): set when that changes, so a learner's own opening stays until then.
 */
export function foldInStep(body, details) {
  return watchStep(body, (stepped) => { details.open = !stepped; });
}

/**
 * A fold of `children` under a summary heading (`summary`: its words), folded in a lesson's step and open
 * elsewhere (foldInStep): { element, sync (call from the panel's update), destroy }. `name`: its class.
 */
export function stepFold({ h }, body, { name, summary, heading = 'h3' }, ...children) {
  const element = h('details', { class: `fold-details ${name}` }, h('summary', {}, h(heading, {}, summary)), ...children);
  return { element, ...foldInStep(body, element) };
}
