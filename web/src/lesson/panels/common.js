// Words the panels share (ui/dom.js), by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'common.table_of': 'Table: {columns}',
});
