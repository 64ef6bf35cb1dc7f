"""Sort in place: data becomes its N floats in ascending order (-0.0 and 0.0 compare equal)."""
import numpy as np

from judge.problems.api import generate

LOW, HIGH = -1000.0, 1000.0
ZERO_SHARE = 0.03   # share of the values replaced by +0.0 or -0.0


def _sprinkle_zeros(rng, x):
    hit = rng.random(x.size) < ZERO_SHARE
    x[hit] = np.where(rng.random(int(hit.sum())) < 0.5, np.float32(0.0), np.float32(-0.0))
    if x.size >= 4:                     # always at least one of each zero
        x[rng.integers(0, x.size)] = np.float32(-0.0)
        x[rng.integers(0, x.size)] = np.float32(0.0)
    return x


def sort_data(rng, distribution, *, N, **_):
    n = int(N)
    if distribution == "all-equal":
        return generate("all-equal", rng, np.float32, n, LOW, HIGH)
    if distribution in ("sorted", "reversed"):
        x = np.sort(_sprinkle_zeros(rng, generate("uniform", rng, np.float32, n, LOW, HIGH)))
        return x if distribution == "sorted" else x[::-1].copy()
    return _sprinkle_zeros(rng, generate(distribution, rng, np.float32, n, LOW, HIGH))


def reference(*, data, N, **_):
    return {"data": np.sort(data[:N])}


def baseline(*, data, N, **_):
    import cupy

    data[:N].sort()   # in place; CuPy sorts with CUB's radix sort
