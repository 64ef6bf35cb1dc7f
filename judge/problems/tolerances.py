"""The checks behind the tolerance policies: does an output match the reference, and where does it first not?

Which check an output gets is its policy's (judge.problems.policies). Every comparison is written so
that NaN fails against a number (`not (diff <= bound)`), while a NaN the reference expects is matched
by a NaN. The checks take NumPy arrays or, for outputs checked where they are (timing on the GPU),
CuPy arrays: `xp` is the library of the output.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from judge.pieces import each_piece
from judge.problems.model import Tolerance
from judge.result import Mismatch


@dataclass(frozen=True)
class SumBound:
    """A reference value for the sum_bound policy.

    value: the exact (float64) result; abs_terms: Σ|terms| behind each element, in float64;
    n_terms: how many terms were summed for each element (an int or an array like value).
    """
    value: np.ndarray
    abs_terms: np.ndarray
    n_terms: np.ndarray | int


@dataclass(frozen=True)
class CheckReport:
    mismatches: int
    total: int
    first: Mismatch | None

    @property
    def ok(self) -> bool:
        return self.mismatches == 0


def format_value(x) -> str:
    """Shortest text that round-trips in the value's own dtype (0.1 for float32 0.1, not 0.10000000149)."""
    return str(x)


def _xp(a):
    """NumPy, or the array library of `a` (CuPy) without importing it here."""
    return np if isinstance(a, (np.ndarray, np.generic)) else sys.modules[type(a).__module__.split(".")[0]]


def _element(a, i: int):
    """Element i as a NumPy scalar, whose text is the shortest that round-trips, wherever `a` lives."""
    return a[i] if isinstance(a, np.ndarray) else a[i:i + 1].get()[0]


WINDOW_SIDE = 5   # elements shown on each side of the first mismatch
CHECK_CHUNK_ELEMENTS = 1 << 22   # a larger host output is first checked in chunks this long, on threads


def _window(a, start: int, end: int) -> list[str]:
    part = a[start:end] if isinstance(a, np.ndarray) else a[start:end].get()
    return [format_value(x) for x in part]


def _report(name: str, bad, got, expected) -> CheckReport:
    xp = _xp(bad)
    count = int(xp.count_nonzero(bad))
    if not count:
        return CheckReport(0, bad.size, None)
    i = int(xp.argmax(bad))
    start, end = max(0, i - WINDOW_SIDE), min(int(bad.size), i + WINDOW_SIDE + 1)
    return CheckReport(count, bad.size, Mismatch(output=name, index=i, expected=format_value(_element(expected, i)),
                                                 got=format_value(_element(got, i)), count=count, total=int(bad.size),
                                                 window_start=start, expected_window=_window(expected, start, end),
                                                 got_window=_window(got, start, end)))


def _both_nan(got, expected):
    """`expected` already in got's dtype."""
    xp = _xp(got)
    if not np.issubdtype(got.dtype, np.floating):
        return xp.zeros(got.shape, bool)
    return xp.isnan(got) & xp.isnan(expected)


def _holds_in_chunks(holds, got, *more) -> bool:
    """Whether holds(a chunk of `got`, the same chunk of each array of `more`, its other values whole) is
    true for every chunk of a large host output, chunks on threads. Most outputs pass, and for them this
    is the whole check; its temporaries stay chunk-sized (a whole-array float64 temporary of a 2^28-element
    output is 2 GiB of fresh pages). False also where an array of `more` is not one element per output
    element: the whole check decides."""
    size = got.size
    arrays = [got, *more]
    if any(isinstance(a, np.ndarray) and a.size not in (size, 1) for a in arrays):
        return False
    flat = [a.reshape(-1) if isinstance(a, np.ndarray) and a.size == size else a for a in arrays]

    def chunk(piece: tuple[int, int]) -> bool:
        start, end = piece[0], piece[0] + piece[1]
        return bool(holds(*[a[start:end] if isinstance(a, np.ndarray) and a.size == size else a for a in flat]))

    return all(each_piece(chunk, size, CHECK_CHUNK_ELEMENTS))


def _chunks_pass(got) -> bool:
    """Whether an output is large enough, and on the host, for the chunked first pass."""
    return isinstance(got, np.ndarray) and got.size > CHECK_CHUNK_ELEMENTS


