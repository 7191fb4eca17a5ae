// The exercises of the chapter “positions” (positions: sinusoidal encoding): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { word, list } from '../../exercises/helpers.js';

export const EXERCISES = [
  {
    id: 'positions.range', chapter: 'positions', kind: 'choice',
    setup({ config: c }) {
      const n = Math.max(c.n_q, 16);
      return {
        params: { n, d_model: c.d_model },
        prompt: `The sinusoidal encoding of ${n} positions at d_model = ${fmt.int(c.d_model)}: which range holds every value?`,
        choices: [
          { key: 'unit', label: 'Between −1 and 1' },
          { key: 'grows', label: 'It grows with the position' },
          { key: 'positive', label: 'Between 0 and 1' },
          { key: 'd_model', label: 'Between −d_model and d_model' },
        ],
        calls: [{ op: 'positionalProperties', args: { n, d_model: c.d_model, k: 1 } }],
      };
    },
    reveal({ n }, [p]) {
      return {
        expected: p.max_abs <= 1 + 1e-6 ? 'unit' : 'grows',
        explanation: `The core's table: the largest |value| over ${n} positions is ${fmt.num(p.max_abs, 4)}, and the closest two positions are still ${fmt.num(p.min_distance, 3)} apart. ` +
          'Every value is a sine or a cosine, so it stays in [−1, 1] however long the sequence. Usual mistake: thinking a position is added as a growing number, which would swamp the word embedding.',
      };
    },
  },
  {
    id: 'positions.zero', chapter: 'positions', kind: 'number',
    setup({ config: c }) {
      return {
        params: { d_model: c.d_model },
        prompt: 'What is PE(0, 1): position 0, dimension 1 (a cosine) of the sinusoidal encoding?',
        tolerance: { abs: 0.001 },
        calls: [{ op: 'positionalEncoding', args: { n: 1, d_model: c.d_model } }],
      };
    },
    reveal(_, [pe]) {
      return {
        expected: pe[1],
        explanation: `The core's first row starts ${list(Array.from(pe.slice(0, 4)))}: the sines of position 0 are 0 and its cosines are cos 0 = ${fmt.num(pe[1], 4)}. ` +
          'Usual mistake: expecting position 0 to be the zero vector; only its even (sine) dimensions are 0.',
      };
    },
  },
  {
    id: 'positions.shift', chapter: 'positions', kind: 'choice',
    setup({ config: c }) {
      const n = Math.max(c.n_q, 16);
      return {
        params: { n, k: 2 },
        prompt: 'How is PE(pos + 2) related to PE(pos)?',
        choices: [
          { key: 'rotation', label: 'The same linear map for every pos: a rotation of each sine/cosine pair' },
          { key: 'unrelated', label: 'There is no fixed relation; each position is independent' },
          { key: 'scaled', label: 'It is PE(pos) multiplied by a number' },
          { key: 'depends', label: 'A linear map that changes with pos' },
        ],
        calls: [{ op: 'positionalProperties', args: { n, d_model: c.d_model, k: 2 } }],
      };
    },
    reveal({ n, k }, [p]) {
      return {
        expected: p.rotation_max_error < 1e-4 ? 'rotation' : 'depends',
        explanation: `The core rotates each pair (sin, cos) of PE(pos) by ω·${k} and finds PE(pos + ${k}) within ${fmt.num(p.rotation_max_error, 9)} over ${n} positions: ` +
          'one block-diagonal rotation, the same at every position, which is what lets attention find "k tokens back". Usual mistake: thinking the relation depends on where you are.',
      };
    },
  },
];
