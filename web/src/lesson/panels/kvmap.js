// The words of the kvmap panel (features/kvmap/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'kvmap.mapping_appears_once_inputs':
    'The mapping appears once the inputs are valid and the engine has checked them.',
  'kvmap.multi_head_attention_every': 'multi-head attention: every query head has its own keys and values',
  'kvmap.multi_query_attention_every':
    'multi-query attention: every query head reads the one key/value head',
  'kvmap.grouped_query_attention_query':
    'grouped-query attention: the query heads of a row share its keys and values',
  'kvmap.query_heads_key_value':
    '{length} query heads, {size} key/value heads ({kind}). As the engine computes it:',
  'kvmap.key_value_head': 'key/value head',
  'kvmap.query_heads_that_read': 'query heads that read it',
  'kvmap.first_key_value_heads': 'The first {MAX_ROWS} of {size} key/value heads.',
  'kvmap.how_many': 'how many',
});
