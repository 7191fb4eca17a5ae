// The "MHA, GQA, MQA" panel: the same layer with one key/value head per query head (multi-head), a
// few shared ones (grouped-query) and one (multi-query), at the current sizes and for the model table.
// Every figure is attn.analyze's; this file only chooses the three n_kv_heads and formats.

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/gqa.js';

/** Context length of the model table's cache figures (a long prompt, where the cache matters). */
export const MODEL_TOKENS = 4096;

/**
 * The three variants for n_heads query heads: [{ kind, n_kv_heads }]. GQA uses the current n_kv_heads
 * when it groups, else the largest count below n_heads that the core accepts (`accepts(n_kv_heads)`: whether
 * the engine's analyze takes the current layer with that n_kv_heads; none when n_heads is prime). Which counts
 * group is the core's rule alone: every count is asked, largest first, none skipped by a rule of ours.
 */
export function variants(n_heads, current, accepts) {
  let g = current > 1 && current < n_heads ? current : 0;
  for (let d = n_heads - 1; !g && d > 1; d--) if (accepts(d)) g = d;
  const list = [{ kind: 'MHA', n_kv_heads: n_heads }];
  if (g) list.push({ kind: 'GQA', n_kv_heads: g });
  if (n_heads > 1) list.push({ kind: 'MQA', n_kv_heads: 1 });
  return list;
}

export function create(body, { dom }) {
  const { h, fill, table } = dom;
  const here = h('div', { id: 'gqa-here' }), models = h('div', { id: 'gqa-models' });
  fill(body,
    h('p', { class: 'lead' }, text('gqa.sharing_key_value_heads')),
    here, models);
  let lastKey = '', modelsDone = false;

  function update({ check, engine }) {
    const c = check?.config;
    if (engine && !modelsDone) {
      modelsDone = true;
      renderModels(engine);
    }
    const key = c && engine ? JSON.stringify([c.d_model, c.n_heads, c.d_k, c.d_v, c.bias, c.batch, c.n_q, c.n_k, c.cross, c.scale, c.n_kv_heads]) : '';
    if (key === lastKey) return;
    lastKey = key;
    if (!key) {
      fill(here, h('p', { class: 'placeholder' }, text('gqa.comparison_appears_once_inputs')));
      return;
    }
    renderHere(engine, c);
  }

  function renderHere(engine, c) {
    // Which n_kv_heads the layer allows is the core's rule: asked per candidate (the view is valid, so
    // analyze refuses a candidate only for its n_kv_heads).
    const accepts = (n_kv_heads) => {
      try {
        engine.analyze({ d_model: c.d_model, n_heads: c.n_heads, n_kv_heads, d_k: c.d_k, d_v: c.d_v, batch: 1, n_q: 1, n_k: 1 });
        return true;
      } catch {
        return false;
      }
    };
    let tokens = 0; // batch·n_k, the tokens the core's K/V cache counts
    const rows = variants(c.n_heads, c.n_kv_heads, accepts).map(({ kind, n_kv_heads }) => {
      const a = engine.analyze({ d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: c.bias, batch: c.batch, n_q: c.n_q, n_k: c.n_k,
        attention: c.cross ? 'cross' : 'self', need_weights: true, scale: c.scale, n_kv_heads });
      const kv = a.kv_cache;
      tokens = kv.tokens;
      const current = n_kv_heads === c.n_kv_heads; // as the core resolved it (a view is checked by the engine)
      return {
        attrs: { class: current ? 'current' : '', dataset: { kind, nKvHeads: n_kv_heads, params: a.params.total, flops: a.flops.exact_flops, memory: a.memory.total,
          kvPerToken: kv.bytes_per_token, kvBytes: kv.bytes, saved: kv.saved_bytes } },
        cells: [current ? text('gqa.this_layer', { kind }) : kind, fmt.int(n_kv_heads), fmt.int(a.params.total), fmt.short(a.flops.exact_flops), fmt.bytesShort(a.memory.total),
          fmt.bytesShort(kv.bytes_per_token), fmt.bytesShort(kv.bytes), kv.saved_bytes ? text('gqa.saved_less', { saved: fmt.bytesShort(kv.saved_bytes), ratio: fmt.num(kv.ratio, kv.ratio % 1 ? 1 : 0) }) : '—'],
      };
    });
    fill(here,
      h('h3', {}, text('gqa.current_sizes_d_model', { d_model: fmt.int(c.d_model), n_heads: c.n_heads })),
      dom.tableWrap({}, table(['variant', 'n_kv_heads', 'parameters', 'FLOPs', text('gqa.memory_one_pass'), text('gqa.k_v_cache_per'), text('gqa.for_tokens', { tokens: fmt.int(tokens) }), text('gqa.saved_against_mha')], rows, { class: 'cost gqa' })),
      h('p', { class: 'note' }, text('gqa.cache_holds_k_v', { tokens: fmt.int(tokens) }),
        text('gqa.flops_fall_only_k')));
  }

  function renderModels(engine) {
    const rows = engine.modelPresets().map((m) => {
      const a = engine.analyze({ d_model: m.d_model, n_heads: m.n_heads, d_k: m.d_k, d_v: m.d_k, bias: true, n: MODEL_TOKENS, n_kv_heads: m.n_kv_heads, n_layers: m.n_layers });
      const kv = a.kv_cache;
      const kind = m.n_kv_heads === m.n_heads ? 'MHA' : m.n_kv_heads === 1 ? 'MQA' : 'GQA';
      return {
        attrs: { dataset: { model: m.name, kvPerToken: kv.bytes_per_token, kvBytes: kv.bytes, mhaBytes: kv.mha_bytes, saved: kv.saved_bytes } },
        cells: [m.name, kind, `${m.n_heads} / ${m.n_kv_heads}`, fmt.int(m.n_layers), fmt.bytesShort(kv.bytes_per_token), fmt.bytesShort(kv.bytes), fmt.bytesShort(kv.mha_bytes),
          kv.saved_bytes ? `${fmt.bytesShort(kv.saved_bytes)} (${fmt.num(kv.ratio, 0)}× less)` : '—'],
      };
    });
    // The table folded under its heading (a details element), the sentence that sums it up shown.
    fill(models,
      h('details', { class: 'fold-details' }, h('summary', {}, h('h3', {}, text('gqa.model_table_each_model', { MODEL_TOKENS: fmt.int(MODEL_TOKENS) }))),
        dom.tableWrap({}, table(['model', 'variant', text('gqa.query_k_v_heads'), 'layers', text('gqa.k_v_cache_per'), `${fmt.int(MODEL_TOKENS)} tokens`, text('gqa.same_with_mha'), 'saved'], rows, { class: 'cost gqa-models' }))),
      h('p', { class: 'note' }, text('gqa.whole_model_s_cache', { MODEL_TOKENS: fmt.int(MODEL_TOKENS) })));
  }

  return { update };
}
