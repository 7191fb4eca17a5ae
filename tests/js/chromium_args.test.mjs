// scripts/chromium.mjs's --disable-features replaces playwright-core's own (Chromium keeps the last one
// given), so it must repeat playwright-core's list: this reads that list from the installed playwright-core
// and fails, naming what is missing, when an update changes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PLAYWRIGHT_FEATURES, POPUP_FEATURES, chromiumLaunchOptions } from '../../scripts/chromium.mjs';

test("the browsers' --disable-features keeps playwright-core's list (the measuring scripts: but paint holding) and adds the omnibox popup's features", () => {
  const bundle = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'lib/coreBundle.js');
  const source = readFileSync(bundle, 'utf8');
  const list = source.match(/disabledFeatures = \[([\s\S]*?)\]\.filter/);
  assert.ok(list, `no disabledFeatures list found in ${bundle}: see how playwright-core passes --disable-features now`);
  const theirs = [...list[1].matchAll(/^\s*"([A-Za-z]+)"/gm)].map((m) => m[1]);
  assert.ok(theirs.length >= 10, `read only ${theirs.length} names: ${theirs.join(', ')}`);
  assert.deepEqual(theirs.filter((f) => !PLAYWRIGHT_FEATURES.includes(f)), [], 'playwright-core disables these and scripts/chromium.mjs does not');
  const featuresOf = (options) => {
    const flags = chromiumLaunchOptions(options).args.filter((a) => a.startsWith('--disable-features='));
    assert.ok(flags.length <= 1, `${flags.length} --disable-features flags: Chromium would keep only the last`);
    return flags.length ? flags[0].slice('--disable-features='.length).split(',') : [];
  };
  // The tests: all of playwright-core's, and the popup's.
  const tests = featuresOf({});
  for (const f of [...theirs, ...POPUP_FEATURES]) assert.ok(tests.includes(f), `${f} is not disabled for the tests (${tests})`);
  // The measuring scripts: the same but paint holding, which a learner's browser has.
  const learner = featuresOf({ learner: true });
  assert.deepEqual([...theirs, ...POPUP_FEATURES].filter((f) => !learner.includes(f)), ['PaintHolding']);
  assert.deepEqual(featuresOf({ browserUi: true }), [], 'with the browser UI, playwright-core passes its own list alone');
});
