// The one way an exercise asks about a case not on screen ("what if d_model were twice as large?"): a
// choice of sizes, not a rule of them. The changed sizes are data ({ d_model: { times: 2 } }), read here
// and nowhere else; the core then analyses the case the exercise names (its `calls`) and says whether it
// is valid. tests/js/core_rules_check.mjs allows otherCase only with number literals in its changes.

const OPS = new Set(['from', 'times', 'plus']);
/** The sizes a case is made of (the rest of a config, its sentence, its mask…, is not read). */
const SIZES = ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'n_q', 'n_k', 'batch'];

/**
 * The sizes of `c` (the live config, or any object of sizes: d_model, n_heads, n_kv_heads, d_k, d_v, n_q, n_k,
 * batch, those it holds) with `changes` applied: { name: { from? (a size of c, default name), times? (1),
 * plus? (0) } } → { …sizes, name: c[from] · times + plus, … }. `name` may be a size of c or a
 * new one (a sequence length n, a position, a head). Throws for an unknown key, a non-number, a missing size
 * or a result that is not a whole number.
 */
export function otherCase(c, changes) {
  const out = Object.fromEntries(SIZES.filter((k) => k in c).map((k) => [k, c[k]]));
  for (const [name, change] of Object.entries(changes)) {
    const unknown = Object.keys(change).filter((k) => !OPS.has(k));
    if (unknown.length) throw new Error(`otherCase: ${name} has ${unknown.join(', ')}; a change takes from, times and plus`);
    const { from = name, times = 1, plus = 0 } = change;
    for (const [op, v] of [['times', times], ['plus', plus]]) {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`otherCase: ${name}'s ${op} must be a finite number, got ${String(v)}`);
    }
    const base = c[from];
    if (typeof base !== 'number') throw new Error(`otherCase: ${name} is taken from ${from}, which the case does not hold as a number`);
    const value = base * times + plus;
    if (!Number.isInteger(value)) throw new Error(`otherCase: ${name} = ${from} × ${times} + ${plus} = ${value} is not a whole number`);
    out[name] = value;
  }
  return out;
}
