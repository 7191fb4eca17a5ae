// Presets (pure, no DOM): the lesson's worked examples and the model table, turned into state changes.

/** Length used when an example or a model gives no sequence length (the lesson's P4 uses 128). */
export const DEFAULT_PRESET_N = 128;
const SMALL_N = 16;

const common = { attention: 'self', source: 'random', mask: 'none', padding: '', dropout: '0', item: '0', head: '' };

/** State changes that load a worked example (from attn.lessonExamples()). */
export function exampleChanges(example) {
  const { d_model, n_heads, bias, batch, n } = example.config;
  // E2 and P1 are about sizes only; a short sequence keeps their run instant.
  const len = n || SMALL_N;
  return { ...common, d_model, n_heads, d_k: '', d_v: '', n_kv_heads: '', bias: bias ? '1' : '0', batch: batch || 1, n_q: len, n_k: len };
}

/**
 * Models loaded at a smaller width so that their grouped-query layer runs in a tab: LLaMA-70B keeps its
 * 64 query heads sharing 8 key/value heads, at d_model 1024 (d_k = 16) instead of 8192 (d_k = 128),
 * about 2.4 M parameters and 0.7 GFLOPs per pass at n = 128 instead of 151 M and 40 GFLOPs.
 */
export const RUN_WIDTH = Object.freeze({ 'LLaMA-70B': 1024 });

/** State changes that load a model of the table (from attn.modelPresets()). */
export function modelChanges(model) {
  const d_model = RUN_WIDTH[model.name] ?? model.d_model;
  // The core says whether the model's d_k is the one it derives (then the field stays empty, and follows RUN_WIDTH).
  const head = model.d_k_derived ? '' : model.d_k;
  return {
    ...common, d_model, n_heads: model.n_heads, d_k: head, d_v: head, bias: '1', batch: 1,
    n_q: DEFAULT_PRESET_N, n_k: DEFAULT_PRESET_N,
    n_kv_heads: model.n_kv_heads !== model.n_heads ? model.n_kv_heads : '', // '' (the empty field): one per query head
  };
}

/** Option values of the preset menu: "example:E1", "model:GPT-3". */
export const presetValue = (kind, id) => `${kind}:${id}`;

/** Every preset as { value, label, changes }, examples first (the engine's lists). */
export function presetList(examples, models) {
  return [
    ...examples.map((ex) => ({ value: presetValue('example', ex.id), kind: 'example', label: `${ex.id}: ${ex.title}`, changes: exampleChanges(ex) })),
    ...models.map((m) => ({ value: presetValue('model', m.name), kind: 'model', label: m.name, model: m, changes: modelChanges(m) })),
  ];
}

/**
 * The value of the preset the state shows now ('' when it matches none): every field the preset sets
 * agrees. Two presets can set the same sizes (BERT-Base and GPT-2 small): `preferred`, the one loaded
 * last, wins when it matches.
 */
export function activePreset(state, presets, preferred = '') {
  const same = (key, value) => String(state[key]) === (value === true ? '1' : value === false ? '0' : String(value));
  const matches = (p) => Object.entries(p.changes).every(([key, value]) => same(key, value));
  const last = presets.find((p) => p.value === preferred);
  if (last && matches(last)) return last.value;
  return presets.find(matches)?.value ?? '';
}
