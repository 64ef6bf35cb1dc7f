"""A test's data: its scalars and input arrays drawn from a seeded generator, and the reference's
expected outputs. Run-child work (NumPy); the parent only needs the plan (judge.problems.plan)."""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from judge.problems.distributions import default_range, generate
from judge.problems.expressions import evaluate
from judge.problems.model import Problem


@dataclass
class TestData:
    scalars: dict[str, int | float]
    arrays: dict[str, np.ndarray]  # every pointer parameter's host-side initial content

    def args(self) -> dict:
        return {**self.arrays, **self.scalars}


def case_rng(seed: int, case_name: str) -> np.random.Generator:
    """Independent, reproducible randomness per (run seed, test): tests can run alone or in any order."""
    return np.random.default_rng([seed, zlib.crc32(case_name.encode())])


def make_test_data(problem: Problem, reference: ModuleType, size: dict, distribution: str,
                   rng: np.random.Generator) -> TestData:
    scalars = problem.scalars_for(size, rng)
    arrays: dict[str, np.ndarray] = {}
    for p in problem.params:
        if not p.is_pointer:
            continue
        count = problem.element_count(p, scalars)
        if not p.is_input:
            arrays[p.name] = np.zeros(count, p.np_dtype)
            continue
        if p.generator:
            make = getattr(reference, p.generator, None)
            if make is None:
                raise ValueError(f"param {p.name!r}: generator {p.generator!r} is not defined in reference.py")
            data = np.ascontiguousarray(make(rng, distribution, **scalars), dtype=p.np_dtype)
            if data.shape != (count,):
                raise ValueError(f"generator {p.generator!r} returned shape {data.shape}, expected ({count},)")
        else:
            low, high = default_range(p.np_dtype) if p.values is None else (
                evaluate(str(p.values.low), scalars), evaluate(str(p.values.high), scalars))
            data = generate(distribution, rng, p.np_dtype, count, low, high, specials=problem.specials)
        arrays[p.name] = data
    return TestData(scalars, arrays)


def expected_outputs(problem: Problem, reference: ModuleType, data: TestData) -> dict:
    """Run the reference on read-only views of the inputs (never the outputs): a reference that
    writes to one fails loudly instead of changing the test's data (a copy would cost a pass over
    GBs per test)."""
    inputs = {}
    for p in problem.params:
        if p.is_input:
            view = data.arrays[p.name].view()
            view.flags.writeable = False
            inputs[p.name] = view
    out = reference.reference(**inputs, **data.scalars)
    missing = [p.name for p in problem.params if p.is_output and p.name not in out]
    if missing:
        raise ValueError(f"reference() returned no value for outputs {missing}")
    return out
