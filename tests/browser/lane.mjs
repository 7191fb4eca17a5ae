// One lane of tests/browser/run.mjs: a Node process that runs test files one after another under
// node:test, each as a suite named by its path, asking run.mjs (over the IPC channel) for the next file
// when the last one has ended, its `after` hooks included. A process per file cost ~1 CPU-s each (Node
// and playwright-core loaded again, ~50 files a stage); a lane pays that once. The files run one at a
// time in a lane, each with its own harness (startHarness in its `before`, closed in its `after`), all of
// them with the lane's one browser, closed here after the last.
// run.mjs names a file that stops the lane, and stops a lane that does not end after its last file.
//
// A file that fails to load is a failing test named for it (a suite whose body throws is not counted as a
// failure in node:test's summary). Messages: to run.mjs { next: true } (ready), { started: file },
// { ended: file }, { browserCpu } (the lane's browser's CPU, as it closes it); from run.mjs { file } or
// { file: null } (no more: the lane ends).
import { describe, it } from 'node:test';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// run.mjs stops a lane with SIGTERM (a file past its time), and passes Ctrl-C on: the lane ends at once.
// Playwright's own handler, there once the lane has launched its browser, would only close the browser and
// let the lane go on to its next file; on exit Playwright kills the browser's processes.
process.on('SIGTERM', () => process.exit(143));
process.on('SIGINT', () => process.exit(130));

/** The next file from run.mjs, or null when there is none. */
const nextFile = () => new Promise((done) => {
  process.once('message', (m) => done(m?.file ?? null));
  process.send({ next: true });
});

for (let file = await nextFile(); file; file = await nextFile()) {
  process.send({ started: file });
  // Node 20–23: a top-level describe() returns a promise settled when the suite has ended (Node 24 returns
  // nothing; the next file would then start at once, beside this one). Refused loudly rather than run so.
  const ended = describe(file, async () => {
    try {
      await import(pathToFileURL(resolve(file)).href);
    } catch (error) {
      it(`${file} loads`, () => { throw error; });
    }
  });
  if (typeof ended?.then !== 'function') throw new Error(`lane.mjs needs node:test's describe() to return a promise (Node 20 to 23), not ${process.version}'s`);
  await ended;
  process.send({ ended: file });
}
// The lane's browser (harness.mjs, when a file launched one): its processes' CPU to run.mjs, then closed.
const closeBrowser = globalThis[Symbol.for('attention-playground.lane-browser')];
if (closeBrowser) { const browserCpu = await closeBrowser(); await new Promise((sent) => process.send({ browserCpu }, sent)); }
process.disconnect(); // node:test prints its summary and the lane ends, unless a file left something open
