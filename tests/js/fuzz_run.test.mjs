// tests/fuzz/run.sh's bounds, with a stand-in for a libFuzzer driver (a script that prints libFuzzer's
// final lines): ATTN_FUZZ_RUNS asks for a number of inputs and is passed as -runs; a run that ends short
// of it without a finding (its time bound reached) fails and says so, as does one that gives no count;
// a bad bound is refused before any driver starts. The real drivers run in the full test command (scripts/test.sh, the fuzz stage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runSh = fileURLToPath(new URL('../fuzz/run.sh', import.meta.url));

/**
 * Runs `run.sh fuzz` with a stand-in driver that writes its arguments to a file, reports `executed`
 * inputs (libFuzzer's stat line; null: no such line) and exits with `exit` (libFuzzer's status after a
 * crash is non-zero). Returns the status, the output and the driver's arguments.
 */
function fuzzWith(env, executed, exit = 0) {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-run-'));
  try {
    const driver = join(dir, 'driver.sh');
    const stat = executed === null ? '' : `echo "stat::number_of_executed_units: ${executed}"\n`;
    writeFileSync(driver, `#!/usr/bin/env bash\necho "$@" > "${dir}/args"\necho "INFO: Seed: 42"\n${stat}exit ${exit}\n`);
    chmodSync(driver, 0o755);
    const r = spawnSync('bash', [runSh, 'fuzz', driver, join(dir, 'corpus'), join(dir, 'work')], {
      encoding: 'utf8', env: { PATH: process.env.PATH, ...env },
    });
    let args = null;
    try { args = readFileSync(join(dir, 'args'), 'utf8').trim(); } catch { /* the driver did not start */ }
    return { status: r.status, out: r.stdout + r.stderr, args };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('ATTN_FUZZ_RUNS is passed to the driver as -runs, with a 600 s bound unless ATTN_FUZZ_SECONDS says otherwise', () => {
  const r = fuzzWith({ ATTN_FUZZ_RUNS: '6000' }, 6000);
  assert.equal(r.status, 0, r.out);
  assert.match(r.args, /-runs=6000\b/);
  assert.match(r.args, /-max_total_time=600\b/);
  assert.match(r.out, /6000 inputs in \d+ s \(seed 42\), findings: 0/);
  const bounded = fuzzWith({ ATTN_FUZZ_RUNS: '50', ATTN_FUZZ_SECONDS: '30' }, 50);
  assert.equal(bounded.status, 0, bounded.out);
  assert.match(bounded.args, /-max_total_time=30\b/);
});

test('without ATTN_FUZZ_RUNS a run is bounded by time alone: 10 s, or ATTN_FUZZ_SECONDS', () => {
  const r = fuzzWith({}, 123);
  assert.equal(r.status, 0, r.out);
  assert.doesNotMatch(r.args, /-runs=/);
  assert.match(r.args, /-max_total_time=10\b/);
  assert.match(fuzzWith({ ATTN_FUZZ_SECONDS: '60' }, 1).args, /-max_total_time=60\b/);
});

test('a run that stops short of the inputs asked fails and says how many it ran', () => {
  const r = fuzzWith({ ATTN_FUZZ_RUNS: '6000', ATTN_FUZZ_SECONDS: '5' }, 4131);
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /stopped after \d+ s \(bound 5 s\) with 4131 of the 6000 inputs asked \(ATTN_FUZZ_RUNS\)/);
});

test('a driver that fails short of the inputs asked is a finding, not a short run', () => {
  const r = fuzzWith({ ATTN_FUZZ_RUNS: '6000' }, 17, 1);
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /17 inputs in \d+ s \(seed 42\), findings: 1/);
  assert.doesNotMatch(r.out, /stopped after/);
});

test('a run with no count of its inputs fails, with or without ATTN_FUZZ_RUNS', () => {
  for (const env of [{ ATTN_FUZZ_RUNS: '6000' }, {}]) {
    const r = fuzzWith(env, null);
    assert.equal(r.status, 1, `${JSON.stringify(env)}: ${r.out}`);
    assert.match(r.out, /printed no count of the inputs it ran/);
  }
});

test('a bound that is not a whole number is refused before any driver starts', () => {
  for (const [env, message] of [
    [{ ATTN_FUZZ_RUNS: 'many' }, /ATTN_FUZZ_RUNS must be a whole number of inputs from 1 to 999999999 \(got 'many'\)/],
    [{ ATTN_FUZZ_RUNS: '0' }, /ATTN_FUZZ_RUNS must be a whole number/],
    [{ ATTN_FUZZ_RUNS: '00' }, /ATTN_FUZZ_RUNS must be a whole number/], // -runs=0: the corpus only
    [{ ATTN_FUZZ_RUNS: '-5' }, /ATTN_FUZZ_RUNS must be a whole number/],
    [{ ATTN_FUZZ_RUNS: '99999999999999999999' }, /ATTN_FUZZ_RUNS must be a whole number/],
    [{ ATTN_FUZZ_SECONDS: '1.5' }, /ATTN_FUZZ_SECONDS must be a whole number of seconds from 1 to 999999999 \(got '1.5'\)/],
    [{ ATTN_FUZZ_SECONDS: '000' }, /ATTN_FUZZ_SECONDS must be a whole number/], // -max_total_time=0: no limit
    [{ ATTN_FUZZ_RUNS: '100', ATTN_FUZZ_SECONDS: 'x' }, /ATTN_FUZZ_SECONDS must be a whole number/],
  ]) {
    const r = fuzzWith(env, 1);
    assert.equal(r.status, 2, `${JSON.stringify(env)}: ${r.out}`);
    assert.match(r.out, message);
    assert.equal(r.args, null, `${JSON.stringify(env)}: the driver started`);
  }
});
