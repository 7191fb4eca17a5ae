// The compute side of the √d_k gradient lab: the gradient reaching the scores, measured by the core's
// backward pass (attn.sqrtDkGradients).

export const handlers = {
  async gradients(args, side) {
    return { gradients: (await side.labs()).sqrtDkGradients(args) };
  },
};
