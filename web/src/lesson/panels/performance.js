// The words of the performance panel (features/performance/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'performance.runs_label': 'The last runs, timed',
  'performance.measuring_this_browser_s': 'Measuring this browser’s SIMD peak after the first run…',
  'performance.measure_time_against_n': 'Measure time against n',
  'performance.no_run_yet': 'No run yet.',
  'performance.core_runs_web_worker':
    'The core runs in a Web Worker. A pass large enough for it to pay splits its heads over a pool of workers (plain Web Workers: no special headers needed); a smaller one runs on one. Percentages compare a run with the fastest this browser can multiply and add four floats at once (on one core).',
  'performance.pool_workers_large_passes':
    'pool workers for large passes (1 to {cores}, the logical cores this browser reports)',
  'performance.time_against_sequence_length': 'Time against sequence length',
  'performance.self_attention_current_d':
    'Self-attention at the current d_model and n_heads, n doubling each step. Cost grows like n·d² while the projections dominate and like n²·d once n passes d, so on these log–log axes the slope bends from 1 towards 2.',
  'performance.time_against_n_self': 'Time against n: self-attention, d_model {dModel}, n_heads {nHeads}',
  'performance.d_model_n_heads': 'd_model = {d_model}, n_heads = {n_heads}, {part} module: ',
  'performance.measurement_failed': 'The measurement failed: {message}',
  'performance.ms_per_forward_pass': 'ms per forward pass',
  'performance.last_run_workers': 'Last run: {used} workers.',
  'performance.last_run_1_worker': 'Last run: 1 worker (workers = 1: single-threaded).',
  'performance.last_run_1_worker_2':
    'Last run: 1 worker (it ran on the page’s own thread, which has no pool: a quick first run while the compute worker starts).',
  'performance.last_run_1_worker_3':
    'Last run: 1 worker (a pass with dropout runs whole: its dropped weights depend on the head).',
  'performance.last_run_1_worker_4':
    'Last run: 1 worker (below the split threshold of {value} MFLOP: splitting does not pay).',
  'performance.less_than_0_1': 'less than 0.1 ms',
  'performance.last_pass_workers_engines':
    'In the last pass the workers’ engines took {list}. The pass waits for the slowest worker: ',
  'performance.after_their_average_messages':
    '{wait} after their average; messages, copies and summing their partial outputs come on top.',
  'performance.this_browser_has_no':
    'This browser has no WebAssembly SIMD, so there is no f32x4 peak to compare with.',
  'performance.this_browser_s_f32x4':
    'This browser’s f32x4 peak, measured in the worker: {gflops} GFLOP/s (12 independent multiply-add chains on 4 floats).',
  'performance.no_runs_yet': 'No runs yet.',
  'performance.cancel': 'Cancel',
  'performance.workers_key': 'workers',
  'performance.measuring_n': 'Measuring n = {ns}…',
  'performance.measuring_phase': 'Measuring {phase} ({done} of {total})…',
  'performance.baseline': 'baseline',
  'performance.simd': 'SIMD',
  'performance.point': 'n {n}: {time}{part}',
  'performance.point_workers': ' ({workers} workers)',
  'performance.cancelled': 'Cancelled.',
  'performance.n_tokens': 'n (tokens)',
  'performance.measured': 'measured',
  'performance.default_workers': '{value} (default)',
  'performance.run': 'run',
  'performance.time': 'time',
  'performance.speed': 'speed',
  'performance.of_peak': '% of peak',
  'performance.module': 'module',
  'performance.workers': 'workers',
});
