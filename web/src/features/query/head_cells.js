// How many cells one head's map has, and how many the whole-head view of "Follow one query" draws at most
// (the compute's headLogits traces every query twice: a view for small examples). The cells are read from
// the core's shape of the attention maps (resolveView's tensors.attention, [batch, n_heads, n_q, n_k]).

export const MAX_LOGIT_CELLS = 32 * 32;

/** The cells of one head's map of `config` (a validated config, with the core's tensor shapes). */
export function headCells(config) {
  const shape = config.tensors?.attention;
  if (!shape) throw new Error('the attention maps\' shape comes from the engine (resolveView), which has not resolved this view');
  return shape[2] * shape[3];
}
