// No two modules of web/src import each other, directly or through others: a cycle makes the
// order in which their top-level code runs depend on which one is imported first (a binding
// read too early is in its temporal dead zone), and it ties modules that should stand apart
// (model/training_settings.js once imported validate.js, which imports training.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsFiles } from './source_files.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'web/src');


// Static imports and re-exports: `import … from './x.js'`, `import './x.js'`, `export … from './x.js'`.
// Dynamic import() loads later, once every module has run, so it cannot make an order problem.
const STATIC = /^\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

/** { file: [files it imports statically] } for every module under web/src. */
function importGraph() {
  const graph = new Map();
  for (const file of jsFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    graph.set(file, [...text.matchAll(STATIC)].map((m) => resolve(dirname(file), m[1])));
  }
  return graph;
}

/** The first cycle found, as a list of files, or null (depth-first search, colouring the nodes). */
function findCycle(graph) {
  const state = new Map(); // 1: on the current path, 2: done
  const path = [];
  const visit = (file) => {
    state.set(file, 1);
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 1) return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next) && graph.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(file, 2);
    return null;
  };
  for (const file of graph.keys()) {
    if (!state.has(file)) {
      const cycle = visit(file);
      if (cycle) return cycle;
    }
  }
  return null;
}

test('the import walk sees the imports (a check of the test itself)', () => {
  const graph = importGraph();
  assert.ok(graph.size > 40, `${graph.size} modules`);
  const validate = graph.get(join(SRC, 'model/validate.js'));
  assert.ok(validate.includes(join(SRC, 'model/training_settings.js')), 'validate.js imports training.js');
  assert.ok(validate.includes(join(SRC, 'model/format.js')), 'validate.js imports format.js (import * as)');
  // The walk finds a cycle when there is one.
  const fake = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]);
  assert.deepEqual(findCycle(fake), ['a', 'b', 'c', 'a']);
  for (const imports of graph.values()) for (const target of imports) if (target.startsWith(SRC) && target.endsWith('.js')) assert.ok(graph.has(target), `${target} exists`);
});

test('no import cycle among web/src/**/*.js', () => {
  const cycle = findCycle(importGraph());
  assert.equal(cycle, null, cycle && `import cycle: ${cycle.map((f) => f.slice(SRC.length + 1)).join(' → ')}`);
});
