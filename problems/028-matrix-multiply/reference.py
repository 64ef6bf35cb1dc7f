"""Matrix multiplication: C = A @ B, A is M x K, B is K x N, C is M x N, all row-major float32."""
import numpy as np

from judge.problems.api import SumBound


def reference(*, A, B, M, N, K, **_):
    a = A[: M * K].reshape(M, K)
    b = B[: K * N].reshape(K, N)
    value = a.astype(np.float64) @ b.astype(np.float64)
    # The bound's sum of |terms| only needs a few correct digits: float32 is plenty and halves
    # the reference's time at 4096^3 (all terms are non-negative, so there is no cancellation).
    abs_terms = (np.abs(a) @ np.abs(b)).astype(np.float64)
    return {"C": SumBound(value=value.ravel(), abs_terms=abs_terms.ravel(), n_terms=int(K))}


def baseline(*, A, B, C, M, N, K, **_):
    import cupy

    cupy.matmul(A.reshape(M, K), B.reshape(K, N), out=C.reshape(M, N))
