// The training lab in a lesson's step (issue 37: one idea a step, one 1280 × 800 screen): which part of
// the lab each step of the training chapter is about (data-part on the panel's body; style.css folds the
// rest and sets the columns) and the curves' height, lower in the step that shows the maps under them.
import { stepOf } from '../../lesson/chapters.js';

/**
 * The part of the lab a step shows (style.css): start, the untrained model's loss on the curves and its
 * guesses on a sample; task, the curves, the sample and the maps; one-relation, the sample, the maps and
 * the words about the heads; heads and use, all of it. Reference and an author's panels keep the whole lab
 * (the rules hold in a step only).
 */
const PART_OF_STEP = Object.freeze({ 'training.start': 'start', 'training.task': 'task', 'training.one-relation': 'one-relation',
  'training.heads': 'heads', 'training.use': 'use' });

const CHART_HEIGHT = 190;      // the loss and accuracy chart
const CHART_HEIGHT_TASK = 140; // in the task's step, beside its exercise: the maps fit under it on one screen

/**
 * Follows the playground's .stepped class (lesson/nav.js) for the lab's `body`: part(state) names the
 * step's part, chartHeight() the curves' height now, and onChange() runs when a step starts or ends.
 */
export function stepLayout(body, onChange) {
  let ap = null, observer = null, was = null;
  const stepped = () => {
    ap ??= body.closest('.ap');
    if (ap && !observer && typeof MutationObserver === 'function') {
      observer = new MutationObserver(() => { if (stepped() !== was) { was = stepped(); onChange(); } });
      observer.observe(ap, { attributes: true, attributeFilter: ['class'] });
    }
    return !!ap?.classList.contains('stepped');
  };
  return {
    part(state) {
      was = stepped();
      body.dataset.part = PART_OF_STEP[stepOf(state ?? {}).step?.id] ?? 'all';
    },
    chartHeight: () => (stepped() && body.dataset.part === 'task' ? CHART_HEIGHT_TASK : CHART_HEIGHT),
    destroy: () => observer?.disconnect(),
  };
}
