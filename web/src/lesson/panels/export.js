// The words of the export panel (features/export/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';
import './export_service.js'; // the Export button's words, which the panel's failure line shares

export { text } from '../text.js';

addText({
  'export.attention_weights_head': 'Attention weights{imported}, head {value} of {n_heads}{part}',
  'export.attention_weights_all_heads': 'Attention weights{imported}, all {n} heads{part}',
  'export.map_png_2': 'Map as PNG (2×)',
  'export.map_svg': 'Map as SVG',
  'export.export_tensors_reproduce_py': 'Export tensors and reproduce.py (.zip)',
  'export.drop_tensor_files_here': 'drop tensor files here',
  'export.drop_npy_npz_json': 'Drop .npy, .npz, .json or .csv files here, or ',
  'export.name_npy_or_csv':
    'Name a .npy or .csv after its tensor (query.npy, wq.npy, attention.csv…). Inputs and parameters ',
  'export.run_through_layer_attention':
    'run through the layer; attention maps alone (n_heads × n_q × n_k, or batch × n_heads × n_q × n_k) are drawn as they are.',
  'export.take_numbers_out_every':
    'Take the numbers out: every tensor of this run as a NumPy .npy file (inputs, Q, K, V, the ',
  'export.layer_s_parameters_attention':
    'layer’s parameters, the attention weights, the head outputs and the output), view.json (this view) and reproduce.py, ',
  'export.pytorch_script_that_recomputes':
    'a PyTorch script that recomputes the output and the weights from them and checks they agree.',
  'export.figures_enlarged_attention_map':
    'Figures: the enlarged attention map (the head and batch item the heatmaps show) with its title, ',
  'export.axes_token_labels_colour': 'axes, token labels and colour scale, in the theme shown.',
  'export.every_head_s_map': 'Every head’s map (the small maps) as one figure:',
  'export.tables_panels_shown_csv': 'Tables of the panels shown, as CSV on the clipboard:',
  'export.bring_your_own_your':
    'Bring your own: your Q, K, V inputs, parameters or attention maps, checked against this view’s sizes.',
  'export.figure_could_not_made': 'The figure could not be made: {message}',
  'export.copy_csv': 'Copy “{title}”{part} as CSV',
  'export.no_table_shown': 'No table is shown.',
  'export.table_gone': 'The table “{title}” is no longer shown: the list of tables is up to date again.',
  'export.copied_csv_rows': 'Copied “{title}” as CSV ({length} rows).',
  'export.saved_table_csv_clipboard': 'Saved “{title}” as table.csv (the clipboard is not available here).',
  'export.these_attention_maps': 'these attention maps',
  'export.imported_view_now_runs': 'Imported {value}: the view now runs with {part}.',
  'export.set_imported_none_or': '{part} Set imported to none (or change the sizes) to go back.',
  'export.imported': ' (imported)',
  'export.batch_item': ', batch item {b}',
  'export.decoder_queries': 'decoder queries',
  'export.encoder_keys': 'encoder keys',
  'export.queries': 'queries',
  'export.keys': 'keys',
  'export.pick_them': 'pick them: ',
  'export.light_theme': ' light theme',
  'export.saved_figure': 'Saved {name} ({size}).',
  'export.table_n': 'Table {n}',
  'export.exporting': 'Exporting…',
  'export.saved_bundle': 'Saved {name} ({bytes} bytes).',
  'export.reading_files': 'Reading {names}…',
  'export.them': 'them',
  'export.not_used': ' Not used: {names}.',
  'export.not_imported': 'Not imported: {message}',
});
