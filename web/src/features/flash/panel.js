// FlashAttention one tile at a time: one query row followed through the key blocks of the core's tiled
// attention (attn.flashAttention), its running max m, sum ℓ and output o changing block by block with
// the rescaling factor exp(m_old − m_new), sliders for the block sizes, and the core's model of the
// slow-memory traffic of standard and tiled attention for the learner's on-chip memory M. Every number
// shown is the engine's; this file only formats and animates them.

import * as fmt from '../../model/format.js';
import { Cancelled, WorkerLost } from '../../model/errors.js';
import { text } from '../../lesson/panels/flash.js';
import { termList } from '../../ui/term_list.js';
import { stepFold } from '../../ui/fold_in_step.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)

/** The traced problem is kept small: the trace is a teaching view, not the forward pass. */
const MAX_N = 128, MAX_D = 64;
const STEP_MS = 1200;
const SHOWN_O = 8; // components of o drawn
// The key block B_c at first, at most this many keys (a display choice, not a rule of the tiling): the lesson's
// sentences walk through a few tiles, block by block; the tiles themselves are the core's (the trace's tiles).
const FIRST_BLOCK_K = 4;
/** The traced row at first (at most the last): a row in the middle, whose later keys a causal mask hides. */
const FIRST_ROW = 4;

