// One lane of tests/browser/run.mjs: a Node process that runs test files one after another under
// node:test, each as a suite named by its path, asking run.mjs (over the IPC channel) for the next file
// when the last one has ended, its `after` hooks included. A process per file cost ~1 CPU-s each (Node
// and playwright-core loaded again, ~50 files a stage); a lane pays that once. The files still run one at
// a time in a lane, each with its own harness (startHarness in its `before`), so what one file opens it
// closes before the next starts.
//
// A file that fails to load is a failing test named for it (a suite whose body throws is not counted as a
// failure in node:test's summary). Messages: to run.mjs { next: true } (ready), { started: file },
// { ended: file }; from run.mjs { file } or { file: null } (no more: the lane ends).
import { describe, it } from 'node:test';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The next file from run.mjs, or null when there is none. */
const nextFile = () => new Promise((done) => {
  process.once('message', (m) => done(m?.file ?? null));
  process.send({ next: true });
});

for (let file = await nextFile(); file; file = await nextFile()) {
  process.send({ started: file });
  await describe(file, async () => {
    try {
      await import(pathToFileURL(resolve(file)).href);
    } catch (error) {
      it(`${file} loads`, () => { throw error; });
    }
  });
  process.send({ ended: file });
}
process.disconnect(); // nothing keeps the process then: node:test prints its summary and the lane ends
