// The lazy features' own CSS (features/<name>/style.css), by feature name. The build
// (scripts/make_dist.mjs) fills this table in dist/panels.js, so a lazy panel's rules travel with its
// code; where no build runs (Node's tests, which draw nothing) it stays empty. LAZY_SHARED_CSS: the rules
// several lazy features share (features/lazy_shared.css), adopted with every lazy panel before its own.
export const LAZY_CSS = {};
export const LAZY_SHARED_CSS = '';
