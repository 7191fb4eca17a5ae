// The exercises of the chapter “training” (training: the training lab): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { list, labSettings } from '../../exercises/helpers.js';
import { text } from './exercise_text.js';
import { TASK_TEXT } from '../../../model/training_settings.js'; // the task as the lab's menu names it
import { SKETCH_EXERCISES } from './sketch_exercises.js';

export const EXERCISES = [
  {
    id: 'training.start-loss', chapter: 'training', kind: 'number', objective: 1,
    setup({ state }) {
      const lab = labSettings(state, ['copy_previous', 'copy_first', 'reverse', 'lookup', 'two_relation'].includes(state.train_task) ? state.train_task : 'copy_previous');
      return {
        params: lab,
        prompt: text('exercise.training.fresh_lab_model_task', { task: TASK_TEXT[lab.task], d_model: lab.d_model, n_heads: lab.n_heads }),
        tolerance: { rel: 0.15 },
        calls: [{ op: 'trainEval', args: { ...lab, steps: 0, samples: 200 } }],
      };
    },
    reveal(lab, [t]) {
      return {
        expected: t.before.loss,
        explanation: text('exercise.training.core_evaluates_untrained_model', { loss: fmt.num(t.before.loss, 3), accuracy: fmt.percent(t.before.accuracy), classes: t.classes }) +
          text('exercise.training.whose_loss_ln_2', { classes: t.classes }),
      };
    },
  },
  {
    id: 'training.focus', chapter: 'training', kind: 'choice', objective: 5,
    setup({ state }) {
      const lab = labSettings(state, state.train_task === 'copy_first' ? 'copy_first' : 'copy_previous');
      return {
        params: lab,
        prompt: text('exercise.training.train_lab_copy_token', { task: TASK_TEXT[lab.task] }),
        choices: [
          { key: 'previous', label: text('exercise.training.previous_token') },
          { key: 'first', label: text('exercise.training.first_token') },
          { key: 'self', label: text('exercise.training.token_itself') },
          { key: 'uniform', label: text('exercise.training.spread_evenly_one_layer') },
        ],
        calls: [{ op: 'trainEval', args: { ...lab, steps: 150, samples: 200 } }],
      };
    },
    reveal(lab, [t]) {
      const relation = Object.keys(t.after.focus[0])[0];
      const after = t.after.focus.map((f) => f[relation]), before = t.before.focus.map((f) => f[relation]);
      const learnt = after.some((w) => w > 0.5);
      return {
        expected: learnt ? relation : 'uniform',
        explanation: text('exercise.training.core_trained_150_steps', { relation, before: list(before, 2), after: list(after, 2), accuracy: fmt.percent(t.before.accuracy), accuracy2: fmt.percent(t.after.accuracy) }) +
          text('exercise.training.task_can_solved_only'),
      };
    },
  },
  ...SKETCH_EXERCISES,
];
