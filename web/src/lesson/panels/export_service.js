// The words the export service shows in every playground's first view (the run bar's Export button, the
// notebook's import refusal), apart from the export panel's (panels/export.js, loaded with the panel),
// so the first view does not carry the panel's words. lesson/text.js serves them by id.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'export.notebook_tensors_not_imported': 'The notebook\'s tensors were not imported: {message}',
  'export.export': 'Export',
  'export.export_failed': 'Export failed: {message}', // the panel's too
  'export.save_run_tensors_zip': 'Save this run’s tensors (.npy), view.json and reproduce.py as a zip',
});
