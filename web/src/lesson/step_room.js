// A step of a chapter fits one screen on a wide page (issue 37): the exercises placed at the step sit in the
// left column under the inputs, and a long one (a grid of cells to pick) would lengthen the page past the
// screen. This gives that column what is left of the window under its top (--side-room on the playground),
// where the stylesheet lets it scroll; measured again when the step, the inputs or the window change.

const MIN_ROOM = 260; // below this (a short window) the column keeps its height and the page scrolls

/** wrapper(): the playground's .ap element (or null before it is built). Returns { measure() }. */
export function createStepRoom(wrapper) {
  let frame = 0;
  let watched = null;
  const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => measure()) : null;
  const win = () => wrapper()?.ownerDocument?.defaultView;

  function apply() {
    frame = 0;
    const ap = wrapper();
    const w = win();
    if (!ap || !w) return;
    const controls = ap.querySelector('.layout > .controls');
    if (observer && controls && controls !== watched) {
      observer.disconnect();
      observer.observe(controls);
      watched = controls;
    }
    const side = ap.querySelector('.layout > .panel:not(.controls):not([hidden])');
    if (!side) return;
    const top = side.getBoundingClientRect().top + w.scrollY;
    const room = Math.round(w.innerHeight - top - 12);
    ap.style.setProperty('--side-room', room >= MIN_ROOM ? `${room}px` : 'none');
  }

  /** Measures on the next frame (after the step's panels are laid out); several calls make one. */
  function measure() {
    const w = win();
    if (!w || frame) return;
    frame = w.requestAnimationFrame(apply);
  }

  return { measure };
}
