// The "Constructed heads" panel: a pattern per head (the heads= key), and for each constructed head the
// numbers mha.setHeadPatterns returned for the current words, put into sentences that say why those
// weights make the pattern. The weights are built by the core; this file only chooses and explains.

import { HEAD_PATTERNS, configKey } from '../../model/validate.js';
import * as fmt from '../../model/format.js';

/** More heads than this get no menu each (heads= in the link still sets any of them). */
const MAX_MENUS = 16;

const LABELS = { random: 'random (untrained)', previous: 'previous token', same_word: 'same word', first_token: 'first token', uniform: 'uniform' };

/** heads= as a list of n_heads patterns ('' = random). */
export function headList(text, n_heads) {
  const names = String(text ?? '').split(',').map((s) => s.trim());
  return Array.from({ length: n_heads }, (_, i) => names[i] || 'random');
}

/** A list of patterns as heads= writes it: '' when every head is random, trailing random heads dropped. */
export function headsValue(list) {
  const names = list.map((p) => (p === 'random' ? '' : p));
  while (names.length && !names[names.length - 1]) names.pop();
  return names.join(',');
}

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  const menus = h('div', { class: 'head-menus', id: 'head-menus' });
  const problem = h('p', { class: 'field-error', id: 'm-heads', role: 'alert' });
  const why = h('div', { id: 'head-why' });
  fill(body,
    h('p', { class: 'lead' }, 'Give a head a job: its W_Q and W_K are then built by the engine so that its queries match keys by position (the previous token, the first token) ',
      'or by content (the same word), instead of drawn at random. The rest of the layer stays as it was. Heads left random show what an untrained layer does.'),
    menus, problem, why);
  let shownHeads = -1, lastResult = null;
  let latest = null; // the state of the last update: a menu's change edits the heads= of now, not of when it was built

  function update({ state, check, result, readOnly }) {
    const n_heads = check?.config?.n_heads ?? (Number.parseInt(state.n_heads, 10) || 0);
    latest = state;
    const list = headList(state.heads, n_heads);
    if (shownHeads !== n_heads) {
      shownHeads = n_heads;
      fill(menus, list.slice(0, MAX_MENUS).map((_, k) => {
        const select = h('select', { id: `f-head-${k}`, name: `head-${k}`, dataset: { head: k } },
          HEAD_PATTERNS.map((p) => h('option', { value: p }, LABELS[p])));
        select.addEventListener('change', () => {
          const next = headList(latest.heads, n_heads);
          next[k] = select.value;
          actions.edit({ heads: headsValue(next) }, 'heads');
        });
        return h('div', { class: 'field inline' }, h('label', { for: `f-head-${k}` }, `head ${k + 1}`), select);
      }));
    }
    menus.querySelectorAll('select').forEach((select, k) => {
      select.value = list[k];
      select.disabled = !!readOnly;
    });
    problem.textContent = check?.errors?.heads ?? '';
    const current = result && check?.config && result.key === configKey(check.config) ? result : null;
    if (current === lastResult) return;
    lastResult = current;
    renderWhy(current);
  }

  function renderWhy(result) {
    // The engine reports every head it touched; a random one needs no explanation beyond the note below the maps.
    const patterns = result?.patterns?.filter((p) => p.pattern !== 'random');
    if (!patterns?.length) {
      fill(why, h('p', { class: 'note' }, result ? 'Every head is random here: choose a pattern for a head above to see how its weights are built.' : ''));
      return;
    }
    const c = result.config;
    fill(why, h('h3', {}, 'Why these weights make the pattern'),
      patterns.map((p) => h('p', { class: 'note head-why', dataset: { head: p.head, pattern: p.pattern } }, explain(p, c))),
      h('p', { class: 'note' }, `The words get random embeddings and overlap every frequency of the positional encoding, so Wᴽ and Wᴷ are solved (least squares) `,
        `to send each word of the sentences and each position to the part the pattern needs${patterns.every((p) => p.exact) ? ': exact here, because the distinct words and the positions are fewer than d_model and linearly independent' : ''}.`));
  }

  return { update };
}

/** One constructed head explained with the numbers the engine returned for it. */
export function explain(p, config) {
  const who = `Head ${p.head + 1}${config.n_kv_heads && config.n_kv_heads !== config.n_heads ? ` (K/V head ${p.kv_head + 1})` : ''}, ${LABELS[p.pattern] ?? p.pattern}, β = ${fmt.num(p.strength, 3)}: `;
  const freqs = Array.isArray(p.omega) ? p.omega.map((w) => fmt.num(w, 3)).join(', ') : '';
  const fit = p.exact ? '' : ` The fit is not exact here (error ${fmt.num(p.fit_error, 3)}), so the pattern may be weaker.`;
  switch (p.pattern) {
    case 'previous':
      return `${who}the key of token j carries its position as ${p.pairs} frequency pair${p.pairs === 1 ? '' : 's'} of the encoding (ω = ${freqs}); `
        + `the query of token i carries position i − ${p.k}, rotated back by M_${p.k}. Their product is β·Σ a_f·cos(ω_f·(i − ${p.k} − j)), largest at j = i − ${p.k}, `
        + `where it beats every other key by β × ${fmt.num(p.kernel_margin, 3)} = ${fmt.num(p.strength * p.kernel_margin, 3)} in the logits, so the softmax puts nearly all of the row there.${fit}`;
    case 'first_token':
      return `${who}every query is the same vector that matches position 0 through ${p.pairs} frequency pair${p.pairs === 1 ? '' : 's'} (ω = ${freqs}): the logit β·Σ a_f·cos(ω_f·j) is largest at j = 0, `
        + `by β × ${fmt.num(p.kernel_margin, 3)} = ${fmt.num(p.strength * p.kernel_margin, 3)} over the next best key.${fit}`;
    case 'same_word':
      return `${who}queries and keys carry their word as a unit direction (${p.matchable_words} word${p.matchable_words === 1 ? '' : 's'} repeat here, ${p.word_dims} direction${p.word_dims === 1 ? '' : 's'}), `
        + `so the same word scores β·1 and any other 0; a penalty of ${fmt.num(p.self_penalty, 3)} on its own position pushes a row to the other occurrences. A row whose word does not repeat stays spread out.${fit}`;
    case 'uniform':
      return `${who}Wᴽ = 0, so every query is the bias alone and scores every key the same: each row is 1/n_k = ${fmt.num(1 / config.n_k, 4)} everywhere it is not masked.`;
    default:
      return `${who}the layer's seeded random projection.`;
  }
}
