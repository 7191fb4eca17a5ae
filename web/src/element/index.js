// dist/attention-playground.js: one ES module for course pages and notebooks. Importing it defines
// <attention-playground>; its default export is the anywidget widget ({ render }); createPlayground
// is there for hosts that build their own (see web/EMBED.md), computeStats for leak checks. It finds
// its worker and wasm beside itself.

import '../engine/bundled_loader.js'; // the SIMD loader inside this bundle: no separate request for it
import { defineElement, AttentionPlaygroundElement } from './element.js';
import widget from './anywidget.js';

defineElement();

export { createPlayground } from '../playground/playground.js';
export { computeStats } from '../playground/compute_link.js';
export { AttentionPlaygroundElement };
export default widget;
