"""Both backends' compilers take the same constructs and refuse the same mistakes.

Each file in tests/data/compile_agreement is a solution of problem 1 whose first line says what a build
must do (`// expect: builds` or `// expect: CE`). The GPU backend's build (NVRTC and the host
compiler) runs without a GPU, so this runs everywhere.
"""
from pathlib import Path

import pytest

from judge.problems.loader import load_problem
from judge.compilation import build

CORPUS = Path(__file__).resolve().parents[2] / "data" / "compile_agreement"
FILES = sorted(CORPUS.glob("*.cu"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_both_backends_agree(path):
    source = path.read_text()
    expected = source.splitlines()[0].removeprefix("// expect:").strip()
    assert expected in ("builds", "CE"), f"{path.name}: the first line must say '// expect: builds' or '// expect: CE'"
    outcomes = {}
    for backend in ("gpu", "cpu"):
        info = build(load_problem(1), source, backend=backend, filename=path.name, arch="sm_90").compile
        errors = [f"{d.line}: {d.message}" for d in info.diagnostics if d.severity == "error"]
        outcomes[backend] = ("builds" if info.ok else "CE", errors)
        if not info.ok:
            assert errors and all(d.line is not None for d in info.diagnostics if d.severity == "error"), (backend, errors)
    assert outcomes["gpu"][0] == outcomes["cpu"][0] == expected, outcomes
