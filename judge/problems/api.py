"""What a problem's reference.py may use from the judge: the one judge module it imports.

`cudajudge validate` reports a reference.py that imports any other module of the judge.

generate(distribution, rng, dtype, count, low, high): an input drawn from a named distribution, as
    the judge draws one (for a generator of reference.py).
SumBound(value, abs_terms, n_terms): what reference() returns for an output under the sum_bound
    tolerance.
CheckReport(mismatches, total, first) and Mismatch(output, index, expected, got, count, total, ...):
    what check() returns under the custom tolerance.
"""
from __future__ import annotations

from judge.problems.distributions import generate
from judge.problems.tolerances import CheckReport, SumBound
from judge.result import Mismatch

__all__ = ["CheckReport", "Mismatch", "SumBound", "generate"]
