"""Scatter-add: output[indices[i]] += values[i] for 0 <= i < N; output (M elements) starts at 0."""
import numpy as np

from judge.problems.api import SumBound, generate


def scatter_values(rng, distribution, *, N, **_):
    # Small whole numbers with mean 0: every partial sum of one output stays a (small) whole
    # number, so a correct float32 sum in any order is exact in practice.
    return rng.integers(-8, 9, int(N)).astype(np.float32)


def scatter_indices(rng, distribution, *, N, M, **_):
    n, m = int(N), int(M)
    idx = generate(distribution, rng, np.int32, n, 0, m)   # uniform, sorted, zipf, single-hotspot, ...
    if distribution == "uniform" and n >= 2:
        idx[int(rng.integers(0, n))] = m - 1               # the last output is always hit
    return idx


def reference(*, values, indices, N, M, **_):
    idx = indices[:N].astype(np.intp)              # bincount's own index type: convert once
    v = values[:N].astype(np.float64)
    value = np.bincount(idx, weights=v, minlength=M)
    np.abs(v, out=v)
    return {"output": SumBound(value=value, abs_terms=np.bincount(idx, weights=v, minlength=M),
                               n_terms=np.bincount(idx, minlength=M))}


def baseline(*, values, indices, output, N, M, **_):
    import cupyx

    cupyx.scatter_add(output, indices, values)
