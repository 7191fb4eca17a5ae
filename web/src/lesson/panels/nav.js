// The words of the chapter list and the pager (lesson/nav.js), by id: lesson/text.js serves them, an
// author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'nav.chapters': 'Chapters',
  'nav.pager': 'Previous and next chapter',
  'nav.progress_spoken': ', {done} of {total} exercises done',
  'nav.progress_complete': ', complete: all {total} exercises done',
  'nav.kicker': 'Chapter {number} of {count}',
  'nav.previous': 'Previous',
  'nav.next': 'Next',
  'nav.to_chapter': '{word}: {title}',
  'nav.steps': 'Steps of this chapter',
  'nav.step_count': 'Step {number} of {count}',
  'nav.step_label': 'Step {number}: {title}',
  'nav.step_back': 'Back',
  'nav.step_next': 'Next',
});
