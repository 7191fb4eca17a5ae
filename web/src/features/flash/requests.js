// What the FlashAttention panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** One traced row through the core's tiled attention, and the IO model: → { tiles, io, row, reference_row, … }. */
  flashTiles: Object.freeze({ deadlineMs: 30000 }),
});
