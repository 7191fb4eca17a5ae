// The folds of "Follow one query" (issue 37): one per stage, one open at a time (opening one folds the
// others; a "Next" button opens the next and moves the focus to its title), then a fold with the whole
// head's logits and weights with and without 1/√d_k, asked for from the compute only when it opens
// (n_q traces twice). The stages' bodies: stage_bodies.js.

import * as fmt from '../../model/format.js';
import { logitsSection } from './logits_view.js';
import { stageList, stageResult } from './stage_bodies.js';
import { text } from '../../lesson/panels/query.js';
import '../../lesson/panels/query_stages.js'; // the stages' words

const MAX_LOGIT_CELLS = 32 * 32; // the whole head's tables (as the worker's headLogits allows)

/** One stage as a fold: its title and short result in the summary, its numbers inside, a "Next" button. */
function stageFold({ h }, { name, title, result, body, next, nextTitle }) {
  return h('details', { class: 'query-stage', dataset: { stage: name } },
    h('summary', {}, h('span', { class: 'stage-title' }, title), result ? h('span', { class: 'stage-result' }, result) : null),
    h('div', { class: 'stage-body' }, body,
      next ? h('button', { type: 'button', class: 'stage-next', onclick: next }, text('query.stage.next', { name: nextTitle })) : null));
}

/**
 * The folds for trace `t` with the stages' `bodies`: an element. ctx: { dom, actions, c, t, at: { item, head,
 * query, key }, labels_q, labels_k, open (the stage to open), onOpen(name), current() → false once a newer
 * trace is drawn }.
 */
export function stageFolds({ dom, actions, c, t, at, labels_q, labels_k, bodies, open, onOpen, current }) {
  const { h, fill } = dom;
  const list = stageList(c, t);
  const folds = [];
  const openStage = (name, focus) => {
    const fold = folds.find((f) => f.dataset.stage === name);
    if (!fold) return;
    for (const other of folds) if (other !== fold) other.open = false; // at once: the toggle event comes a task later
    fold.open = true;
    if (focus) fold.querySelector('summary').focus();
  };
  list.forEach(([name, title], k) => {
    const next = list[k + 1];
    folds.push(stageFold(dom, { name, title, result: stageResult(name, t, at.key), body: bodies[name],
      next: next ? () => openStage(next[0], true) : null, nextTitle: next?.[1] }));
  });
  const slot = h('div', { class: 'logits-slot' });
  const headFold = stageFold(dom, { name: 'head', title: text('query.stage.head'), result: '', body: slot });
  folds.push(headFold);
  let asked = false;
  const askHead = () => {
    if (asked) return;
    asked = true;
    const [, , rows, cols] = c.tensors.attention, cells = rows * cols; // one head's map: the core's shape [batch, n_heads, n_q, n_k]
    if (cells > MAX_LOGIT_CELLS) {
      fill(slot, h('p', { class: 'note' }, text('query.view_whole_head_s', { MAX_LOGIT_CELLS, value: fmt.int(cells) })));
      return;
    }
    fill(slot, h('p', { class: 'note' }, text('query.stage.tracing')));
    actions.headLogits({ config: c, item: at.item, head: at.head }).then((reply) => {
      if (current()) fill(slot, logitsSection(dom, { reply, config: c, head: at.head, d_k: t.q.length, labels_q, labels_k, query: at.query, key: at.key }));
    }, (err) => {
      asked = false;
      if (current()) fill(slot, h('p', { class: 'note' }, text('query.scores_view_could_not', { message: err.message })));
    });
  };
  for (const fold of folds) {
    fold.addEventListener('toggle', () => {
      if (!fold.open) return;
      onOpen(fold.dataset.stage);
      for (const other of folds) if (other !== fold) other.open = false;
      if (fold === headFold) askHead();
    });
  }
  const box = h('div', { class: 'query-stages', role: 'group', 'aria-label': text('query.stage.stages') }, folds);
  openStage(folds.some((f) => f.dataset.stage === open) ? open : 'dot', false);
  return box;
}
