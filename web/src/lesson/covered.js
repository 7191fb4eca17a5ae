// Whether a figure a panel shows answers a question the learner is still asked (issue 36: no answer on
// screen before Check): a panel covers that figure while this is true. The lesson's side of it, so panels
// need not know how the questions are kept.

/** True while question `id` is shown and not done yet (the session's view: open(id)). */
export const stillAsked = (view, id) => !!view?.exercises?.open?.(id);