def check_exact(name: str, got, expected) -> CheckReport:
    xp = _xp(got)
    expected = xp.asarray(expected).astype(got.dtype, copy=False)
    if _chunks_pass(got) and _holds_in_chunks(np.array_equal, got, expected):
        return CheckReport(0, got.size, None)
    bad = got != expected
    if np.issubdtype(got.dtype, np.floating):
        # NaN == NaN counts as a match; only the few unequal places are looked at (outputs run to GBs).
        unequal = xp.flatnonzero(bad)
        bad.reshape(-1)[unequal[_both_nan(got.reshape(-1)[unequal], expected.reshape(-1)[unequal])]] = False
    return _report(name, bad, got, expected)


def _ordered_ints(x):
    """Map floats to integers whose difference is the distance in ulps (sign-magnitude → two's complement)."""
    bits = {2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]
    i = x.view(bits).astype(np.int64)
    return _xp(x).where(i < 0, np.iinfo(bits).min - i, i)


def _ulp_ok(got, expected, ulps: int):
    """Per element: within `ulps` of the reference, both finite (or equal), or both NaN."""
    xp = _xp(got)
    distance = xp.abs(_ordered_ints(got) - _ordered_ints(expected))
    finite_or_equal = (got == expected) | (xp.isfinite(got) & xp.isfinite(expected))
    ok = (distance <= ulps) & finite_or_equal & ~xp.isnan(got) & ~xp.isnan(expected)
    return ok | _both_nan(got, expected)


def check_ulp(name: str, got, expected, ulps: int) -> CheckReport:
    if not np.issubdtype(got.dtype, np.floating):
        return check_exact(name, got, expected)
    expected = _xp(got).asarray(expected).astype(got.dtype)
    if _chunks_pass(got) and _holds_in_chunks(lambda g, e: _ulp_ok(g, e, ulps).all(), got, expected):
        return CheckReport(0, got.size, None)
    return _report(name, ~_ulp_ok(got, expected, ulps), got, expected)


def unit_roundoff(dtype: np.dtype) -> float:
    return float(np.finfo(dtype).eps) / 2


def _sum_bound_ok(got, value, abs_terms, n_terms, c: float, u: float, u_out: float):
    """Per element: |y − r| ≤ c·√n·u·Σ|terms| + u_out·|r|."""
    xp = _xp(got)
    n = xp.asarray(n_terms, dtype=np.float64)
    bound = c * xp.sqrt(xp.maximum(n, 1.0)) * u * xp.asarray(abs_terms, dtype=np.float64) + u_out * xp.abs(value)
    return xp.abs(got.astype(np.float64) - value) <= bound


def check_sum_bound(name: str, got, ref: SumBound, c: float, output_rel: float | None) -> CheckReport:
    """|y − r| ≤ c·√n·u·Σ|terms| + u_out·|r|, with u the unit roundoff of the output dtype."""
    xp = _xp(got)
    u = unit_roundoff(got.dtype)
    u_out = float(np.finfo(got.dtype).eps) if output_rel is None else output_rel
    r = xp.asarray(ref.value, dtype=np.float64)
    terms = (r, ref.abs_terms, ref.n_terms)
    if _chunks_pass(got) and _holds_in_chunks(lambda *chunk: _sum_bound_ok(*chunk, c, u, u_out).all(), got, *terms):
        return CheckReport(0, got.size, None)
    return _report(name, ~_sum_bound_ok(got, *terms, c, u, u_out), got, r)


def check_multiset(name: str, got, expected) -> CheckReport:
    """Same values with the same multiplicities, in any order; reported in sorted order."""
    xp = _xp(got)
    report = check_exact(name, xp.sort(got), xp.sort(xp.asarray(expected).astype(got.dtype)))
    if report.first is None:
        return report
    first = report.first.model_copy(update={"output": f"{name} (sorted)"})
    return CheckReport(report.mismatches, report.total, first)


def expected_array(name: str, got, expected):
    """The reference's value for an output as an array of got's library (a SumBound's value for a
    policy other than sum_bound); ValueError when its shape is not the buffer's."""
    if isinstance(expected, SumBound):
        expected = expected.value
    expected = _xp(got).asarray(expected)
    if expected.shape != got.shape:
        raise ValueError(f"reference returned {expected.shape} elements for {name!r}, the buffer has {got.shape}")
    return expected


def check_output(tolerance: Tolerance, name: str, got, expected) -> CheckReport:
    """One output against the reference, under the tolerance's policy."""
    return tolerance.rule.check_output(tolerance, name, got, expected)
