"""Stable stream compaction: the elements of A that are > 0, in their original order, at the
front of out; the rest of out stays 0 (the judge zero-fills it)."""
import numpy as np

from judge.problems.api import generate

LOW, HIGH = -100.0, 100.0


def compaction_input(rng, distribution, *, N, **_):
    n = int(N)
    if distribution == "all-equal":            # one positive value: every element is kept
        return np.full(n, np.float32(rng.uniform(0.5, HIGH)), dtype=np.float32)
    a = generate(distribution, rng, np.float32, n, LOW, HIGH)
    if distribution in ("uniform", "normal") and n >= 16:
        # A few exact zeros of both signs: 0.0 and -0.0 are not > 0 and must be dropped.
        where = rng.integers(0, n, max(2, n // 64))
        a[where] = np.where(rng.random(where.size) < 0.5, np.float32(0.0), np.float32(-0.0))
    return a


def reference(*, A, N, **_):
    out = np.zeros(N, dtype=np.float32)
    kept = A[:N][A[:N] > 0]
    out[: kept.size] = kept
    return {"out": out}


def baseline(*, A, N, out, **_):
    import cupy

    kept = A[A > 0]                            # boolean indexing: a device scan and a scatter
    out[: kept.size] = kept
