"""Multi-block exclusive prefix sum: output[i] = input[0] + ... + input[i-1], output[0] = 0."""
import numpy as np


def reference(*, input, n, **_):
    out = np.empty(n, dtype=np.int32)
    out[0] = 0
    if n > 1:
        # An int32 running sum wraps modulo 2^32 exactly like int64 partial sums cast back
        # to int32, so accumulating in int32 is exact here (and the judged values keep every
        # partial sum inside int32 anyway).
        np.cumsum(input[: n - 1], dtype=np.int32, out=out[1:])
    return {"output": out}


def baseline(*, input, output, n, **_):
    import cupy

    output[0] = 0
    if n > 1:
        cupy.cumsum(input[: n - 1], out=output[1:n])
