// reproduce.py of an export bundle: a short PyTorch script in the lesson's style (its
// ScaledDotProductAttention and MultiHeadAttention, with the playground's y = x·W + b weights, W of
// shape (d_in, d_out)) that loads the bundle's .npy files, recomputes the output and the attention
// weights in float64, prints the largest difference from the exported ones and exits 1 when one is
// above its tolerance: 1e-5 relative plus 8 times the float32 error expected at that element for this
// view's sizes and values (a sum of n products rounds like a random walk, about √n roundings, and each
// step inherits its inputs' errors), so a correct float32 run of any size passes and a changed
// number fails.
// The script reads its sizes, mask and options from view.json; only its opening comment is written
// for the view (what it holds, and what it cannot reproduce).

export const TOLERANCE = 1e-5; // relative, on top of the float32 error expected (reproduce.py's float32_bounds)

/** The notes of a view the script cannot follow exactly (also listed in view.json's `notes`). */
export function reproduceNotes(sizes) {
  const notes = [];
  if (sizes.dropout > 0) {
    notes.push(`dropout p = ${sizes.dropout} in training mode draws from the playground's own seeded generator, which PyTorch does not ` +
      'have: the script cannot draw the same weights to drop, so it takes the pattern from the exported weights (a weight ' +
      'exported as 0 where the softmax is not 0 was dropped) and scales the rest by 1/(1-p), as the playground does');
  }
  if (sizes.positional === 'rope') notes.push('q.npy and k.npy hold the projections before RoPE turns them; the script turns them itself');
  if (sizes.imported) notes.push(`${sizes.imported}: imported into the playground, not made by its seeds (they are in the .npy files all the same)`);
  return notes;
}

