// The engine in a Node program (a server, a notebook's kernel, a script) leaves the host's error handling
// alone: Emscripten's loader adds uncaughtException and unhandledRejection listeners that re-throw unless
// built without them (cpp/bindings/wasm_module.cmake), which made an application's own handler unable to
// keep its process alive (it exited with status 7) and --unhandled-rejections=warn stop working. Each
// check runs a program of its own, as a host would, with the core and the labs module, SIMD and baseline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const api = new URL('../../web/src/engine/attention.js', import.meta.url).href;
const LOAD = `import { loadAttention } from ${JSON.stringify(api)};
for (const simd of [true, false]) { const attn = await loadAttention({ simd }); await attn.labs(); }`;

/** Runs `body` after LOAD in a Node program of its own (extra: Node's flags); { status, stdout, stderr }. */
function program(body, extra = []) {
  const run = spawnSync(process.execPath, [...extra, '--input-type=module', '-e', `${LOAD}\n${body}`], { encoding: 'utf8', timeout: 60000 });
  return { status: run.status, stdout: run.stdout.trim(), stderr: run.stderr.slice(0, 2000) };
}

test('loading the engines adds no process-wide error listener', () => {
  const run = program(`console.log(['uncaughtException', 'unhandledRejection'].map((e) => process.listenerCount(e)).join(','));`);
  assert.deepEqual([run.status, run.stdout], [0, '0,0'], run.stderr);
});

test('a host\'s own uncaughtException handler keeps its process alive', () => {
  const run = program(`process.on('uncaughtException', (err) => console.log('handled: ' + err.message));
setTimeout(() => { throw new Error('the host\\'s own error'); }, 0);
setTimeout(() => console.log('still running'), 50);`);
  assert.deepEqual([run.status, run.stdout], [0, 'handled: the host\'s own error\nstill running'], run.stderr);
});

test('--unhandled-rejections=warn still warns instead of stopping the process', () => {
  const run = program(`Promise.reject(new Error('not handled')); setTimeout(() => console.log('still running'), 50);`, ['--unhandled-rejections=warn']);
  assert.deepEqual([run.status, run.stdout], [0, 'still running'], run.stderr);
});
