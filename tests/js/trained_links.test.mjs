// A link with weights=trained makes the page train the lab's model again from its seed before the pass
// (issue 23, item 6): that training counts in the estimate that decides whether a run is refused or
// asked for, from the core's own count of a step's work (attn.trainingCost, train_step_macs). A link at
// the lab's largest sizes and most steps is refused; a small one is not; a model the compute side holds
// already (the lab's) costs no training.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { validate, MAX_RUN_SECONDS } from '../../web/src/model/validate.js';
import { fromHash } from '../../web/src/model/schema.js';
import { trainedKey } from '../../web/src/model/training_settings.js';

const attn = modules.simd;
const env = (extra = {}) => ({ analyze: attn.analyze, budget: attn.defaultMemoryBudget, isa: attn.isa, trainingCost: attn.trainingCost, ...extra });
const LARGEST = '#weights=trained&source=task&d_model=256&n_heads=16&train_task=copy_previous&train_d_model=256&train_n_heads=16' +
  '&train_seq_len=64&train_steps=5000';
const SMALL = '#weights=trained&source=task&d_model=32&n_heads=2&train_steps=60';

test('trainingCost is the count the core limits a step() call with (max_steps_per_call = ⌊2·10⁹ / step_macs⌋)', () => {
  for (const config of [{}, { task: 'copy_previous', d_model: 64, n_heads: 4, seq_len: 16 }, { task: 'lookup', d_model: 128, n_heads: 8, seq_len: 17 }]) {
    const { step_macs } = attn.trainingCost(config);
    const trainer = attn.createTrainer(config);
    assert.equal(trainer.max_steps_per_call, Math.max(1, Math.floor(2e9 / step_macs)), JSON.stringify(config));
    trainer.delete();
  }
  // More width, more work: the count follows the sizes.
  assert.ok(attn.trainingCost({ d_model: 64 }).step_macs > 2 * attn.trainingCost({ d_model: 32 }).step_macs);
  assert.throws(() => attn.trainingCost({ task: 'lookup', seq_len: 40 }), /seq_len|sequence/);
});

test('a link at the lab’s largest sizes and 5,000 steps is refused, its training counted and named', () => {
  const check = validate(fromHash(LARGEST), env());
  assert.equal(check.ok, true, JSON.stringify(check.errors));
  assert.equal(check.estimate.training.steps, 5000);
  assert.equal(check.estimate.training.step_macs, attn.trainingCost({ task: 'copy_previous', d_model: 256, n_heads: 16, seq_len: 64 }).step_macs);
  assert.ok(check.estimate.seconds > 600, `an estimated ${check.estimate.seconds} s: minutes of training`);
  assert.equal(check.blocked?.kind, 'time');
  assert.equal(check.blocked.field, 'train_steps');
  assert.match(check.blocked.message, /5,000 training steps/);
  assert.equal(check.auto, false);
});

test('a small trained link runs at once; the lab’s own model (held by the compute side) costs no training', () => {
  const small = validate(fromHash(SMALL), env());
  assert.equal(small.blocked, null);
  assert.ok(small.estimate.training.seconds > 0 && small.estimate.seconds < MAX_RUN_SECONDS);
  const largest = fromHash(LARGEST);
  const key = trainedKey(validate(largest, env()).config.train);
  const held = validate(largest, env({ trainingHeld: (train) => trainedKey(train) === key }));
  assert.equal(held.estimate.training, null);
  assert.equal(held.blocked, null, held.blocked?.message);
  // Another number of steps is another model: trained again, and counted.
  const other = validate(fromHash(LARGEST.replace('train_steps=5000', 'train_steps=4000')), env({ trainingHeld: (train) => trainedKey(train) === key }));
  assert.equal(other.blocked?.field, 'train_steps');
});
