// The panels that are built after the first result, bundled on their own as dist/panels.js: the
// element and the page download this only once a lazy panel is shown, so the first view waits for
// less code. A playground imports it through its asset folder (never by a relative import, which a
// module loaded from a blob: URL, as in a notebook, could not resolve). Keys are registry names.

import { createQuery } from './query.js';
import { createPatterns } from './patterns.js';
import { createCompare } from './compare.js';
import { createShapes } from './shapes.js';
import { createCost } from './cost.js';
import { createPerformance } from './performance.js';
import { createTraining } from './training.js';
import { createSqrtDk } from './sqrtdk.js';
import { createSqrtDkGradients } from './sqrtdk_gradients.js';
import { createPositional } from './positional.js';
import { createExamples } from './examples.js';
import { createModels } from './models.js';
import { createGqa } from './gqa.js';
import { createEquations } from './equations.js';

export const LAZY_PANELS = Object.freeze({
  query: createQuery,
  patterns: createPatterns,
  compare: createCompare,
  shapes: createShapes,
  cost: createCost,
  performance: createPerformance,
  training: createTraining,
  sqrtdk: createSqrtDk,
  gradients: createSqrtDkGradients,
  positional: createPositional,
  examples: createExamples,
  models: createModels,
  gqa: createGqa,
  equations: createEquations,
});
