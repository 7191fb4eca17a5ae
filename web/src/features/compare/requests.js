// What the "Compare heads" panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** The core's comparison of the heads of a config's layer: { config } → { compare }. */
  compare: Object.freeze({ passes: (config) => config.n_heads + 2 }),
});
