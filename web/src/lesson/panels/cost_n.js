// The words of the cost chapter's n control (features/cost_n/), by id: lesson/text.js serves them
// (text(id, values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'cost_n.label': 'n, tokens (what if):',
  'cost_n.waiting': 'The counts appear once the inputs are valid.',
  'cost_n.verdict': 'Here {reason}.',
  'cost_n.lines_cross': ' The two lines cross here.',
  'cost_n.projections': 'projections, one of the four: {formula} = {value} multiply-adds',
  'cost_n.attention': 'scores Q·Kᵀ: {formula} = {value} multiply-adds (A·V costs as much again)',
  'cost_n.chart_note': 'Both lesson terms against n on log scales, counted by the core for this layer; the dots mark the n chosen above. n·d² is a straight line of slope 1, n²·d of slope 2: they cross at n = d = {d}.',
  'cost_n.axis_n': 'n (tokens)',
  'cost_n.axis_ops': 'multiply-adds',
  'cost_n.series_projections': 'n·d² (one projection)',
  'cost_n.series_attention': 'n²·d (Q·Kᵀ)',
  'cost_n.series_here_projections': 'n·d² at this n',
  'cost_n.series_here_attention': 'n²·d at this n',
});
