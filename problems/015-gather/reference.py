"""Gather: output[i] = values[indices[i]] for 0 <= i < M, every index in [0, N)."""
import numpy as np

from judge.problems.api import generate


def gather_values(rng, distribution, *, N, **_):
    # The table does not follow the distribution (that is the index pattern): random floats, so
    # that fetching the wrong entry is caught.
    return rng.uniform(-1000.0, 1000.0, int(N)).astype(np.float32)


def gather_indices(rng, distribution, *, N, M, **_):
    n, m = int(N), int(M)
    if distribution in ("sorted", "reversed"):          # every lane of a warp reads nearby entries
        idx = np.sort(rng.integers(0, n, m, dtype=np.int32))
        return idx[::-1].copy() if distribution == "reversed" else idx
    idx = generate(distribution, rng, np.int32, m, 0, n)  # uniform, zipf, all-equal, single-hotspot, ...
    if distribution == "uniform" and m >= 2:
        idx[int(rng.integers(0, m))] = n - 1            # the last table entry is always used
    return idx


def reference(*, values, indices, N, M, **_):
    return {"output": values[indices[:M]]}


def baseline(*, values, indices, output, N, M, **_):
    import cupy

    cupy.take(values, indices, out=output)
