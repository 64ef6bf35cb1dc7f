"""Top-p cutoff: the smallest k >= 1 with probs[0] + ... + probs[k-1] >= p.

The probabilities are sorted descending and are multiples of 2^-20 that add up to exactly 1, so
every partial sum - in any order of summation, in float32 or wider - is exact. p is a float32
that is not a multiple of 2^-20, so it never equals a partial sum: the answer cannot depend on
rounding or on >= versus >.
"""
import numpy as np

UNITS = 1 << 20                       # probabilities are multiples of 1 / UNITS


def sorted_probabilities(rng, distribution, *, N, **_):
    n = int(N)
    if distribution == "uniform":             # random weights
        weights = rng.random(n) + 1e-3
    elif distribution == "zipf":              # like a language model's next-token distribution
        weights = 1.0 / np.arange(1, n + 1, dtype=np.float64) ** 1.1
    elif distribution == "single-hotspot":    # one token takes about 90%
        weights = rng.random(n) * (0.1 / n)
        weights[0] = 0.9
    elif distribution == "all-equal":         # as flat as the 2^-20 grid allows
        weights = np.ones(n)
    elif distribution == "few-unique":        # four levels, long runs of ties
        weights = rng.choice(np.array([1.0, 2.0, 5.0, 20.0]), size=n)
    else:
        raise ValueError(f"sorted_probabilities: unknown distribution {distribution!r}")
    weights = np.sort(weights)[::-1]
    units = np.floor(weights / weights.sum() * UNITS).astype(np.int64)
    rest = UNITS - int(units.sum())           # 0 <= rest < n: one more unit to the largest ones
    units[:rest] += 1
    return (units / UNITS).astype(np.float32)  # exact: at most 21 significant bits


def reference(*, probs, N, p, **_):
    p32 = float(np.float32(p))
    if (p32 * UNITS).is_integer() or not 0.0 < p32 < 1.0:
        raise ValueError(f"p = {p!r} is {p32!r} as a float32: it must lie in (0, 1) off the 2^-20 grid")
    prefix = np.cumsum(probs[:N], dtype=np.float64)         # exact
    k = int(np.searchsorted(prefix, p32, side="left")) + 1   # first prefix >= p, counted from 1
    return {"cutoff": np.array([k], dtype=np.int32)}


def baseline(*, probs, cutoff, N, p, **_):
    import cupy
    import numpy as np

    prefix = cupy.cumsum(probs)                              # exact, like every partial sum here
    first = cupy.searchsorted(prefix, cupy.asarray([np.float32(p)]), side="left")
    cutoff[...] = (first + 1).astype(cupy.int32)