const num = (x) => (x === -Infinity ? '−∞' : fmt.num(x, 4));

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  const state = { block_q: 0, block_k: 0, query_index: null, causal: null, sram: undefined }; // sram: the core's default until typed
  let sizes = null, data = null, tile = 0, timer = null, asked = '', pending = null, formMask = null;

  const input = (id, attrs, onChange) => h('input', { id, ...attrs, oninput: onChange });
  const bq = input('flash-block-q', { type: 'range', min: 1, step: 1 }, () => { state.block_q = Number(bq.value); ask(); });
  const bk = input('flash-block-k', { type: 'range', min: 1, step: 1 }, () => { state.block_k = Number(bk.value); ask(); });
  const row = input('flash-row', { type: 'range', min: 0, step: 1 }, () => { state.query_index = Number(row.value); ask(); });
  const causal = input('flash-causal', { type: 'checkbox' }, () => { state.causal = causal.checked; ask(); });
  const sram = input('flash-sram', { type: 'number', min: 1, step: 1, style: { width: '7em' } }, () => {
    const v = Number(sram.value);
    if (Number.isInteger(v) && v >= 1) { state.sram = v; ask(); }
  });
  const labels = { bq: h('output', { for: 'flash-block-q' }), bk: h('output', { for: 'flash-block-k' }), row: h('output', { for: 'flash-row' }) };
  const status = h('p', { class: 'placeholder', id: 'flash-status' }, text('flash.waiting_engine'));
  const blocksLine = h('p', { class: 'note', id: 'flash-blocks' }); // the paper's blocks for M, and their cut to the sequence
  const strip = h('div', { id: 'flash-strip', style: { display: 'flex', flexWrap: 'wrap', gap: '2px', margin: '0.5em 0' } });
  const prev = h('button', { type: 'button', id: 'flash-prev', onclick: () => show(tile - 1) }, text('flash.previous_block'));
  const play = h('button', { type: 'button', id: 'flash-play', onclick: () => toggle() }, text('flash.play'));
  const next = h('button', { type: 'button', id: 'flash-next', onclick: () => show(tile + 1) }, text('flash.next_block'));
  // Both boxes may scroll sideways on a narrow screen: tabindex lets a keyboard reach and scroll them.
  const tileBox = dom.tableWrap({ id: 'flash-tile-box', label: text('flash.traced_row_this_key') });
  // The slow-memory count, folded under its heading (a details element) so the chapter fits in two screens.
  const ioTitle = h('h3', {}, text('flash.slow_memory_traffic_elements'));
  const ioBody = h('div', {});
  const ioBox = h('details', { id: 'flash-io-box', class: 'fold-details' }, h('summary', {}, ioTitle), ioBody);
  // The panel's explanation: shown on the whole dashboard, folded in a lesson's step (whose own text tells it).
  const about = stepFold(dom, body, { name: 'flash-about', summary: text('flash.how_tiles_walk') },
    h('p', { class: 'lead' }, text('flash.n_q_n_k'), text('flash.each_row_keeping_running'), text('flash.sums_far_are_multiplied'), text('flash.q_k_v_are')));
  fill(body,
    termList(dom, ['B_r', 'B_c', 'run_max', 'run_sum', 'run_out', 'sram']), // the symbols before the sentence that uses them
    about.element,
    h('div', { class: 'flash-controls' },
      h('label', { for: 'flash-block-q' }, text('flash.b_r_block_q')), bq, labels.bq,
      h('label', { for: 'flash-block-k' }, text('flash.b_c_block_k')), bk, labels.bk,
      h('label', { for: 'flash-row' }, text('flash.query_row')), row, labels.row,
      h('label', { for: 'flash-sram' }, text('flash.chip_memory_m_elements')), sram, h('span', {}),
      h('label', { for: 'flash-causal' }, text('flash.causal_mask')), causal, h('span', {})),
    blocksLine, status, strip, h('p', {}, prev, ' ', play, ' ', next), tileBox, ioBox);

  /** Asks the engine for the traced row at the current settings (the last request wins). */
  async function ask() {
    if (!sizes) return;
    const payload = { ...sizes, causal: state.causal, block_q: state.block_q || undefined, block_k: state.block_k, sram: state.sram,
      query_index: Math.min(state.query_index, sizes.n_q - 1) };
    const key = JSON.stringify(payload);
    if (key === asked) return;
    asked = key;
    labels.bq.textContent = payload.block_q || '';
    labels.bk.textContent = payload.block_k;
    labels.row.textContent = payload.query_index;
    const mine = pending = actions.flashTiles(payload);
    try {
      const reply = await mine;
      if (mine !== pending) return;
      data = { ...reply, payload };
      if (state.sram === undefined) sram.value = data.io.sram; // the M the core used
      if (!state.block_q) bq.value = labels.bq.textContent = String(data.io.block_q); // the core's B_r for M until the learner moves it
      status.hidden = true;
      const { io } = data;
      blocksLine.textContent = blocksText(io, payload);
      renderIo(dom, { ioTitle, ioBody }, io);
      show(Math.min(tile, data.tiles.length - 1));
    } catch (err) {
      if (mine !== pending) return;
      if (err instanceof Cancelled || err instanceof WorkerLost) asked = ''; // ask again after a restart
      status.hidden = false;
      status.textContent = text('flash.engine_refused_these_settings', { message: err.message });
    }
  }

  function toggle() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      play.textContent = text('flash.play');
      return;
    }
    if (data && tile >= data.tiles.length - 1) show(0);
    play.textContent = text('flash.pause');
    timer = setInterval(() => {
      if (!data || tile >= data.tiles.length - 1) toggle();
      else show(tile + 1);
    }, STEP_MS);
  }

  /** Draws tile t: the strip of key blocks, and the row's state before and after it. */
  function show(t) {
    if (!data) return;
    tile = Math.max(0, Math.min(t, data.tiles.length - 1));
    const { tiles, payload } = data;
    fill(strip, tiles.map((x, i) => stripBlock(h, x, i, tile)));
    const x = tiles[tile];
    const o = (v) => `[${v.slice(0, SHOWN_O).map((y) => fmt.fixed(y, 4)).join(', ')}${v.length > SHOWN_O ? ', …' : ''}]`;
    const lines = [
      [text('flash.keys_this_block'), text('flash.visible_row', { key_start: x.key_start, value: x.key_end - 1, visible: x.visible, key_end_key_start: x.key_end - x.key_start, query_index: payload.query_index })],
      [text('flash.logits_block'), x.logits.length <= 16 ? x.logits.map(num).join(', ') : `${x.logits.slice(0, 16).map(num).join(', ')}, …`],
      [text('flash.block_s_largest_logit'), num(x.block_max)],
      [text('flash.m_old_new'), `${num(x.m_prev)} → ${num(x.m)}`],
      [text('flash.rescale_exp_m_old'), x.m_prev === -Infinity ? text('flash.0_nothing_summed_before') : fmt.num(x.rescale, 6)],
      [text('flash.l_rescale_l_old'), text('flash.this_block_adds', { l: fmt.num(x.l, 6), block_sum: fmt.num(x.block_sum, 6) })],
      [text('flash.o_after_keys_0') + (x.key_end - 1), o(x.o)],
    ];
    if (x.skipped) lines.push([text('flash.skipped'), text('flash.causal_mask_hides_these')]);
    if (tile === tiles.length - 1) {
      lines.push([text('flash.softmax_attention_s_row'), o(data.reference_row)]);
    }
    fill(tileBox, h('p', { id: 'flash-tile-title' }, text('flash.key_block', { value: tile + 1, length: tiles.length })),
      dom.table([h('span', { class: 'sr-only' }, text('flash.quantity')), text('flash.value')], lines, { class: 'cost', id: 'flash-tile',
        dataset: { tile: String(tile), m: String(x.m), l: String(x.l), args: JSON.stringify(payload) } }));
    prev.disabled = tile === 0;
    next.disabled = tile === tiles.length - 1;
  }

  function update({ check, engine }) {
    about.sync();
    const c = check?.config;
    if (!engine || !c) {
      status.hidden = false;
      status.textContent = !engine ? text('flash.waiting_engine') : text('flash.tiles_appear_once_inputs');
      return;
    }
    const next = { n_q: Math.min(c.n_q, MAX_N), n_k: Math.min(c.n_k, MAX_N), d_k: Math.min(c.d_k, MAX_D), d_v: Math.min(c.d_v, MAX_D), seed: c.input_seed ?? 1 };
    // The causal box follows the form's mask whenever that changes (causal, causal + padding: on; the
    // core's tiles know no other mask), and the learner's tick until then.
    if (formMask !== c.mask) {
      formMask = c.mask;
      state.causal = String(c.mask ?? '').startsWith('causal');
      causal.checked = state.causal;
    }
    if (!sizes || JSON.stringify(next) !== JSON.stringify(sizes)) {
      sizes = next;
      // The blocks start small enough for a few tiles to step through (the IO table names the paper's
      // blocks for M), then follow the sliders; the traced row starts in the middle (FIRST_ROW).
      bq.max = String(sizes.n_q);
      bk.max = String(sizes.n_k);
      row.max = String(sizes.n_q - 1);
      state.block_q = state.block_q ? Math.min(state.block_q, sizes.n_q) : 0; // 0: the paper's B_r for M (the core's), so tiling wins at first
      state.block_k = Math.min(state.block_k || FIRST_BLOCK_K, sizes.n_k);
      state.query_index = Math.min(state.query_index ?? FIRST_ROW, sizes.n_q - 1);
      if (state.block_q) bq.value = String(state.block_q);
      bk.value = String(state.block_k);
      row.value = String(state.query_index);
    }
    ask();
  }

  return { update, destroy: () => { if (timer) clearInterval(timer); about.destroy(); } };
}

