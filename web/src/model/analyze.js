// The one way the page asks the engine for an analysis (pure, no DOM). The engine's analyze takes
// `attention: 'self' | 'cross'` so that cross-attention with n_q = n_k is costed as cross-attention;
// an engine built before that option existed refuses it as unknown, and is then asked without it.
// Once every engine takes the option, ATTENTION_OPTION_REQUIRED can be set to true (the flip).

const ATTENTION_OPTION_REQUIRED = false;
const supports = new WeakMap(); // analyze function → whether it takes `attention`

/** analyze(args) with args.attention passed when the engine knows it. */
export function analyzeWith(analyze, args) {
  if (supports.get(analyze) === false) {
    const { attention, ...rest } = args;
    return analyze(rest);
  }
  try {
    const result = analyze(args);
    supports.set(analyze, true);
    return result;
  } catch (err) {
    if (ATTENTION_OPTION_REQUIRED || !/unknown option 'attention'/.test(String(err?.message))) throw err;
    supports.set(analyze, false);
    const { attention, ...rest } = args;
    return analyze(rest);
  }
}

/** True once the engine was seen to take `attention` (false: it refused it; undefined: not asked yet). */
export const takesAttentionOption = (analyze) => supports.get(analyze);
