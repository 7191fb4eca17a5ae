// The words of a playground's run bar (playground/runbar.js), by id: the Run and Cancel buttons, the status
// line while the engine loads, runs and after, and the heading of the problems no visible field shows.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'runbar.run': 'Run',
  'runbar.running_button': 'Running…',
  'runbar.cancel': 'Cancel',
  'runbar.loading': 'Loading…',
  'runbar.loading_engine_badge': 'Loading the engine…',
  'runbar.region': 'run',
  'runbar.ran': 'Ran in {time} · {rate} · {module} module',
  'runbar.module_baseline': 'baseline',
  'runbar.module_simd': 'SIMD',
  'runbar.engine_failed': 'The WebAssembly engine could not start: {message}.{retry}',
  'runbar.engine_retry': ' Reload the page to try again.',
  'runbar.loading_engine': 'Loading the WebAssembly engine…',
  'runbar.fix_fields': 'Fix {fields} to run{where}.',
  'runbar.field_name': '“{field}”',
  'runbar.see_below': ' (see below)',
  'runbar.highlighted': ' (highlighted)',
  'runbar.analysed_not_run': 'Analysed, not run (see why below).',
  'runbar.timing_pass': 'Ran; timing the pass…',
  'runbar.running_as_you_type': 'Running as you type…',
  'runbar.press_run': 'Press Run (estimated {time}).',
  'runbar.running_on': 'Running on {module}{where}',
  'runbar.on_page_thread': ', on this page’s thread',
  'runbar.cannot_run': 'This view cannot run:',
  'runbar.running_phase': 'Running {phase}… {elapsed}',
  'runbar.running_elapsed': 'Running… {elapsed}{estimate}',
  'runbar.estimated': ' (estimated {time})',
});
