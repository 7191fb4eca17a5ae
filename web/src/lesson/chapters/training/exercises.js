// The exercises of the chapter “training” (training: the training lab): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { list, labSettings } from '../../exercises/helpers.js';

export const EXERCISES = [
  {
    id: 'training.start-loss', chapter: 'training', kind: 'number',
    setup({ state }) {
      const lab = labSettings(state, ['copy_previous', 'copy_first', 'reverse', 'lookup', 'two_relation'].includes(state.train_task) ? state.train_task : 'copy_previous');
      return {
        params: lab,
        prompt: `A fresh lab model (task ${lab.task}, d_model ${lab.d_model}, ${lab.n_heads} heads, 16 possible tokens, no training yet) predicts each token. About what cross-entropy loss (in nats) will it show?`,
        tolerance: { rel: 0.15 },
        calls: [{ op: 'trainEval', args: { ...lab, steps: 0, samples: 200 } }],
      };
    },
    reveal(lab, [t]) {
      return {
        expected: t.before.loss,
        explanation: `The core evaluates the untrained model at ${fmt.num(t.before.loss, 3)} nats with ${fmt.percent(t.before.accuracy)} accuracy: it guesses nearly uniformly among ${t.classes} tokens, ` +
          `whose loss is ln ${t.classes} ≈ 2.77. Usual mistake: expecting a loss of 0 or 1 before training; 0 is a perfect model, and a loss is not a probability.`,
      };
    },
  },
  {
    id: 'training.focus', chapter: 'training', kind: 'choice',
    setup({ state }) {
      const lab = labSettings(state, state.train_task === 'copy_first' ? 'copy_first' : 'copy_previous');
      return {
        params: lab,
        prompt: `Train the lab on ${lab.task} (copy the ${lab.task === 'copy_first' ? 'first' : 'previous'} token) for 150 steps. Where will the heads put most of their weight?`,
        choices: [
          { key: 'previous', label: 'On the previous token' },
          { key: 'first', label: 'On the first token' },
          { key: 'self', label: 'On the token itself' },
          { key: 'uniform', label: 'Spread evenly: one layer cannot learn positions' },
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
        explanation: `The core trained 150 steps: the heads' mean weight on the ${relation} token went from ${list(before, 2)} to ${list(after, 2)}, and accuracy from ${fmt.percent(t.before.accuracy)} to ${fmt.percent(t.after.accuracy)}. ` +
          'The task can be solved only by reading that position, and the positional encoding lets a head find it. Usual mistake: expecting attention to need words in common; it learns positions too.',
      };
    },
  },
];
