// The learner words still written in code when lesson_text.test.mjs's net was tightened (issue 34: two
// words, or one word where it is shown, not three words anywhere): file → its literals as the test reads
// them (a template's expressions as 0). Each belongs in the lesson's data (lesson/panels/<feature>.js,
// looked up with text(id)); the list only shrinks: the test fails on a literal not listed here, and on a
// listed one its file no longer holds (then delete its line).
// What is left is the playground's frame (web/src/playground/), in every first view: moved as ids and lookups,
// its sentences cost the element 14-18 B gzipped each (measured), which its 200 kB budget does not have yet.
export const LEFTOVERS = {
  'web/src/playground/asks.js': [
    "this playground was removed",
    "the engine is not connected",
  ],
  'web/src/playground/connection.js': [
    "The WebAssembly engine could not start: 0",
  ],
  'web/src/playground/panel_host.js': [
    "Reload the page to try again.",
    "Change the inputs to try again.",
    "This panel could not be drawn: 0. 0",
  ],
  'web/src/playground/runbar.js': [
    "Ran in 0 · 0 · 0 module",
    "Run",
    "Cancel",
    "Loading…",
    "Loading the engine…",
    "run",
    "The WebAssembly engine could not start: 0.0",
    " Reload the page to try again.",
    "Loading the WebAssembly engine…",
    "Fix 0 to run0.",
    " (see below)",
    "Analysed, not run (see why below).",
    "Ran; timing the pass…",
    "Running as you type…",
    "Press Run (estimated 0).",
    "Running on 00",
    ", on this page’s thread",
    "Running…",
    "This view cannot run:",
    "Running 0… 0",
    "Running… 00",
  ],
  'web/src/playground/runs.js': [
    "Cancelled. Change the inputs or press Run again.",
    "The run did not finish: 0. Press Run to try again.",
    "The run failed: 0. Change the inputs, or press Run to try again.",
    "d_model 0 · h 0 · n_q 0 · n_k 0 · batch 0",
    "Batch item 0 could not be shown: 0. Press Run to try again.",
  ],
  'web/src/playground/view.js': [
    "From the link: 0.",
    "panels: 0 0; the others are shown.",
    "are not panels",
    "is not a panel",
  ],
};