/** The paper's blocks for M (the core's, before and after their cut to the sequence) and the blocks in use. */
function blocksText(io, payload) {
  const cut = io.paper_block_k > io.default_block_k || io.paper_block_q > io.default_block_q;
  return text('flash.paper_blocks', { sram: fmt.int(io.sram), paper_block_k: fmt.int(io.paper_block_k), paper_block_q: fmt.int(io.paper_block_q) })
    + (cut ? text('flash.paper_blocks_cut', { n_q: fmt.int(payload.n_q), n_k: fmt.int(payload.n_k), default_block_k: fmt.int(io.default_block_k),
      default_block_q: fmt.int(io.default_block_q) }) : '')
    + text('flash.blocks_in_use', { block_q: fmt.int(io.block_q), block_k: fmt.int(io.block_k) });
}

/** Key block x (number i) of the strip, tile `tile` the current one: its keys, and how many the traced row sees when not all. */
function stripBlock(h, x, i, tile) {
  return h('span', {
    class: 'flash-block', title: text('flash.keys_range', { first: x.key_start, last: x.key_end - 1, part: x.skipped ? text('flash.skipped_no_row_this') : '' }),
    // A skipped block is told by a dashed border, not by fading: faded text would be too faint to read.
    style: { padding: '0.15em 0.4em', border: `1px ${x.skipped ? 'dashed' : 'solid'} var(--grid, #ccc)`, borderRadius: '3px',
      background: i === tile ? 'var(--accent, #36c)' : i < tile ? 'var(--grid, #ddd)' : 'transparent', color: i === tile ? 'var(--accent-fg, #fff)' : 'inherit' },
  }, `${x.key_start}–${x.key_end - 1}`, x.visible < x.key_end - x.key_start ? text('flash.block_seen', { visible: x.visible }) : '');
}

