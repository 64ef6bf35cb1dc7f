"""Dot product: result[0] = A[0]*B[0] + ... + A[N-1]*B[N-1], checked against a float64 sum."""
import numpy as np

from judge.problems.api import SumBound, generate

_CHUNK = 1 << 22


def dot_b(rng, distribution, *, N, **_):
    """The second vector. Usually drawn like A; two distributions get a partner that keeps
    their point: for cancellation B is all ones (so A's large +L/-L pairs cancel in the
    products too), for alternating-sign B is positive (so the products alternate as well)."""
    n = int(N)
    if distribution == "cancellation":
        return np.ones(n, dtype=np.float32)
    if distribution == "alternating-sign":
        return generate("uniform", rng, np.float32, n, 0.01, 1.0)
    return generate(distribution, rng, np.float32, n, -1.0, 1.0)


def reference(*, A, B, N, **_):
    # Each float32 product is exact in float64 (24 + 24 bits < 53), so only the sums round.
    # Chunks keep the float64 temporaries small at N = 10^8.
    total = 0.0
    abs_total = 0.0
    for start in range(0, int(N), _CHUNK):
        stop = min(int(N), start + _CHUNK)
        products = A[start:stop].astype(np.float64) * B[start:stop]
        total += float(np.add.reduce(products))
        abs_total += float(np.add.reduce(np.abs(products)))
    return {"result": SumBound(value=np.array([total], dtype=np.float64),
                               abs_terms=np.array([abs_total], dtype=np.float64),
                               n_terms=int(N))}


def baseline(*, A, B, result, N, **_):
    import cupy

    result[...] = cupy.dot(A[:N], B[:N])
