// The pool threshold ladder in a module Web Worker, the calling thread the page's compute worker is:
// started by bench/pool_threshold_browser.mjs; posts each line, then { done, from } or { error }.
import { poolLadder } from './pool_ladder.mjs';
import { createAttentionPool } from '../web/src/engine/pool.js';

const workers = Number(new URL(import.meta.url).searchParams.get('workers') ?? 2);
poolLadder({ createAttentionPool, workers, log: (line) => postMessage({ line }) })
  .then((from) => postMessage({ done: true, from }), (e) => postMessage({ error: String(e?.message ?? e) }));
