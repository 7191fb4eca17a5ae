// The lazy features' own CSS (features/<name>/style.css), by feature name. The build
// (scripts/make_dist.mjs) fills this table in dist/panels.js, so a lazy panel's rules travel with its
// code; where no build runs (Node's tests, which draw nothing) it stays empty.
export const LAZY_CSS = {};
