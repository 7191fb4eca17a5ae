// Benchmarks one case (a size and need_weights on or off) across all systems: check the outputs
// agree, warm up, then time round-robin so drift (heat, the other core) hits every system alike.
import { checkOutputsAgree, checkWeightsAgree } from './compare.mjs';
import { makeInput, makeWeights } from './data.mjs';
import { SETTLE_MS, settle } from './settle.mjs';
import { median, now } from './stats.mjs';

// Repeat policy: about ROW_BUDGET_MS of timed runs per system and case, at least MIN_REPS (large
// sizes) and at most MAX_REPS (small ones). Odd counts give a true middle value for the median.
const ROW_BUDGET_MS = 1500;
const MIN_REPS = 3;
const MAX_REPS = 21;

function repsFor(msPerRun) {
  const r = Math.round(ROW_BUDGET_MS / Math.max(msPerRun, 0.01));
  return Math.min(MAX_REPS, Math.max(MIN_REPS, r | 1));
}

async function timed(runner, x, need_weights) {
  const t0 = now();
  const r = await runner.run(x, need_weights);
  return { ms: now() - t0, result: r };
}

/**
 * dims: { d_model, n_heads, d_k, d_v, batch, n }. Returns per system { ms, reps, memoryBytes } and
 * the worst relative output difference. Throws when outputs disagree. Before every timed run
 * there is a full garbage collection (none when `collect` is false) and an untimed pause of
 * settleMs: settle.mjs says why.
 */
export async function measureCase(systems, dims, need_weights, log = () => {}, { settleMs = SETTLE_MS, collect = true } = {}) {
  const caseName = `d_model=${dims.d_model} n_heads=${dims.n_heads} n=${dims.n} need_weights=${need_weights}`;
  const weights = makeWeights(dims);
  const x = makeInput(dims);
  const runners = [];
  for (const s of systems) runners.push(await s.create(dims, weights, need_weights));

  try {
    // Run 1 of every system is the checked run and the first warm-up. Outputs are copied, in
    // case a system hands back a view into its heap. Weights are compared to the first system's
    // as they arrive, so at most two weight tensors are alive at once.
    const outputs = new Map();
    const firstMs = [];
    let refWeights = null, worstWeights = 0;
    for (let i = 0; i < systems.length; i++) {
      const { ms, result } = await timed(runners[i], x, need_weights);
      firstMs.push(ms);
      outputs.set(systems[i].label, Float32Array.from(result.output));
      if (need_weights) {
        if (i === 0) refWeights = Float32Array.from(result.weights);
        else worstWeights = Math.max(worstWeights, checkWeightsAgree(caseName, systems[0].label, refWeights, systems[i].label, result.weights));
      }
    }
    refWeights = null;
    const worstOutput = checkOutputsAgree(caseName, outputs);
    outputs.clear();

    // Second warm-up (skipped when one run already costs over a second: tiered-up by then).
    const estimateMs = [];
    for (let i = 0; i < systems.length; i++) {
      estimateMs.push(firstMs[i] > 1000 ? firstMs[i] : (await timed(runners[i], x, need_weights)).ms);
    }
    const reps = estimateMs.map(repsFor);
    log(`  ${caseName}: reps ${systems.map((s, i) => `${s.key}=${reps[i]}`).join(' ')}`);

    // Round-robin: each pass runs every system that still needs samples, starting one system
    // later than the previous pass so no system always follows the same neighbour.
    const samples = systems.map(() => []);
    for (let pass = 0; samples.some((t, i) => t.length < reps[i]); pass++) {
      for (let j = 0; j < systems.length; j++) {
        const i = (j + pass) % systems.length;
        if (samples[i].length >= reps[i]) continue;
        await settle({ ms: settleMs, collect });
        samples[i].push((await timed(runners[i], x, need_weights)).ms);
      }
    }

    return {
      caseName, dims, need_weights, worstOutput, worstWeights,
      bySystem: systems.map((s, i) => ({
        key: s.key, label: s.label, ms: median(samples[i]), reps: reps[i], memoryBytes: s.memoryBytes(),
        workersUsed: runners[i].workersUsed ?? null, // pool runners: workers of the last pass (0: calling thread)
      })),
    };
  } finally {
    for (const r of runners) await r.dispose();
  }
}
