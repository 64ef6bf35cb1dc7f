"""What a problem's reference.py may use from the judge: the one judge module it imports.

`cudajudge validate` reports a reference.py that imports any other module of the judge.

generate(distribution, rng, dtype, count, low, high): an input drawn from a named distribution, as
    the judge draws one (for a generator of reference.py).
SumBound(value, abs_terms, n_terms): what reference() returns for an output under the sum_bound
    tolerance.
CheckReport(mismatches, total, first) and Mismatch(output, index, expected, got, count, total, ...):
    what check() returns under the custom tolerance.
each_piece(work, total, size): work((start, length)) for each `size`-long piece of a range of `total`,
    on the judge's threads (NumPy lets go of the GIL in its loops): a reference over a large input can
    use the machine's cores, piece by piece, as long as pieces write apart.
"""
from __future__ import annotations

from judge.pieces import each_piece
from judge.problems.distributions import generate
from judge.problems.tolerances import CheckReport, SumBound
from judge.result import Mismatch

__all__ = ["CheckReport", "Mismatch", "SumBound", "each_piece", "generate"]
