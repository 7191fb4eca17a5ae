// The input of a `sketch` exercise (issue 36): one bar per key, whose heights the learner draws for the
// asked query's attention row. Mouse or touch: press on the chart and drag, each bar under the pointer
// takes the pointer's height. Keyboard: each bar is a slider; ←/→ move between bars, ↑/↓ set the height
// by a tenth, Page Up/Down by a half, Home/End to 0 and to full, Enter checks. After Check, the engine's row is drawn
// over the learner's (a dashed outline per bar, scaled to the learner's tallest bar, with a legend). Key
// labels too long for their bar alternate on two lines. The session normalises the heights and grades them.

import { text } from '../../../lesson/panels/exercise_kinds.js';

const STEPS = 20; // a bar's height in twentieths: fine enough to draw 0.05 differences

/** { field, read() → the heights, onReveal(reveal) → draws the engine's row over them }. */
export function sketchInput(dom, item, titleId) {
  const { h } = dom;
  const keys = item.sketch.keys;
  const heights = keys.map(() => 0);
  const bars = [], fills = [], marks = [];
  let engineRow = null; // the engine's row once shown
  const setHeight = (j, v, focus) => {
    heights[j] = Math.max(0, Math.min(STEPS, Math.round(v)));
    if (engineRow) placeMarks();
    fills[j].style.height = `${(heights[j] / STEPS) * 100}%`;
    bars[j].setAttribute('aria-valuenow', String(heights[j] / STEPS));
    bars[j].setAttribute('aria-valuetext', `${Math.round((heights[j] / STEPS) * 100)} %`);
    if (focus) bars[j].focus();
  };
  const moveTo = (j) => {
    bars.forEach((b, k) => { b.tabIndex = k === j ? 0 : -1; });
    bars[j].focus();
  };
  const onKey = (j) => (e) => {
    const by = { ArrowUp: 2, ArrowDown: -2, PageUp: 10, PageDown: -10 }[e.key];
    if (by !== undefined) setHeight(j, heights[j] + by, false);
    else if (e.key === 'Home') setHeight(j, 0, false);
    else if (e.key === 'End') setHeight(j, STEPS, false);
    else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') moveTo(Math.max(0, Math.min(keys.length - 1, j + (e.key === 'ArrowRight' ? 1 : -1))));
    else if (e.key === 'Enter') bars[j].closest('form')?.requestSubmit(); // Check, as Enter in a number field does
    else return;
    e.preventDefault();
  };
  keys.forEach((key, j) => {
    fills[j] = h('span', { class: 'ex-sketch-fill' });
    marks[j] = h('span', { class: 'ex-sketch-mark', hidden: true });
    bars[j] = h('span', {
      class: 'ex-sketch-bar', role: 'slider', tabindex: j === 0 ? '0' : '-1', 'aria-label': `${key} (${j})`,
      'aria-valuemin': '0', 'aria-valuemax': '1', 'aria-valuenow': '0', 'aria-orientation': 'vertical', dataset: { key: j },
      onkeydown: onKey(j),
    }, fills[j], marks[j]);
  });
  const plot = h('div', { class: 'ex-sketch-plot', 'aria-hidden': 'false' }, bars);
  // Drawing with the pointer: the bar under it takes its height (a drag across bars draws a curve).
  const drawAt = (e) => {
    const box = plot.getBoundingClientRect();
    const j = Math.floor(((e.clientX - box.left) / box.width) * keys.length);
    if (j < 0 || j >= keys.length) return;
    setHeight(j, ((box.bottom - e.clientY) / box.height) * STEPS, false);
  };
  plot.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    plot.setPointerCapture?.(e.pointerId);
    drawAt(e);
    const move = (ev) => drawAt(ev);
    const up = () => { plot.removeEventListener('pointermove', move); plot.removeEventListener('pointerup', up); plot.removeEventListener('pointercancel', up); };
    plot.addEventListener('pointermove', move);
    plot.addEventListener('pointerup', up);
    plot.addEventListener('pointercancel', up);
  });
  const labels = keyLabels(h, keys, item.sketch.query);
  const legend = h('p', { class: 'note ex-sketch-legend', hidden: true }, text('exercises.sketch_legend'));
  const field = h('div', { class: 'ex-sketch', role: 'group', 'aria-labelledby': titleId },
    h('p', { class: 'note' }, text('exercises.sketch_help')), plot, labels, legend);
  /** The engine's row in the learner's scale: its largest weight at the tallest bar's height (full when none is drawn). */
  function placeMarks() {
    const top = Math.max(...engineRow), tallest = Math.max(...heights) / STEPS || 1;
    engineRow.forEach((w, j) => { marks[j].style.height = `${(top > 0 ? (w / top) * tallest : 0) * 100}%`; });
  }
  return {
    field,
    read: () => heights.slice(),
    /** The engine's row over the learner's: a dashed outline per bar, and the legend that says so. */
    onReveal(r) {
      if (!Array.isArray(r.expected)) return;
      engineRow = r.expected.slice();
      r.expected.forEach((w, j) => {
        marks[j].hidden = false;
        bars[j].title = text('exercises.sketch_engine_weight', { weight: w.toFixed(2) });
      });
      legend.hidden = false;
      placeMarks();
    },
    /** How the engine's row reads in the verdict. */
    format: (expected) => expected.map((w) => w.toFixed(2)).join(', '),
  };
}

/** The keys' labels under a row of bars (the asked one in bold); labels wider than their bar alternate on two lines. */
export function keyLabels(h, keys, asked = -1) {
  const labels = h('div', { class: 'ex-sketch-keys', 'aria-hidden': 'true' },
    keys.map((k, j) => h('span', { class: j === asked ? 'asked' : '' }, h('span', {}, k))));
  staggerWhenCut(labels);
  return labels;
}

/** Labels wider than their bar alternate on two lines (each may then take two bars' width); checked on every resize. */
function staggerWhenCut(labels) {
  const check = () => {
    const cut = [...labels.children].some((col) => col.firstChild.scrollWidth > col.clientWidth + 1);
    labels.classList.toggle('staggered', cut);
  };
  const Observer = labels.ownerDocument?.defaultView?.ResizeObserver;
  if (Observer) new Observer(check).observe(labels);
}
