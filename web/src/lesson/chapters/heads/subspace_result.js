// One head against two on the training lab's two-relation task, as the core computed it (written by
// scripts/subspace_result.mjs with the subspace panel's handler, wasm-simd128; tests/js/subspace.test.mjs
// recomputes it). The subspace panel shows it until the learner trains both models in the tab.

export const SUBSPACE_RESULT = {
  "settings": {
    "task": "two_relation",
    "d_model": 32,
    "seed": 1,
    "steps": 300,
    "samples": 1000,
    "heads": [
      1,
      2
    ]
  },
  "runs": [
    {
      "n_heads": 1,
      "d_k": 32,
      "steps": 300,
      "accuracy": 0.6165333333333334,
      "slot_accuracy": {
        "previous": 0.19114285714285714,
        "first": 0.98875
      },
      "focus": [
        {
          "previous": 0.0022712740218774814,
          "first": 0.9848459588823996
        }
      ]
    },
    {
      "n_heads": 2,
      "d_k": 16,
      "steps": 300,
      "accuracy": 1,
      "slot_accuracy": {
        "previous": 1,
        "first": 1
      },
      "focus": [
        {
          "previous": 0.00008214296429384429,
          "first": 0.9993678689897061
        },
        {
          "previous": 0.9198599928716819,
          "first": 0.006978457910734717
        }
      ]
    }
  ],
  "isa": "wasm-simd128"
};