const BODY = String.raw`import json
import math
import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = Path(__file__).resolve().parent
TOLERANCE = 1e-5  # relative, on top of the float32 error expected of each element (float32_bounds)
U = 2.0 ** -24  # float32's unit roundoff
SAFETY = 8  # the float32 error estimate is a typical size (random-walk rounding): allow this many times it


def load(name):
    """One exported tensor as float64, or None when the bundle has no such file."""
    path = HERE / f"{name}.npy"
    return torch.from_numpy(np.load(path).astype(np.float64)) if path.exists() else None


class ScaledDotProductAttention(nn.Module):
    """Scaled dot-product attention, as in the lesson (temperature = sqrt(d_k), or 1 with the scale off)."""

    def __init__(self, temperature: float, dropout: float = 0.0):
        super().__init__()
        self.temperature = temperature
        self.p = dropout

    def forward(self, q, k, v, mask=None, dropped=None, bias=None):
        attn = torch.matmul(q, k.transpose(-2, -1)) / self.temperature
        if bias is not None:  # ALiBi: -slope * |i - j| added to the scaled logits
            attn = attn + bias
        if mask is not None:
            attn = attn.masked_fill(mask == 0, float("-inf"))
        attn = F.softmax(attn, dim=-1)
        # A query whose every key is masked gets weights 0 (and so a head output 0), as in the playground.
        attn = torch.nan_to_num(attn, nan=0.0)
        if dropped is not None:  # dropout in training mode, with the playground's pattern (see the notes)
            attn = attn.masked_fill(dropped, 0.0) / (1.0 - self.p)
        output = torch.matmul(attn, v)
        return output, attn


class MultiHeadAttention(nn.Module):
    """Multi-head attention with the playground's weights: y = x @ W + b, W of shape (d_in, d_out)."""

    def __init__(self, s, weights):
        super().__init__()
        self.n_heads, self.n_kv_heads = s["n_heads"], s["n_kv_heads"]
        self.d_k, self.d_v = s["d_k"], s["d_v"]
        # Grouped-query attention: query head h reads key/value head kv_head_of[h] (all heads: MHA).
        self.kv_head_of = torch.tensor(s["kv_head_of"])
        self.w = {name: nn.Parameter(weights[name], requires_grad=False) for name in weights if weights[name] is not None}
        temperature = math.sqrt(self.d_k) if s["scale"] else 1.0
        self.attention = ScaledDotProductAttention(temperature, s["dropout"])
        self.positional, self.rope_base = s.get("positional", "none"), s.get("rope_base")

    def linear(self, x, name):
        bias = self.w.get("b" + name[1:])
        return x @ self.w[name] + (bias if bias is not None else 0.0)

    def forward(self, q, k, v, mask=None, dropped=None):
        batch_size = q.size(0)
        # Project and reshape: (batch, seq, heads * d) -> (batch, heads, seq, d)
        q = self.linear(q, "wq").view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)
        k = self.linear(k, "wk").view(batch_size, -1, self.n_kv_heads, self.d_k).transpose(1, 2)
        v = self.linear(v, "wv").view(batch_size, -1, self.n_kv_heads, self.d_v).transpose(1, 2)
        bias = None
        if self.positional == "rope":
            q, k = rope(q, self.rope_base), rope(k, self.rope_base)
        elif self.positional == "alibi":
            bias = alibi(self.n_heads, q.size(2), k.size(2))
        heads, attn = self.attention(q, k[:, self.kv_head_of], v[:, self.kv_head_of], mask, dropped, bias)
        # Concatenate heads and project
        output = heads.transpose(1, 2).contiguous().view(batch_size, -1, self.n_heads * self.d_v)
        return self.linear(output, "wo"), attn, heads


def rope(x, base):
    """Rotary positions: each pair (2t, 2t+1) of a row at position p turned by p * base^(-2t/d)."""
    d = x.size(-1)
    pos = torch.arange(x.size(-2), dtype=torch.float64).view(-1, 1)
    angle = pos * base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    a, b = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = torch.cos(angle) * a - torch.sin(angle) * b
    out[..., 1::2] = torch.sin(angle) * a + torch.cos(angle) * b
    return out


def alibi(n_heads, n_q, n_k):
    """ALiBi (Press et al.): head h's logits get -slope_h * |i - j|, slopes a geometric sequence from 2^(-8/n)."""
    p = 2 ** int(math.log2(n_heads))
    slopes = [2 ** (-8 * (h + 1) / p) for h in range(p)] + [2 ** (-8 * (2 * h + 1) / (2 * p)) for h in range(n_heads - p)]
    i = torch.arange(n_q).view(-1, 1)
    j = torch.arange(n_k).view(1, -1)
    return -torch.tensor(slopes, dtype=torch.float64).view(1, -1, 1, 1) * (i - j).abs()


def float32_bounds(mha, query, key, value, attn):
    """The error a float32 run of this layer is expected to have, element by element, against the float64 one:
    the check allows SAFETY times it. A sum of n products rounds at every step, and those roundings add up like
    a random walk: about U * sqrt(n) * max(|sum|, sqrt(sum of squared products)). Each step also inherits the
    errors of its inputs, which add in quadrature (they are independent roundings). Returns the errors of the
    attention weights, the heads' outputs and the output."""
    def matmul(x, y, ex, ey):  # x @ y and its error: its own rounding and what the errors of x and y bring
        z = x @ y
        own = math.sqrt(x.size(-1)) * U * torch.maximum((x * x) @ (y * y), z * z).sqrt()
        return z, own + ((ex * ex) @ (y * y) + (x * x) @ (ey * ey)).sqrt()

    def project(x, name):  # x is exact (the exported float32 input); so are the weights
        w, bias = mha.w[name], mha.w.get("b" + name[1:])
        z, e = matmul(x, w, torch.zeros_like(x), torch.zeros_like(w))
        return (z, e) if bias is None else (z + bias, e + U * (z + bias).abs())

    def heads(t, n, d):  # (batch, seq, n * d) -> (batch, n, seq, d), as the layer reshapes
        return t.view(t.size(0), -1, n, d).transpose(1, 2)

    def turned(t, e):  # RoPE: a pair's rotation keeps its length, so each half carries the pair's error
        pair = lambda x: (x[..., 0::2] + x[..., 1::2]).repeat_interleave(2, dim=-1)
        return rope(t, mha.rope_base), pair(e * e).sqrt() + 2 * U * pair(t * t).sqrt()

    (q, eq), (k, ek), (v, ev) = project(query, "wq"), project(key, "wk"), project(value, "wv")
    q, eq = heads(q, mha.n_heads, mha.d_k), heads(eq, mha.n_heads, mha.d_k)
    k, ek = heads(k, mha.n_kv_heads, mha.d_k), heads(ek, mha.n_kv_heads, mha.d_k)
    v, ev = heads(v, mha.n_kv_heads, mha.d_v), heads(ev, mha.n_kv_heads, mha.d_v)
    if mha.positional == "rope":
        (q, eq), (k, ek) = turned(q, eq), turned(k, ek)
    k, ek, v, ev = k[:, mha.kv_head_of], ek[:, mha.kv_head_of], v[:, mha.kv_head_of], ev[:, mha.kv_head_of]
    t = mha.attention.temperature
    logits, e = matmul(q, k.transpose(-2, -1), eq, ek.transpose(-2, -1))
    logits, e = logits / t, e / t + U * (logits / t).abs()
    if mha.positional == "alibi":
        e = e + U * (logits + alibi(mha.n_heads, q.size(2), k.size(2))).abs()
    # softmax: w_j = exp(s_j) / sum_k exp(s_k) moves by w_j * (e_j - sum_k w_k e_k) when the logits move by e,
    # plus the rounding of exp, of the sum over n_k keys and of the division (masked keys have w = 0)
    spread = ((attn * attn) * (e * e)).sum(dim=-1, keepdim=True).sqrt()
    e_attn = attn * (e + spread + (4 + math.sqrt(k.size(2))) * U)
    out_heads, e_heads = matmul(attn, v, e_attn, ev)
    concat = lambda x: x.transpose(1, 2).contiguous().view(x.size(0), -1, mha.n_heads * mha.d_v)
    wo, bias = mha.w["wo"], mha.w.get("bo")
    out, e_out = matmul(concat(out_heads), wo, concat(e_heads), torch.zeros_like(wo))
    if bias is not None:
        e_out = e_out + U * (out + bias).abs()
    return {"attention": e_attn, "head_outputs": e_heads, "output": e_out}


def mask_of(s):
    """(batch, 1, n_q, n_k): 1 where query i may attend to key j (causal: j <= i; padding: j < length;
    sliding window w: i - w < j <= i; strided s: j <= i and (i - j < s or s divides i - j))."""
    i = torch.arange(s["n_q"]).view(-1, 1)
    j = torch.arange(s["n_k"]).view(1, -1)
    mask = torch.ones(s["batch"], 1, s["n_q"], s["n_k"], dtype=torch.bool)
    window, stride = s.get("window"), s.get("stride")
    if s["causal"] or window or stride:
        mask &= j <= i
    if window:
        mask &= j > i - window
    if stride:
        mask &= ((i - j) < stride) | ((i - j) % stride == 0)
    if s["padding"] is not None:
        lengths = torch.tensor(s["padding"]).view(-1, 1, 1, 1)
        mask &= j.view(1, 1, 1, -1) < lengths
    return mask


def main():
    view = json.loads((HERE / "view.json").read_text())
    s = view["sizes"]
    for note in view.get("notes", []):
        print("note:", note)
    query = load("query")
    key = load("key") if s["cross"] else query
    value = load("value") if s["cross"] else query
    weights = {name: load(name) for name in ["wq", "wk", "wv", "wo", "bq", "bk", "bv", "bo"]}
    exported = {name: load(name) for name in ["attention", "output", "head_outputs", "q"]}
    dropped = None
    mha = MultiHeadAttention(s, weights)
    mask = mask_of(s)
    if s["dropout"] > 0:
        _, before, _ = MultiHeadAttention(dict(s, dropout=0.0), weights)(query, key, value, mask)
        dropped = (exported["attention"] == 0) & (before != 0)
    with torch.no_grad():
        output, attn, heads = mha(query, key, value, mask, dropped)
        bounds = float32_bounds(mha, query, key, value, attn)
    checks = {"output": output, "attention": attn, "head_outputs": heads}
    worst, worst_ratio, worst_allowed = 0.0, 0.0, 0.0
    for name, mine in checks.items():
        if exported[name] is None:
            continue
        diff = (mine - exported[name]).abs()
        # the estimate, plus one rounding of the largest value (a floor where the estimate is 0)
        allowed = TOLERANCE * mine.abs() + SAFETY * bounds[name] + U * mine.abs().max()
        ratio = diff / allowed.clamp_min(1e-300)
        at = ratio.argmax()
        r, d, a = ratio.flatten()[at].item(), diff.flatten()[at].item(), allowed.flatten()[at].item()
        if not r <= 1:  # also NaN
            r = math.inf
        worst = max(worst, diff.max().item())
        if r >= worst_ratio:
            worst_ratio, worst_allowed = r, a
        print(f"{name:13s} {tuple(mine.shape)}  largest difference {diff.max().item():.3e}; "
              f"nearest its tolerance: {d:.3e} of {a:.3e} allowed there")
    print(f"largest difference {worst:.3e} (tolerance {TOLERANCE:.0e} relative + {SAFETY} x the float32 error expected of "
          f"each element; the closest element used {worst_ratio:.0%} of its {worst_allowed:.3e})")
    if not worst_ratio <= 1:
        print("FAILED: the exported numbers are not what this layer computes")
        sys.exit(1)
    print("OK: PyTorch reproduces the playground's output and attention weights")


if __name__ == "__main__":
    main()
`;

