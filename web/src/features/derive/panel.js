// The derivation of multi-head attention on screen (chapter 3): one head with its shapes, h heads side by
// side with their maps, Concat, then Wᴼ. Each equation is typeset by the locally served KaTeX with the
// current sizes under every tensor (from the core's analysis, stages.js) and its result's space in letters;
// the tensors an equation names are coloured alike in the formula and in the boxes drawn to scale beside
// it. A step of the heads chapter shows its own stage; anywhere else every stage shows.

import * as fmt from '../../model/format.js';
import { loadKatex, typeset as typesetWith } from '../../ui/katex.js';
import { stepOf, keyList } from '../../lesson/chapters.js';
import { text } from '../../lesson/panels/derive.js';
import { STAGES, EQUATIONS, tensorSizes, equationTex, stageTensors, stageOfStep } from './stages.js';
import { productBoxes, concatBoxes } from './boxes.js';
import { headMaps } from './head_maps.js';

/** KaTeX's options: \htmlClass (the tensors' colours) is the one HTML extension used, trusted and not reported. */
const KATEX = { displayMode: true, throwOnError: false, output: 'htmlAndMathml',
  trust: (context) => context.command === '\\htmlClass', strict: (code) => (code === 'htmlExtension' ? 'ignore' : 'warn') };

/**
 * The stage the state's step shows: the step of its chapter (lesson/chapters.js) when that step shows this
 * panel and its id names a stage ('heads.concat' → 'concat'); null (every stage) elsewhere: reference, a
 * page of the author's panels, a step that is not one of the derivation's.
 */
function currentStage(state) {
  if (keyList(state?.panels).length) return null;
  const { step } = stepOf(state);
  return step?.panels?.includes('derive') ? stageOfStep(step.id) : null;
}

export function create(body, { dom, host }) {
  const { h, fill } = dom;
  const waiting = h('p', { class: 'placeholder', id: 'derive-waiting' }, text('derive.waiting'));
  const maps = headMaps(dom, host);
  // One block per stage: a heading, its words, its equations (one line with its sizes, and its boxes).
  const stages = STAGES.map((stage) => {
    // Focusable: a formula wider than a phone scrolls sideways inside its box, which the keyboard must reach.
    const equations = EQUATIONS[stage].map((eq) => ({ eq,
      live: h('div', { class: 'math live', role: 'math', tabindex: '0', 'aria-label': text(`derive.stage.${stage}`), dataset: { equation: eq.id } }),
      boxes: h('div', { class: 'derive-boxes', dataset: { equation: eq.id } }) }));
    const element = h('div', { class: 'derive-stage', id: `derive-${stage}`, dataset: { stage, tensors: stageTensors(stage).join(' ') } },
      h('h3', {}, dom.math(text(`derive.stage.${stage}`))), h('p', { class: 'note' }, dom.math(text(`derive.words.${stage}`))),
      equations.map((e) => h('div', { class: 'derive-eq', dataset: { equation: e.eq.id } }, e.live, e.boxes)),
      stage === 'side-by-side' ? maps.element : null);
    return { stage, element, equations };
  });
  fill(body, waiting, stages.map((s) => s.element));

  let katex = null, view = null, lastKey = '';
  const typeset = (el, tex) => {
    if (katex) typesetWith(katex, el, tex, KATEX);
    else el.textContent = tex;
  };
  loadKatex(host).then((loaded) => {
    katex = loaded;
    lastKey = '';
    if (view) update(view);
  }, (err) => {
    body.prepend(h('p', { class: 'note' }, text('derive.typeset_failed', { message: err.message })));
  });

  function update(v) {
    view = v;
    const shown = currentStage(v.state);
    for (const s of stages) s.element.hidden = shown !== null && s.stage !== shown;
    const a = v.check?.analysis;
    const sizes = a ? tensorSizes(a) : null;
    maps.update(v.result?.key && v.check?.config && v.result.config?.n_heads === a?.dims.n_heads ? v.result : null, sizes);
    const scale = v.check?.config?.scale ?? true; // without it, the scores are not divided by √d_k
    const key = a ? JSON.stringify([a.dims, !!katex, scale]) : '';
    if (key === lastKey) return;
    lastKey = key;
    waiting.hidden = !!a;
    body.dataset.sizes = sizes ? JSON.stringify(sizes) : '';
    const int = (x) => fmt.int(x).replace(/,/g, '{,}');
    for (const s of stages) {
      for (const e of s.equations) {
        if (!sizes) { fill(e.live); fill(e.boxes); continue; }
        typeset(e.live, equationTex(e.eq, sizes, { h: a.dims.n_heads, int, scale }));
        e.live.dataset.sizes = JSON.stringify(Object.fromEntries([...e.eq.terms, e.eq.result].map((n) => [n, sizes[n]])));
        fill(e.boxes, e.eq.form === 'concat' ? concatBoxes(dom, sizes, a.dims.n_heads) : productBoxes(dom, e.eq, sizes));
      }
    }
  }

  return { update };
}
