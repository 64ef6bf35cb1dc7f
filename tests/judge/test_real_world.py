"""Solutions in the styles people write elsewhere (a judge's template header with C++ linkage, nvcc's
spellings, CUB's block and warp primitives, CUB's device-wide algorithms, Thrust), each accepted on
both backends: tests/judge/real_world/p<N>_*.cu solves problem N."""
from pathlib import Path

import pytest

from judge.problems.loader import load_problem
from judge.submission import judge_source

SOLUTIONS = sorted((Path(__file__).resolve().parent / "real_world").glob("p*_*.cu"))


def _judge(path: Path, backend: str):
    problem = int(path.name[1:].split("_", 1)[0])
    return judge_source(load_problem(problem), path.read_text(), backend=backend, timing=False,
                        patterns=["sample", "edge"], filename=path.name, seed=3)


def _accepted(result) -> None:
    assert result.verdict == "AC", (result.message, [d.message for d in result.compile.diagnostics])
    assert len(result.tests) >= 10 and all(t.verdict == "AC" for t in result.tests)


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_accepted_on_the_cpu_backend(path):
    _accepted(_judge(path, "cpu"))


@pytest.mark.gpu
@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_accepted_on_the_gpu_backend(path):
    _accepted(_judge(path, "gpu"))
