// Generation and the KV cache: the current sentence decoded one token at a time by the core
// (mha.decodeStep with mha.createKVCache), stepped through with a slider: the cache growing by one
// K and one V row per key/value head, the new row of weights of every query head (checked against
// the causal forward pass), the cache's bytes for this layer and for whole models of the model
// table, and the FLOPs of the step against recomputing the prefix (attn.decodeCost). Every number
// shown is the engine's; this file picks the step and formats.

import * as fmt from '../../model/format.js';
import { Cancelled, WorkerLost } from '../../model/errors.js';
import { configKey } from '../../model/validate.js';
import { text } from '../../lesson/panels/kvcache.js';
import { stepFold } from '../../ui/fold_in_step.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)

const SHOWN_KEYS = 16; // weights drawn per row: the latest keys
const AUTO_SECONDS = 1; // decoding (about two forward passes of work) starts by itself below this estimate

export function create(body, { dom, actions }) {
  const { h, fill, table } = dom;
  const status = h('p', { class: 'placeholder', id: 'kvcache-status' }, text('kvcache.waiting_engine'));
  const slider = h('input', { type: 'range', id: 'kvcache-step', min: '1', max: '1', value: '1', oninput: () => show(Number(slider.value)) });
  const prev = h('button', { type: 'button', id: 'kvcache-prev', onclick: () => show(step - 1) }, text('kvcache.previous_token'));
  const next = h('button', { type: 'button', id: 'kvcache-next', onclick: () => show(step + 1) }, text('kvcache.next_token'));
  const stepLabel = h('label', { for: 'kvcache-step', id: 'kvcache-step-label' }, text('kvcache.step'));
  const controls = h('p', { class: 'kvcache-controls' }, prev, ' ', stepLabel, ' ', slider, ' ', next);
  const cacheBox = h('div', { id: 'kvcache-cache' });
  const rowBox = h('div', { id: 'kvcache-row' });
  const costBox = h('div', { id: 'kvcache-cost' });
  const modelBox = h('div', { id: 'kvcache-models' });
  controls.hidden = true;
  // In a lesson's step (whose text tells the idea) the explanation and the cost tables are folded: ui/fold_in_step.js.
  const folds = [stepFold(dom, body, { name: 'kvcache-about', summary: text('kvcache.how_cache_works') },
    h('p', { class: 'lead' }, text('kvcache.decoder_generates_one_token'), text('kvcache.those_k_v_rows'), text('kvcache.one_per_key_value'), text('kvcache.inference_only_no_dropout'))),
  stepFold(dom, body, { name: 'kvcache-more', summary: text('kvcache.step_and_models_cost') }, costBox, modelBox)];
  fill(body, folds[0].element, status, controls, cacheBox, rowBox, folds[1].element);
  let pending = null, decoded = null, step = 1; // decoded: the last answer of kvDecode

  async function ask(current) {
    const config = current.config;
    const mine = pending = actions.kvDecode({ config });
    status.hidden = false;
    status.textContent = text('kvcache.decoding_sentence_token_token');
    try {
      const r = await mine;
      if (mine !== pending) return;
      decoded = r;
      status.hidden = true;
      controls.hidden = false;
      slider.max = String(r.n);
      show(Math.min(step, r.n) || r.n);
    } catch (err) {
      if (mine !== pending) return;
      if (err instanceof Cancelled || err instanceof WorkerLost) asked = null; // ask again after a restart
      decoded = null;
      controls.hidden = true;
      status.hidden = false;
      status.textContent = text('kvcache.decoding_did_not_run', { message: err.message });
    }
  }

  const word = (j) => decoded.labels?.[j] ?? `#${j + 1}`;
  // A cache entry: filled (k and v of a token seen), the one this step appended, or not generated yet.
  const entryStyle = (j) => ({ padding: '1px 6px', borderRadius: '4px', fontSize: 'var(--text-xs)',
    border: `1px ${j < step ? 'solid' : 'dashed'} ${j === step - 1 ? 'var(--accent)' : 'var(--grid)'}`,
    // A future entry is told by its dashed box and muted text (not by opacity, which made the text too faint to read).
    fontWeight: j === step - 1 ? 'var(--semibold)' : 'normal', color: j < step ? 'inherit' : 'var(--muted)' });

  function show(t) {
    if (!decoded) return;
    step = Math.max(1, Math.min(decoded.n, t));
    slider.value = String(step);
    prev.disabled = step === 1;
    next.disabled = step === decoded.n;
    const r = decoded, s = r.steps[step - 1];
    stepLabel.textContent = text('kvcache.step_of', { step, n: r.n, token: word(step - 1) });
    body.dataset.step = String(step);

    // The cache: per key/value head, one entry (a K row and a V row) per token seen.
    const entries = (g) => h('div', { class: 'kvcache-entries', dataset: { kvHead: g, entries: step }, style: { display: 'flex', flexWrap: 'wrap', gap: '3px' } },
      ...Array.from({ length: r.n }, (_, j) => h('span', { class: `kv-entry${j === step - 1 ? ' new' : j < step ? '' : ' future'}`,
        title: j < step ? text('kvcache.k_v', { j: word(j) }) : text('kvcache.not_generated_yet'), style: entryStyle(j) }, word(j))));
    fill(cacheBox,
      h('h3', {}, text('kvcache.cache_after_step_entries', { step, step2: fmt.int(step), n_kv_heads: r.n_kv_heads, part: r.n_kv_heads > 1 ? 's' : '', part3: step > 1 ? 'ies' : 'y' })),
      ...Array.from({ length: r.n_kv_heads }, (_, g) => h('div', { class: 'kvcache-head', style: { display: 'grid', gridTemplateColumns: '6.5em 1fr', alignItems: 'center', margin: '3px 0' } },
        h('span', { class: 'kv-label note' }, text('kvcache.k_v_head', { g: g + 1 })), entries(g))),
      h('p', { class: 'note', id: 'kvcache-bytes', dataset: { bytesUsed: s.bytes_used, bytes: r.bytes, perToken: r.bytes_per_token } },
        text('kvcache.this_layer_s_cache', { bytes_used: fmt.bytes(s.bytes_used), step: fmt.int(step), part: step > 1 ? 's' : '' }),
        text('kvcache.n_kv_heads_d', { n_kv_heads: r.n_kv_heads, d_k: r.d_k, d_v: r.d_v, bytes_per_token: fmt.int(r.bytes_per_token) }),
        text('kvcache.allocated_max_len', { bytes: fmt.bytes(r.bytes), n: fmt.int(r.n) })));

    // The new query row of every head, over the t keys so far.
    const shown = Math.min(step, SHOWN_KEYS);
    const rows = Array.from({ length: r.n_heads }, (_, head) => {
      const w = s.weights.subarray(head * step, (head + 1) * step);
      let best = 0;
      for (let j = 1; j < step; j++) if (w[j] > w[best]) best = j;
      return { attrs: { dataset: { head, best } },
        // Heads counted from 1, as every other panel counts them (the data attributes keep the index).
        cells: [text('kvcache.head_n', { n: head + 1 }), r.kv_head_of?.[head] === undefined ? '' : String(r.kv_head_of[head] + 1), ...Array.from({ length: shown }, (_, j) => {
          const j0 = step - shown + j; // the latest keys when the row is long
          return h('span', { class: `kv-weight${j0 === best ? ' best' : ''}`, style: j0 === best ? { fontWeight: 'var(--semibold)' } : {} }, fmt.fixed(w[j0], 3));
        }), `“${word(best)}” ${fmt.fixed(w[best], 3)}`] };
    });
    const keyHead = Array.from({ length: shown }, (_, j) => word(step - shown + j));
    fill(rowBox,
      h('h3', {}, text('kvcache.step_attends_key', { step, value: word(step - 1), step2: fmt.int(step), part: step > 1 ? 's' : '' })),
      dom.tableWrap({ label: text('kvcache.weights_new_query_row') }, table([text('kvcache.query_head'), text('kvcache.k_v_head_2'), ...keyHead, text('kvcache.largest')], rows, { class: 'cost', id: 'kvcache-weights' })),
      h('p', { class: 'note', id: 'kvcache-check', dataset: { maxDifference: s.max_difference } },
        step > SHOWN_KEYS ? text('kvcache.last_keys_are_shown', { SHOWN_KEYS }) : '',
        text('kvcache.largest_difference_from_row', { step, part: s.max_difference === 0 ? text('kvcache.0_same_numbers') : s.max_difference.toExponential(1) }),
        r.positional !== 'none' ? text('kvcache.positional_method_new_token', { positional: r.positional, value: step - 1 }) : ''));

    // FLOPs of this step against recomputing the prefix, for this layer.
    const c = s.cost;
    fill(costBox,
      h('h3', {}, text('kvcache.flops_step_this_layer', { step })),
      h('div', { class: 'table-wrap' }, table([h('span', { class: 'sr-only' }, text('kvcache.how')), text('kvcache.this_step'), text('kvcache.tokens_1_to', { step: fmt.int(step) })], [
        { attrs: { dataset: { flops: c.step_flops } }, cells: [text('kvcache.with_kv_cache_one'), fmt.int(c.step_flops), fmt.int(c.total_flops)] },
        { attrs: { dataset: { flops: c.recompute_flops } }, cells: [text('kvcache.recomputing_prefix_causal_pass', { step: fmt.int(step) }), fmt.int(c.recompute_flops), fmt.int(c.total_recompute_flops)] },
      ], { class: 'cost', id: 'kvcache-flops', dataset: { speedup: c.speedup } })),
      h('p', { class: 'note' }, text('kvcache.cache_saves_this_step', { speedup: fmt.num(c.speedup, 2) }),
        text('kvcache.one_query_row_meets'),
        text('kvcache.generating_t_tokens_with')));

    // Whole models of the model table, at this step and at a long prompt.
    fill(modelBox,
      h('h3', {}, text('kvcache.whole_models_attention_layers')),
      dom.tableWrap({ label: text('kvcache.whole_models_cache_flops') }, table(['model', 'layers', text('kvcache.query_k_v_heads'), text('kvcache.cache_after_tokens', { step: fmt.int(step) }), `after ${fmt.int(r.long_context)}`,
        text('kvcache.same_with_mha', { long_context: fmt.int(r.long_context) }), text('kvcache.flops_step_cached', { step: fmt.int(step) }), 'recomputed'],
      r.models.map((m, i) => {
        const now = s.models[i];
        return { attrs: { dataset: { model: m.name, cacheBytes: now.model_cache_bytes } },
          cells: [m.name, fmt.int(m.n_layers), `${m.n_heads} / ${m.n_kv_heads}`, fmt.bytesShort(now.model_cache_bytes), fmt.bytesShort(m.long.model_cache_bytes),
            fmt.bytesShort(m.long.mha_model_cache_bytes), fmt.short(now.model_step_flops), fmt.short(now.model_recompute_flops)] };
      }), { class: 'cost', id: 'kvcache-model-table' })),
      h('p', { class: 'note' }, text('kvcache.every_layer_keeps_own'),
        text('kvcache.not_weights_what_fills')));
  }

  let asked = null; // the run result the decoding was asked for

  function update({ result, check, engine }) {
    for (const fold of folds) fold.sync();
    const current = result && check?.config && result.key === configKey(check.config) ? result : null;
    if (!engine || !current) {
      if (result) return; // a run for new inputs is coming: keep the last decoding until it lands
      status.hidden = false;
      controls.hidden = true;
      status.textContent = !engine ? text('kvcache.waiting_engine') : text('kvcache.decoding_appears_once_inputs');
      return;
    }
    if (current === asked) return;
    asked = current;
    // Decoding every token costs about what the forward pass and its check cost: a large layer waits for a click.
    const seconds = 2 * (check.estimate?.seconds ?? 0);
    if (seconds > AUTO_SECONDS) {
      status.hidden = false;
      fill(status, h('button', { type: 'button', class: 'linkish', id: 'kvcache-run', onclick: () => ask(current) },
        text('kvcache.decode_sentence_token_token', { seconds: fmt.num(seconds, 1) })));
      return;
    }
    ask(current);
  }

  return { update, destroy: () => { for (const fold of folds) fold.destroy(); } };
}