/** The text of reproduce.py for a view (sizes as in view.json). */
export function reproduceScript(sizes, notes = reproduceNotes(sizes)) {
  const kind = sizes.n_kv_heads === sizes.n_heads ? 'multi-head' : sizes.n_kv_heads === 1 ? 'multi-query' : 'grouped-query';
  const lines = [
    '# reproduce.py: recomputes this Attention Playground export in PyTorch (float64) from its .npy files',
    `# and checks the exported output and attention weights agree within ${TOLERANCE} relative plus float32's`,
    '# rounding for these sizes and values (exit 1 if not).',
    `# The view: ${kind} ${sizes.cross ? 'cross' : 'self'}-attention, d_model ${sizes.d_model}, n_heads ${sizes.n_heads}, ` +
      `n_kv_heads ${sizes.n_kv_heads}, d_k ${sizes.d_k}, d_v ${sizes.d_v}, n_q ${sizes.n_q}, n_k ${sizes.n_k}, batch ${sizes.batch},`,
    `# mask ${sizes.window ? `sliding window ${sizes.window}` : sizes.stride ? `strided ${sizes.stride}` : sizes.causal ? 'causal' : 'none'}` +
      `${sizes.padding ? ` + padding ${JSON.stringify(sizes.padding)}` : ''}, positions ${sizes.positional ?? 'none'}${sizes.rope_base ? ` (base ${sizes.rope_base})` : ''}, ` +
      `scale ${sizes.scale ? 'by sqrt(d_k)' : 'off'}, bias ${sizes.bias ? 'on' : 'off'}, dropout ${sizes.dropout}.`,
    '# Run it in the folder of the unzipped bundle: python3 reproduce.py (needs numpy and torch).',
    ...notes.map((n) => `# Note: ${n}.`),
    '',
  ];
  return `${lines.join('\n')}${BODY}`;
}
