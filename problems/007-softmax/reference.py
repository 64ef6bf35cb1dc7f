"""Softmax over the whole vector: output[i] = exp(input[i] - m) / sum_j exp(input[j] - m),
m = max(input). The reference works in float64; check() applies the tolerance of the statement."""
import numpy as np

from judge.problems.api import CheckReport, Mismatch

U = 2.0 ** -24           # float32 unit roundoff
EXP_REL = 2.0 ** -14     # rounding of x - m (|x - m| < 200) and of a fast exp: a few 1e-5 at most
ABS_FLOOR = 1e-37        # below ~1.2e-38 float32 is denormal and may be flushed to zero


def reference(*, input, N, **_):
    x = input[:N].astype(np.float64)
    e = np.exp(x - x.max())              # the largest term is exactly 1, nothing overflows
    e /= np.add.reduce(e)
    return {"output": e}


def tolerance(N: int) -> float:
    """Relative tolerance: the exp/subtraction error plus a sum_bound-style term for the
    denominator (a float32 sum of N positive terms, as the project's reductions allow)."""
    return EXP_REL + 2.0 * np.sqrt(max(int(N), 1)) * U


def check(got, expected, *, N, **_):
    y = np.asarray(got["output"])
    r = np.asarray(expected["output"], dtype=np.float64)
    diff = np.abs(y.astype(np.float64) - r)
    ok = diff <= tolerance(N) * r + ABS_FLOOR          # NaN and inf compare false: they fail
    bad = ~ok
    count = int(np.count_nonzero(bad))
    if count == 0:
        return CheckReport(0, int(bad.size), None)
    i = int(np.argmax(bad))
    return CheckReport(count, int(bad.size),
                       Mismatch(output="output", index=i, expected=repr(float(r[i])), got=str(y[i]),
                                count=count, total=int(bad.size)))


def baseline(*, input, output, N, **_):
    import cupy

    x = input[:N]
    e = cupy.exp(x - x.max())
    output[:N] = e / e.sum()
