// The sequence lengths of the cost chapter's n control (pure, no DOM): 8 to 8192 tokens in quarter
// octaves, so the slider moves by about 19 % a step and the lesson's d (64, 512, 4096…) is a step.

/** The smallest and largest n of the control, and the steps per doubling. */
export const N_MIN = 8, N_MAX = 8192, STEPS_PER_OCTAVE = 4;

/** Every length of the control, ascending, whole and distinct: 8, 10, 11, 13, 16, 19, … 8192. */
export const N_STEPS = Object.freeze((() => {
  const octaves = Math.log2(N_MAX / N_MIN);
  const out = [];
  for (let k = 0; k <= octaves * STEPS_PER_OCTAVE; k++) {
    const n = Math.round(N_MIN * 2 ** (k / STEPS_PER_OCTAVE));
    if (n !== out[out.length - 1]) out.push(n);
  }
  return out;
})());

/** The index of the step nearest to n on the log scale (n outside the range: the nearest end). */
export function nearestStep(n) {
  if (!(n > 0)) return 0;
  let best = 0;
  for (let i = 1; i < N_STEPS.length; i++) {
    if (Math.abs(Math.log(N_STEPS[i] / n)) < Math.abs(Math.log(N_STEPS[best] / n))) best = i;
  }
  return best;
}