/** The slow-memory count of standard and tiled attention for the traced layer, under its heading. */
function renderIo(dom, { ioTitle, ioBody }, io) {
  const { h, fill } = dom;
  const side = (name, c) => [
    ...c.terms.map((t) => [`${name}: ${t.what}`, t.formula, fmt.int(t.reads + t.writes)]),
    { cells: [`${name}: total`, text('flash.reads_writes', { reads: fmt.int(c.reads), writes: fmt.int(c.writes) }), fmt.int(c.total)], attrs: { class: 'total' } },
  ];
  ioTitle.textContent = text('flash.slow_memory_traffic_elements_2', { total: fmt.int(io.standard.total), total2: fmt.int(io.tiled.total) });
  fill(ioBody,
    h('p', {}, text('flash.b_r_b_c', { block_q: fmt.int(io.block_q), block_k: fmt.int(io.block_k), query_blocks: fmt.int(io.query_blocks), key_blocks: fmt.int(io.key_blocks) }),
      text('flash.chip_q_o_k', { sram_needed: fmt.int(io.sram_needed), sram: fmt.int(io.sram) }),
      io.fits ? text('flash.they_fit') : text('flash.they_do_not_fit')),
    dom.tableWrap({ label: text('flash.slow_memory_traffic_step') }, dom.table(['step', 'formula', 'elements'], [...side('standard', io.standard), ...side('tiled', io.tiled)],
      { class: 'cost', id: 'flash-io', dataset: { standard: String(io.standard.total), tiled: String(io.tiled.total) } })),
    h('p', { class: 'note', id: 'flash-io-verdict' },
      text('flash.standard_attention_here_elements', { order: io.standard.order, total: fmt.int(io.standard.total), order2: io.tiled.order, total2: fmt.int(io.tiled.total) }),
      text('flash.orders_n_max_n', { part: io.ratio >= 1 ? text('flash.times_less', { ratio: fmt.num(io.ratio, 2) }) : text('flash.times_more', { ratio: fmt.num(1 / io.ratio, 2) }) }),
      text('flash.n_d_n2_n2', { order_value: fmt.int(io.standard.order_value), order_value2: fmt.num(io.tiled.order_value, 1) })),
    h('p', { class: 'note', id: 'flash-io-when', dataset: { wins: String(io.ratio >= 1) } },
      io.ratio >= 1 ? text('flash.tiling_wins_here', { query_blocks: fmt.int(io.query_blocks) }) : text('flash.tiling_loses_here', { query_blocks: fmt.int(io.query_blocks) }),
      text('flash.when_tiling_loses')));
}

