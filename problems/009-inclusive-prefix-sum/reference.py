"""Inclusive prefix sum of floats: output[i] = input[0] + ... + input[i].

Checked per element with the sum_bound policy: the exact partial sum and the partial sum of
absolute values in float64, with i + 1 terms behind element i."""
import numpy as np

from judge.problems.api import SumBound


def reference(*, input, N, **_):
    x = input[:N].astype(np.float64)
    value = np.cumsum(x)
    abs_terms = np.cumsum(np.abs(x))
    return {"output": SumBound(value=value, abs_terms=abs_terms,
                               n_terms=np.arange(1, N + 1, dtype=np.float64))}


def baseline(*, input, output, N, **_):
    import cupy

    cupy.cumsum(input[:N], out=output[:N])
