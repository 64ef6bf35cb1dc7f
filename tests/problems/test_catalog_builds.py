"""Every catalog source builds for the GPU without one: device code to a cubin through NVRTC,
host code to a shared library that exports solve(); a solution that expects CE does not."""
from pathlib import Path

import pytest

from judge.compilation import build
from judge.compilation.host import exports_entry
from judge.problems.loader import parse_problem, problem_folders
from judge.problems.validator import expected_verdict
from judge.result import Verdict

SOURCES = [(folder, path) for folder in problem_folders()
           for path in sorted(folder.glob("solutions/*/*.cu")) + [folder / "starter.cu"]]


@pytest.mark.parametrize("folder,path", SOURCES, ids=[f"{f.name}/{p.relative_to(f)}" for f, p in SOURCES])
def test_catalog_source_builds(folder: Path, path: Path):
    result = build(parse_problem(folder), path.read_text(encoding="utf-8"), filename=path.name)
    if path.parent.name == "rejected" and expected_verdict(path) == Verdict.CE:
        assert not result.ok and result.compile.diagnostics
        return
    assert result.ok, "\n".join(f"{d.line}: {d.message}" for d in result.compile.diagnostics)
    assert result.cubin.stat().st_size > 0 and exports_entry(result.library)
