"""Radix sort: output = the N unsigned 32-bit keys of input in ascending order."""
import numpy as np


def reference(*, input, N, **_):
    # Equal keys are indistinguishable, so any sort gives the one correct answer.
    return {"output": np.sort(input[:N], kind="stable")}


def baseline(*, input, output, N, **_):
    import cupy

    # CuPy sorts 1-D arrays with CUB's device radix sort.
    output[...] = cupy.sort(input[:N])
