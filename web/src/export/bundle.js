// The export bundle: a zip (fflate) of every tensor of a run as .npy, view.json (the state with the
// keys of the hash, the sizes the engine resolved, the shapes, the token labels, notes) and
// reproduce.py. The tensors come from the compute (features/export/handler.js); this only packs them.

import { zipSync, strToU8 } from 'fflate';
import { writeNpy } from './npy.js';
import { reproduceScript, reproduceNotes } from './reproduce.js';

/** The sizes and options of a run as reproduce.py reads them: the engine's sizes and the config's mask and options. */
export function runSizes(config, sizes, imported = null) {
  const causal = config.mask === 'causal' || config.mask === 'causal+padding';
  const padding = config.mask === 'padding' || config.mask === 'causal+padding' ? Array.from(config.padding) : null;
  return { ...sizes, cross: !!config.cross, causal, padding, scale: !!config.scale, dropout: config.dropout > 0 ? config.dropout : 0, imported,
    // sparse masks (both causal) and the positional method on the logits
    window: config.mask === 'sliding' ? config.window : null, stride: config.mask === 'strided' ? config.stride : null,
    positional: config.positional ?? 'none', rope_base: config.positional === 'rope' ? config.rope_base_used : null };
}

/** view.json's object: the state, the sizes, each tensor's shape, the labels and the notes. */
export function viewJson({ state, sizes, tensors, labels_q = null, labels_k = null, masked_rows = [], notes = [] }) {
  return {
    format: 'attention-playground export, version 1',
    state, sizes,
    tensors: Object.fromEntries(Object.entries(tensors).map(([name, t]) => [name, t.shape])),
    labels_q, labels_k, masked_rows, notes,
  };
}

/**
 * The zip's bytes: { name: tensor } as name.npy, view.json, and reproduce.py unless `script` is false
 * (attention maps alone cannot be recomputed: view.json's notes say so instead).
 */
export function bundleBytes({ tensors, view, script = true }) {
  const files = {};
  for (const [name, tensor] of Object.entries(tensors)) files[`${name}.npy`] = writeNpy(tensor, name);
  files['view.json'] = strToU8(`${JSON.stringify(view, null, 1)}\n`);
  if (script) files['reproduce.py'] = strToU8(reproduceScript(view.sizes, view.notes));
  return zipSync(files, { level: 6 });
}

export { reproduceNotes };
