"""Timing's input sets are made in parallel threads yet are exactly the sets a sequential
`prepare` makes: same data, same guard placement, distinct buffers, the reference's outputs."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from judge.backends.cpu import CpuBackend
from judge.build.cpu_build import build_cpu
from judge.harness.correctness import prepare, read_outputs, release
from judge.harness.timing import INPUT_SETS, _prepare_sets
from judge.problems.loader import load_problem, load_reference
from judge.problems import plan, test_data

ROOT = Path(__file__).resolve().parents[1]


def test_parallel_sets_equal_sequential_ones():
    problem = load_problem(1)
    reference = load_reference(problem)
    source = (ROOT / "problems/001-relu/solutions/accepted/naive.cu").read_text()
    compile_info, library = build_cpu(source, filename="naive.cu")
    assert library is not None, compile_info.log
    backend = CpuBackend(problem, library, {}, lambda: None)
    case = plan.TestCase("benchmark/N=100003/uniform", "benchmark", {"N": 100003}, "uniform", True, False)

    sets, expected = _prepare_sets(backend, problem, reference, case, seed=7)
    sequential = [prepare(backend, problem, reference, case, 7 + k) for k in range(INPUT_SETS)]
    try:
        assert len({s.buffers["input"].address for s in sets + sequential}) == 2 * INPUT_SETS
        for parallel, one, want in zip(sets, sequential, expected):
            np.testing.assert_array_equal(parallel.data.arrays["input"], one.data.arrays["input"])
            np.testing.assert_array_equal(parallel.buffers["input"].before, one.buffers["input"].before)
            np.testing.assert_array_equal(want["output"], test_data.expected_outputs(problem, reference, one.data)["output"])
            assert backend.call_solve(parallel.args(problem)) is None
            np.testing.assert_array_equal(read_outputs(backend, problem, parallel)["output"], want["output"])
        assert not np.array_equal(sets[0].data.arrays["input"], sets[1].data.arrays["input"])
    finally:
        for s in sets + sequential:
            release(backend, s)
