// The words of the models panel (features/models/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'models.waiting_engine': 'Waiting for the engine…',
  'models.runs_this_tab': '✓ runs in this tab',
  'models.too_slow_tab_analysed': 'too slow for a tab: analysed only',
  'models.needs_one_pass_over': 'needs {total} for one pass, over the budget: analysed only',
  'models.load_into_inputs': 'Load {name} into the inputs',
  'models.loads_d_model_d':
    ' · loads at d_model {value} (d_k {d_k}) with the same {n_heads} query and {n_kv_heads} key/value heads, so its grouped layer runs here',
  'models.published_sizes_model_whole':
    'Published sizes. “Model” is the whole model\'s parameter count; “one layer” counts the four projection matrices and biases of one layer; the whole model stacks dozens of layers and adds embeddings and feed-forward blocks. ',
  'models.memory_one_forward_pass':
    'Memory is for one forward pass at n = {DEFAULT_PRESET_N} against this tab\'s budget of {budget}: the large ones are analysed but not run.',
  'models.model_click_load': 'model (click to load)',
  'models.model': 'model',
  'models.one_layer': 'one layer',
});
