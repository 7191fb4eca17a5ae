// What the positions panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** RoPE and ALiBi on a small layer's maps, ALiBi's slopes and RoPE's logits by offset (handler.js). */
  positionMethods: Object.freeze({ deadlineMs: 20000 }),
});
