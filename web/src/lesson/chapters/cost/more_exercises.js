// More exercises of the chapter “cost” (issue 36): when each FLOP term dominates (objective 3) and why
// the head count changes neither the parameters nor the multiply-adds (4), asked for a case not on
// screen (another n, another head count). Form: lesson/exercises/helpers.js.

import * as fmt from '../../../model/format.js';
import { text } from './more_exercise_text.js';
import { otherCase } from '../../exercises/other_case.js';

/** Two head counts for the same d_model: the live one and 1, or d_model heads of d_k = 1 and 1 when the live layer has one head. */
const headCounts = (c) => (c.n_heads > 1 ? [c.n_heads, 1] : [c.d_model, 1]);
/** How a count compares with another: the choice keys of the two exercises below. */
const compare = (a, b) => (a === b ? 'same' : a > b ? 'more' : 'fewer');
const headChoices = (h, other) => [
  { key: 'more', label: text('exercise.cost.heads_more', { h, other }) },
  { key: 'same', label: text('exercise.cost.heads_same') },
  { key: 'fewer', label: text('exercise.cost.heads_fewer', { h, other }) },
];

export const MORE_EXERCISES = [
  {
    id: 'cost.heads-params', chapter: 'cost', kind: 'choice', objective: 4,
    setup({ config: c }) {
      const [h, other] = headCounts(c), d_model = c.d_model;
      return {
        params: { h, other, d_model },
        prompt: text('exercise.cost.heads_params_prompt', { d_model: fmt.int(d_model), h, other }),
        choices: headChoices(h, other),
        calls: [h, other].map((n_heads) => ({ op: 'analyze', args: { d_model, n_heads, n: 1, bias: false } })),
      };
    },
    reveal({ h, other }, [many, few]) {
      return {
        expected: compare(many.params.total, few.params.total),
        explanation: text('exercise.cost.heads_params_reveal', { h, other, many: fmt.int(many.params.total), few: fmt.int(few.params.total), d_k: many.dims.d_k, d_k2: few.dims.d_k }),
      };
    },
  },
  {
    id: 'cost.heads-flops', chapter: 'cost', kind: 'choice', objective: 4,
    setup({ config: c }) {
      const [h, other] = headCounts(c), { d_model, n } = otherCase(c, { n: { from: 'n_q', times: 3 } });
      return {
        params: { h, other, n },
        prompt: text('exercise.cost.heads_flops_prompt', { d_model: fmt.int(d_model), h, other, n }),
        choices: headChoices(h, other),
        calls: [h, other].map((n_heads) => ({ op: 'analyze', args: { d_model, n_heads, n } })),
      };
    },
    reveal({ h, other }, [many, few]) {
      return {
        expected: compare(many.flops.exact_macs, few.flops.exact_macs),
        explanation: text('exercise.cost.heads_flops_reveal', { h, other, many: fmt.short(many.flops.exact_macs), few: fmt.short(few.flops.exact_macs) }),
      };
    },
  },
  {
    id: 'cost.dominant-long', chapter: 'cost', kind: 'choice', objective: 3,
    setup({ config: c }) {
      const d = c.d_model, { n } = otherCase(c, { n: { from: 'd_model', times: 4 } });
      return {
        params: { n, d },
        prompt: text('exercise.cost.dominant_long_prompt', { n: fmt.int(n), d: fmt.int(d) }),
        choices: [
          { key: 'projections', label: text('exercise.cost.projections_about_n_d2') },
          { key: 'attention', label: text('exercise.cost.attention_matrix_scores_weighted') },
          { key: 'softmax', label: text('exercise.cost.softmax_about_n2') },
        ],
        calls: [{ op: 'analyze', args: { d_model: d, n_heads: c.n_heads, n } }],
      };
    },
    reveal(_, [a]) {
      const l = a.flops.lesson;
      return {
        expected: a.flops.projections_dominate_lesson ? 'projections' : 'attention',
        explanation: text('exercise.cost.dominant_long_reveal', { projections: fmt.short(l.projections), attention: fmt.short(l.scores + l.weighted_sum), reason: a.flops.dominant_reason }),
      };
    },
  },
  {
    id: 'cost.projection-macs', chapter: 'cost', kind: 'number', objective: 3,
    setup({ config: c }) {
      const d = c.d_model, { n } = otherCase(c, { n: { from: 'n_q', times: 2 } });
      return {
        params: { n, d },
        prompt: text('exercise.cost.projection_macs_prompt', { n, d: fmt.int(d) }),
        tolerance: { rel: 0.01 },
        calls: [{ op: 'analyze', args: { d_model: d, n_heads: c.n_heads, n } }],
      };
    },
    reveal({ n, d }, [a]) {
      const macs = a.flops.stages.filter((s) => s.stage.endsWith('projection')).reduce((sum, s) => sum + s.macs, 0);
      return { expected: macs, explanation: text('exercise.cost.projection_macs_reveal', { n, d: fmt.int(d), macs: fmt.int(macs) }) };
    },
  },
];
