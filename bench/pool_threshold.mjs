// `node bench/pool_threshold.mjs [workers]`: where splitting a forward pass over the worker pool
// starts to pay on this machine, in Node (the ladder is bench/pool_ladder.mjs; the same in Chromium:
// bench/pool_threshold_browser.mjs). The pool's SPLIT_FLOPS was set from its output.
import os from 'node:os';
import { poolLadder } from './pool_ladder.mjs';
import { createAttentionPool, SPLIT_FLOPS } from '../web/src/engine/pool.js';
import { measuringScript } from '../scripts/cli.mjs';

const { args } = measuringScript({ seconds: 1200, usage: 'usage: node bench/pool_threshold.mjs [workers, default 2] [--timeout S]' });
const workers = Number(args[0] ?? 2);

async function main() {
  console.log(`pool threshold: ${workers} workers, ${os.availableParallelism()} logical cores, ` +
    `load ${os.loadavg()[0].toFixed(2)}; current SPLIT_FLOPS ${SPLIT_FLOPS / 1e6} MFLOP`);
  await poolLadder({ createAttentionPool, workers, log: (line) => console.log(line) });
  console.log(`load at the end ${os.loadavg()[0].toFixed(2)}`);
}

main().catch((e) => {
  console.error(`pool_threshold FAILED: ${e.message}`);
  process.exit(1);
});
