// The two ways a request to the compute worker ends without an answer: shared by the worker's client,
// the playground and the panels, so it lives apart from all three. The lazy panels come in a
// bundle of their own (dist/panels.js) with their own copy of this module, so `instanceof` goes by
// the error's name: an error made by one bundle's copy is recognised by the other's.

/** The learner (or a newer request) cancelled the request. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }

  static [Symbol.hasInstance](value) {
    return value instanceof Error && value.name === 'Cancelled';
  }
}

/** The worker stopped answering (or died) and was restarted: the request can be tried again. */
export class WorkerLost extends Error {
  constructor(message) {
    super(message);
    this.name = 'WorkerLost';
  }

  static [Symbol.hasInstance](value) {
    return value instanceof Error && value.name === 'WorkerLost';
  }
}
