"""A fixed test problem for the build tests, independent of the catalog."""
from __future__ import annotations

from judge.problems.model import Problem


def scan_problem() -> Problem:
    """extern "C" void solve(const int* input, int* output, int n), as problem 83 declares it."""
    return Problem.model_validate({
        "id": 9083, "slug": "build-test-scan", "difficulty": "hard",
        "title": {"zh": "测试", "en": "build test"},
        "params": [
            {"name": "input", "role": "in", "dtype": "int32", "shape": "n", "values": {"low": -16, "high": 17}},
            {"name": "output", "role": "out", "dtype": "int32", "shape": "n"},
            {"name": "n", "role": "scalar", "dtype": "int32"},
        ],
        "tolerance": {"policy": "exact"},
        "tests": [{"name": "small", "sizes": [{"n": 8}], "distributions": ["uniform"]}],
        "benchmark": {"sizes": [{"n": 1024}], "distributions": ["uniform"], "bytes": "8*n"},
    })
