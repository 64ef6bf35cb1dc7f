"""What a problem's reference.py may use from the judge."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SumBound:
    """A reference value for the sum_bound policy.

    value: the exact (float64) result; abs_terms: Σ|terms| behind each element, in float64;
    n_terms: how many terms were summed for each element (an int or an array like value).
    """
    value: np.ndarray
    abs_terms: np.ndarray
    n_terms: np.ndarray | int
