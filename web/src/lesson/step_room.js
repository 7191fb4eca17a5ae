// A step of a chapter fits one screen on a wide page (issue 37): the exercises placed at the step sit in the
// left column under the inputs, and a long one (a grid of cells to pick) would lengthen the page past the
// screen. This gives that column what is left of the window under its top (--side-room on the playground),
// where the stylesheet lets it scroll (and the inputs above it, when they are long: --controls-room); measured
// again when the step, the inputs, the layout or the window change.

const MIN_ROOM = 240; // the least either part of the column is given; a window with less for them keeps their heights (the page scrolls)
const GAP = 14;      // the layout's gap on a wide page (styles.css)

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
    const layout = ap.querySelector('.layout');
    const controls = ap.querySelector('.layout > .controls');
    // The inputs' size, and the layout's (the exercises panel shown once its step's exercises are built).
    if (observer && layout && controls && controls !== watched) {
      observer.disconnect();
      observer.observe(controls);
      observer.observe(layout);
      watched = controls;
    }
    const side = ap.querySelector('.layout > .panel:not(.controls):not([hidden])');
    if (!side) return;
    const topOf = (el) => el.getBoundingClientRect().top + w.scrollY;
    if (!controls || controls.hidden) { // no inputs: the exercises beside the panels, from the layout's top
      const room = Math.round(w.innerHeight - topOf(side) - 12);
      ap.style.setProperty('--side-room', room >= MIN_ROOM ? `${room}px` : 'none');
      return;
    }
    // The column from the inputs' top to the window's bottom: the inputs their height, the exercises the rest;
    // when that leaves the exercises too little, the inputs too scroll within their share.
    const room = Math.round(w.innerHeight - topOf(controls) - 12);
    const inputs = controls.scrollHeight + 2; // its content and its border, whatever its max-height now
    const inputsRoom = inputs + GAP + MIN_ROOM <= room ? null : room - GAP - MIN_ROOM;
    const fits = inputsRoom === null || inputsRoom >= MIN_ROOM;
    ap.style.setProperty('--controls-room', fits && inputsRoom !== null ? `${inputsRoom}px` : 'none');
    ap.style.setProperty('--side-room', fits ? `${room - GAP - Math.min(inputs, inputsRoom ?? inputs)}px` : 'none');
  }

  /** Measures on the next frame (after the step's panels are laid out); several calls make one. */
  function measure() {
    const w = win();
    if (!w || frame) return;
    frame = w.requestAnimationFrame(apply);
  }

  return { measure };
}
