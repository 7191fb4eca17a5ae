// More exercises of the chapter “gqa” (issue 36): the shape of Wᴷ when key/value heads are shared
// (objective 2), for a head grouping not on screen. Form: lesson/exercises/helpers.js.

import * as fmt from '../../../model/format.js';
import { text } from './more_exercise_text.js';

export const MORE_EXERCISES = [
  {
    id: 'gqa.wk-params', chapter: 'gqa', kind: 'number', objective: 2,
    setup({ config: c }) {
      const n_kv_heads = c.n_kv_heads === c.n_heads ? 1 : c.n_heads;
      return {
        params: { n_kv_heads, d_model: c.d_model, d_k: c.d_k },
        prompt: text('exercise.gqa.wk_prompt', { d_model: fmt.int(c.d_model), n_heads: c.n_heads, n_kv_heads, d_k: c.d_k }),
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads, d_k: c.d_k, d_v: c.d_v, n: 1, bias: true } }],
      };
    },
    reveal({ n_kv_heads, d_model, d_k }, [a]) {
      return { expected: a.params.w_k + a.params.b_k, explanation: text('exercise.gqa.wk_reveal', { n_kv_heads, d_model: fmt.int(d_model), d_k, w_k: fmt.int(a.params.w_k), b_k: fmt.int(a.params.b_k), value: fmt.int(a.params.w_k + a.params.b_k) }) };
    },
  },
];
