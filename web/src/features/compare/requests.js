// What the "Compare heads" panel asks the compute for (see features/index.js for the fields).

import { compareHeadsPasses } from '../../engine/call_costs.js';

export const requests = Object.freeze({
  /** The core's comparison of the heads of a config's layer: { config } → { compare }. */
  compare: Object.freeze({ passes: (config) => compareHeadsPasses(config) + 1 }), // the engine's passes, one more for the metrics
});
