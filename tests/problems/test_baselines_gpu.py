"""Every problem's baseline computes the reference's answer on the GPU, on inputs with the same edge
cases as the benchmark's: a wrong baseline would stop a timed judge with an internal error."""
import math

import numpy as np
import pytest

from judge.exchange import reset_pattern
from judge.checking.compare import compare_outputs
from judge.problems.loader import load_reference, parse_problem, problem_folders
from judge.problems import plan, test_data

pytestmark = pytest.mark.gpu
FOLDERS = [f for f in problem_folders() if "def baseline(" in (f / "reference.py").read_text()]


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_baseline_matches_reference(folder):
    cp = pytest.importorskip("cupy")
    problem = parse_problem(folder)
    reference = load_reference(problem)
    cases = [c for c in plan.test_cases(problem, include_gpu_only=False) if c.distribution in problem.benchmark.distributions]
    case = max(cases, key=lambda c: math.prod(c.size.values()))
    data = test_data.make_test_data(problem, reference, case.size, case.distribution, test_data.case_rng(7, case.name))
    on_device = {}
    for p in problem.params:
        if not p.is_pointer:
            continue
        initial = data.arrays[p.name]
        if p.role.value == "out" and p.init != "zeros":   # outputs start as the timing phase leaves them
            initial = np.resize(np.frombuffer(reset_pattern(p), np.uint8), initial.nbytes).view(p.np_dtype)
        on_device[p.name] = cp.asarray(initial)
    reference.baseline(**on_device, **data.scalars)
    got = {p.name: cp.asnumpy(on_device[p.name]) for p in problem.params if p.is_output}
    expected = test_data.expected_outputs(problem, reference, data)
    report = compare_outputs(problem, got, expected, lambda g: reference.check(g, expected, **data.args()))
    assert report is None, f"{problem.key}'s baseline on {case.name}: {report.first}"
