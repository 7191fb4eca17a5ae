// The "Constructed heads" panel: a pattern per head (the heads= key), and for each constructed head the
// numbers mha.setHeadPatterns returned for the current words, put into sentences that say why those
// weights make the pattern. The weights are built by the core; this file only chooses and explains.

import { HEAD_PATTERNS, configKey } from '../../model/validate.js';
import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/patterns.js';
import { textsOf } from '../../lesson/text.js';
import { termList } from '../../ui/term_list.js';

/** More heads than this get no menu each (heads= in the link still sets any of them). */
const MAX_MENUS = 16;

// Looked up when read (textsOf): an author's or a translator's words registered later still show.
const LABELS = textsOf({ random: 'patterns.label_random', previous: 'patterns.label_previous', same_word: 'patterns.label_same_word',
  first_token: 'patterns.label_first_token', uniform: 'patterns.label_uniform' });

/** heads= as a list of n_heads patterns ('' = random). */
export function headList(list, n_heads) {
  const names = String(list ?? '').split(',').map((s) => s.trim());
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
    h('p', { class: 'lead' }, text('patterns.give_head_job_w'),
      text('patterns.or_content_same_word')),
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
        return h('div', { class: 'field inline' }, h('label', { for: `f-head-${k}` }, text('patterns.head_n', { n: k + 1 })), select);
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
      fill(why, h('p', { class: 'note' }, result ? text('patterns.every_head_random_here') : ''));
      return;
    }
    const c = result.config;
    // Each head in plain words first; the formula with the engine's numbers (β, ω, a_f) behind a fold.
    fill(why, h('h3', {}, text('patterns.why_these_weights_make')),
      patterns.map((p) => h('div', { class: 'head-why', dataset: { head: p.head, pattern: p.pattern } },
        h('p', { class: 'note head-words' }, inWords(p, c)),
        h('details', { class: 'fold-details head-formula' }, h('summary', {}, text('patterns.the_formula')), h('p', { class: 'note' }, explain(p, c))))),
      h('details', { class: 'fold-details' }, h('summary', {}, text('patterns.how_engine_builds')),
        termList(dom, ['beta', 'omega', 'a_f']),
        h('p', { class: 'note' }, text('patterns.words_get_random_embeddings'),
          text('patterns.send_each_word_sentences', { part: patterns.every((p) => p.exact) ? text('patterns.exact_here_because_distinct') : '' }))));
  }

  return { update };
}

/** One constructed head in plain words (no symbols), with the margin the engine measured where there is one. */
export function inWords(p, config) {
  const who = { head: p.head + 1, label: LABELS[p.pattern] ?? p.pattern };
  const margin = Number.isFinite(p.strength * p.kernel_margin) ? fmt.num(p.strength * p.kernel_margin, 2) : '';
  switch (p.pattern) {
    case 'previous': return text('patterns.words_previous', { ...who, margin });
    case 'first_token': return text('patterns.words_first_token', { ...who, margin });
    case 'same_word': return text('patterns.words_same_word', who);
    case 'uniform': return text('patterns.words_uniform', { ...who, value: fmt.num(1 / config.n_k, 3) });
    default: return text('patterns.words_random', who);
  }
}

/** One constructed head explained with the numbers the engine returned for it. */
export function explain(p, config) {
  const who = text('patterns.who', { head: p.head + 1, part: config.n_kv_heads && config.n_kv_heads !== config.n_heads ? text('patterns.k_v_head', { value: p.kv_head + 1 }) : '',
    label: LABELS[p.pattern] ?? p.pattern, strength: fmt.num(p.strength, 3) });
  const freqs = Array.isArray(p.omega) ? p.omega.map((w) => fmt.num(w, 3)).join(', ') : '';
  const fit = p.exact ? '' : text('patterns.fit_not_exact_here', { fit_error: fmt.num(p.fit_error, 3) });
  switch (p.pattern) {
    case 'previous':
      return text('patterns.key_token_j_carries', { who, pairs: p.pairs, part: p.pairs === 1 ? '' : 's', freqs })
        + text('patterns.query_token_i_carries', { k: p.k })
        + text('patterns.where_beats_every_other', { kernel_margin: fmt.num(p.kernel_margin, 3), strength_kernel_margin: fmt.num(p.strength * p.kernel_margin, 3), fit });
    case 'first_token':
      return text('patterns.every_query_same_vector', { who, pairs: p.pairs, part: p.pairs === 1 ? '' : 's', freqs })
        + text('patterns.over_next_best_key', { kernel_margin: fmt.num(p.kernel_margin, 3), strength_kernel_margin: fmt.num(p.strength * p.kernel_margin, 3), fit });
    case 'same_word':
      return text('patterns.queries_keys_carry_their', { who, matchable_words: p.matchable_words, part: p.matchable_words === 1 ? '' : 's', word_dims: p.word_dims, part2: p.word_dims === 1 ? '' : 's' })
        + text('patterns.same_word_scores_1', { self_penalty: fmt.num(p.self_penalty, 3), fit });
    case 'uniform':
      return text('patterns.w_0_every_query', { who, value: fmt.num(1 / config.n_k, 4) });
    default:
      return text('patterns.layer_s_seeded_random', { who });
  }
}
