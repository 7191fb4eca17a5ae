// The exercises of the chapter “positions” (positions: sinusoidal encoding): predict, then reveal. The form of an
// exercise and the helpers: lesson/exercises/helpers.js; the catalogue of every chapter's: catalogue.js.

import * as fmt from '../../../model/format.js';
import { word, list } from '../../exercises/helpers.js';
import { text } from './exercise_text.js';
import { SKETCH_EXERCISES } from './sketch_exercises.js';
import { otherCase } from '../../exercises/other_case.js';

export const EXERCISES = [
  {
    id: 'positions.range', chapter: 'positions', kind: 'choice', objective: 1,
    setup({ config: c }) {
      const n = Math.max(c.n_q, 16);
      return {
        params: { n, d_model: c.d_model },
        prompt: text('exercise.positions.sinusoidal_encoding_positions_d', { n, d_model: fmt.int(c.d_model) }),
        choices: [
          { key: 'unit', label: text('exercise.positions.between_minus_1_and_1') },
          { key: 'grows', label: text('exercise.positions.grows_with_position') },
          { key: 'positive', label: text('exercise.positions.between_0_and_1') },
          { key: 'd_model', label: text('exercise.positions.between_d_model_d') },
        ],
        calls: [{ op: 'positionalProperties', args: { n, d_model: c.d_model, k: 1 } }],
      };
    },
    reveal({ n }, [p]) {
      return {
        expected: p.max_abs <= 1 + 1e-6 ? 'unit' : 'grows',
        explanation: text('exercise.positions.core_s_table_largest', { n, max_abs: fmt.num(p.max_abs, 4), min_distance: fmt.num(p.min_distance, 3) }) +
          text('exercise.positions.every_value_sine_or'),
      };
    },
  },
  {
    id: 'positions.zero', chapter: 'positions', kind: 'number', objective: 1,
    setup({ config: c }) {
      // A position past the layer's rows (the chapter's table shows those): PE(pos, 0) = sin(pos).
      const { pos } = otherCase(c, { pos: { from: 'n_q', plus: 3 } });
      return {
        params: { d_model: c.d_model, pos },
        prompt: text('exercise.positions.what_pe_0_1', { pos }),
        tolerance: { abs: 0.001 },
        calls: [{ op: 'positionalEncoding', args: { n: pos + 1, d_model: c.d_model } }],
      };
    },
    reveal({ d_model, pos }, [pe]) {
      const row = Array.from(pe.slice(pos * d_model, pos * d_model + 4));
      return {
        expected: row[0],
        explanation: text('exercise.positions.core_s_first_row', { pos, value: list(row), value2: fmt.num(row[0], 4) }) +
          text('exercise.positions.usual_mistake_expecting_position', { pos }),
      };
    },
  },
  {
    id: 'positions.shift', chapter: 'positions', kind: 'choice', objective: 1,
    setup({ config: c }) {
      const n = Math.max(c.n_q, 16);
      return {
        params: { n, k: 2 },
        prompt: text('exercise.positions.how_pe_pos_2'),
        choices: [
          { key: 'rotation', label: text('exercise.positions.same_linear_map_every') },
          { key: 'unrelated', label: text('exercise.positions.there_no_fixed_relation') },
          { key: 'scaled', label: text('exercise.positions.pe_pos_multiplied_number') },
          { key: 'depends', label: text('exercise.positions.linear_map_that_changes') },
        ],
        calls: [{ op: 'positionalProperties', args: { n, d_model: c.d_model, k: 2 } }],
      };
    },
    reveal({ n, k }, [p]) {
      return {
        expected: p.rotation_max_error < 1e-4 ? 'rotation' : 'depends',
        explanation: text('exercise.positions.core_rotates_each_pair', { k, rotation_max_error: fmt.num(p.rotation_max_error, 9), n }) +
          text('exercise.positions.one_block_diagonal_rotation'),
      };
    },
  },
  ...SKETCH_EXERCISES,
];
