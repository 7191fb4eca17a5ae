// Charts that follow their box: a uPlot chart is drawn at a fixed pixel width, so without this it keeps
// its first width when the window is resized, a phone is rotated or a host page's column changes, and a
// chart drawn wide pushes the page sideways on a narrow screen. The box (a block that takes its
// container's width) is observed, and the chart is redrawn at the box's new width.

/**
 * Calls resize(width) whenever `box`'s content width changes (not for the width it has now). Returns a
 * function that stops observing. Where there is no ResizeObserver (old browsers) it does nothing.
 * known: the box's width now, when the caller has it (a heatmap just drawn at it): read here, after a
 * drawing resized its canvas, it would cost the page a layout, one per map of a panel.
 */
export function followWidth(box, resize, known) {
  const Observer = box.ownerDocument?.defaultView?.ResizeObserver;
  if (!Observer) return () => {};
  let last = known ?? box.clientWidth;
  const observer = new Observer(() => {
    const width = box.clientWidth;
    // Hidden (a chapter that does not show it): a chart drawn meanwhile gets chartWidth's fallback, so the
    // box's next width, even the one it had before, redraws it.
    if (width === 0) last = 0;
    else if (width !== last) {
      last = width;
      resize(width);
    }
  });
  observer.observe(box);
  return () => observer.disconnect();
}

/** The width a chart may take in `box`: all of it, never below `min` px (a chart narrower than that is unreadable). */
export const chartWidth = (box, min = 200, fallback = 400) => Math.max(min, box.clientWidth || fallback);
