// What the learning rate does before Train (issue 37: every control shows something): a copy of the
// lab's model, never the lab's own, trained a few steps in the compute (handler.js, trainPreview) and
// scored on held-out samples, so a rate too small or too large shows before the learner trains.

import * as fmt from '../../model/format.js';
import { trainingKey, trainerArguments } from '../../model/training_settings.js';
import { text } from '../../lesson/panels/training.js';

const PREVIEW_STEPS = 40;    // a few hundred ms at the lab's default sizes
const PREVIEW_SAMPLES = 200; // held-out samples scored

/** The preview line ({ el }) and ask(settings): the last settings asked win; a refusal is said in the line. */
export function createPreview({ h }, actions) {
  const el = h('p', { class: 'note', id: 'train-preview', 'aria-live': 'polite' });
  let asked = null;

  async function ask(settings) {
    const key = settings ? trainingKey(settings) : null;
    if (key === asked) return;
    asked = key;
    el.textContent = settings ? text('training.preview_waiting', { steps: PREVIEW_STEPS }) : '';
    if (!settings || !actions.trainPreview) return;
    try {
      const r = await actions.trainPreview({ args: trainerArguments(settings), steps: PREVIEW_STEPS, samples: PREVIEW_SAMPLES });
      if (asked !== key) return;
      el.textContent = text('training.preview', { steps: fmt.int(r.steps), lr: fmt.num(r.lr, 4), accuracy: fmt.percent(r.accuracy) });
      el.dataset.accuracy = String(r.accuracy);
    } catch (err) {
      if (asked !== key) return;
      asked = null; // asked again at the next update
      el.textContent = text('training.preview_failed', { message: err.message });
    }
  }

  return { el, ask };
}
