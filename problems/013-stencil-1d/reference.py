"""1-D three-point stencil: output[i] = 0.25*x[i-1] + 0.5*x[i] + 0.25*x[i+1].

The neighbours of the two end cells come from the boundary mode: 0 = zero padding
(x[-1] = x[N] = 0), 1 = clamp (x[-1] = x[0], x[N] = x[N-1]), 2 = wrap (x[-1] = x[N-1], x[N] = x[0]).
"""
import numpy as np

from judge.problems.api import SumBound

W_LEFT, W_CENTER, W_RIGHT = 0.25, 0.5, 0.25


def _ends(x, boundary):
    """x[-1] and x[N] (float64) for the boundary mode."""
    if boundary == 0:
        return 0.0, 0.0
    if boundary == 1:
        return float(x[0]), float(x[-1])
    if boundary == 2:
        return float(x[-1]), float(x[0])
    raise ValueError(f"boundary must be 0, 1 or 2, not {boundary}")


def _stencil(q, before, after):
    """0.5*x[i] + q[i-1] + q[i+1] from q = 0.25*x, with the end neighbours given (in place, few copies)."""
    out = q * 2.0
    out[1:] += q[:-1]
    out[:-1] += q[1:]
    out[0] += W_LEFT * before
    out[-1] += W_RIGHT * after
    return out


def reference(*, input, N, boundary, **_):
    x = input[:N]
    before, after = _ends(x, boundary)
    q = x.astype(np.float64)
    q *= W_LEFT                                   # 0.25 * x (exact); W_CENTER * x = 2 * q
    value = _stencil(q, before, after)
    np.abs(q, out=q)
    abs_terms = _stencil(q, abs(before), abs(after))
    return {"output": SumBound(value=value, abs_terms=abs_terms, n_terms=3)}


def baseline(*, input, output, N, boundary, **_):
    import cupy

    zero = cupy.zeros(1, dtype=input.dtype)
    before = {0: zero, 1: input[:1], 2: input[-1:]}[boundary]
    after = {0: zero, 1: input[-1:], 2: input[:1]}[boundary]
    left = cupy.concatenate((before, input[:-1]))
    right = cupy.concatenate((input[1:], after))
    output[...] = 0.25 * left + 0.5 * input + 0.25 * right
