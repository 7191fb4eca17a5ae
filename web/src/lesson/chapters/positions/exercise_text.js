// The words of the chapter “positions”'s exercises (exercises.js beside this file), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace
// any of them. Loaded with the exercises (the lazy panels' bundle), not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.positions.sinusoidal_encoding_positions_d':
    'The sinusoidal encoding of {n} positions at d_model = {d_model}: which range holds every value?',
  'exercise.positions.grows_with_position': 'It grows with the position',
  'exercise.positions.between_d_model_d': 'Between −d_model and d_model',
  'exercise.positions.core_s_table_largest':
    'The core\'s table: the largest |value| over {n} positions is {max_abs}, and the closest two positions are still {min_distance} apart. ',
  'exercise.positions.every_value_sine_or':
    'Every value is a sine or a cosine, so it stays in [−1, 1] however long the sequence. Usual mistake: thinking a position is added as a growing number, which would swamp the word embedding.',
  'exercise.positions.what_pe_0_1':
    'What is PE({pos}, 0): position {pos}, dimension 0 (a sine with frequency 1, in radians) of the sinusoidal encoding?',
  'exercise.positions.core_s_first_row':
    'The core\'s row {pos} starts {value}: dimension 0 has ω = 10000⁰ = 1, so PE({pos}, 0) = sin({pos}) = {value2}. ',
  'exercise.positions.usual_mistake_expecting_position':
    'Usual mistake: sin({pos}°) in degrees, or expecting the value to grow with the position; every value stays in [−1, 1].',
  'exercise.positions.how_pe_pos_2': 'How is PE(pos + 2) related to PE(pos)?',
  'exercise.positions.same_linear_map_every':
    'The same linear map for every pos: a rotation of each sine/cosine pair',
  'exercise.positions.there_no_fixed_relation': 'There is no fixed relation; each position is independent',
  'exercise.positions.pe_pos_multiplied_number': 'It is PE(pos) multiplied by a number',
  'exercise.positions.linear_map_that_changes': 'A linear map that changes with pos',
  'exercise.positions.core_rotates_each_pair':
    'The core rotates each pair (sin, cos) of PE(pos) by ω·{k} and finds PE(pos + {k}) within {rotation_max_error} over {n} positions: ',
  'exercise.positions.one_block_diagonal_rotation':
    'one block-diagonal rotation, the same at every position, which is what lets attention find "k tokens back". Usual mistake: thinking the relation depends on where you are.',
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.positions.range':
    'Every entry of the sinusoidal encoding is a sine or a cosine of some angle. What values can a sine or a cosine take, however large the angle?',
  'exercise.hint.positions.zero':
    'At position 0 every angle is 0. Dimension 1 is a cosine: what is the cosine of 0?',
  'exercise.hint.positions.shift':
    'Each pair (sin ωp, cos ωp) moves to (sin ω(p + k), cos ω(p + k)): the angle-addition formulas turn that into a fixed 2×2 matrix that depends on k, not on p.',
  'exercise.positions.between_minus_1_and_1': 'Between −1 and 1',
  'exercise.positions.between_0_and_1': 'Between 0 and 1',
});
