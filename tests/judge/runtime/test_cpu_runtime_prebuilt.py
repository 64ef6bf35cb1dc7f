"""The CPU runtime built at install time into the package (setup.py runs prebuild_runtime): a judge with
an empty cache uses it and builds none; a prebuilt runtime of another key, or a partial one, is not used."""
import shutil
import subprocess
from pathlib import Path

import pytest

from judge.compilation import cpu_runtime
from judge.compilation.cpu_runtime import CPU_RUNTIME_DIR, CXX, INCLUDE_FLAGS, prebuild_runtime, runtime_ready, \
    submission_flags
from judge.problems.loader import load_problem
from judge.source.cpu_rewrites import cpu_source
from judge.submission import judge_source

ROOT = Path(__file__).resolve().parents[3]
NAIVE = ROOT / "problems/001-relu/solutions/accepted/naive.cu"


@pytest.fixture(scope="module")
def prebuilt(tmp_path_factory) -> Path:
    """A package's prebuilt folder, built once for the module (about 20 s on two cores)."""
    return prebuild_runtime(tmp_path_factory.mktemp("package") / "prebuilt")


@pytest.fixture
def empty_cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CUDAJUDGE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_judge_with_an_empty_cache_builds_no_runtime(prebuilt, empty_cache, monkeypatch):
    monkeypatch.setattr(cpu_runtime, "PREBUILT_DIR", prebuilt.parent)
    assert runtime_ready() and cpu_runtime.built_runtime(False).archive.parent == prebuilt
    result = judge_source(load_problem(1), NAIVE.read_text(), backend="cpu", timing=False, samples_only=True)
    assert result.verdict == "AC", result.message
    assert not list((empty_cache / "cpu").glob("runtime-*"))


@pytest.mark.parametrize("header, observed", [("cudajudge_pch.h", False), ("cudajudge_observed_pch.h", True)])
def test_a_submission_compiles_with_the_prebuilt_precompiled_header(prebuilt, tmp_path, header, observed):
    (tmp_path / "solution.cu").write_text(cpu_source(NAIVE.read_text()).text)

    def compile_with(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([CXX, *submission_flags(False, observed), *extra, "-include", str(prebuilt / header),
                               *INCLUDE_FLAGS, "-Winvalid-pch", "-H", "-x", "c++", "-c", "solution.cu", "-o", "solution.o"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)

    used = compile_with()
    assert used.returncode == 0 and used.stderr.startswith(f"! {prebuilt / header}.gch\n"), used.stderr   # "!": used
    # The text header names the runtime's header from its own folder, as it lies in an installed package too
    # (read when GCC rejects the .gch, as here for another optimization level).
    include = (prebuilt / header).read_text().split('"')[1]
    assert not Path(include).is_absolute()
    assert (prebuilt / include).resolve() == (CPU_RUNTIME_DIR / "cuda_cpu.h").resolve()
    rejected = compile_with("-O0")
    assert rejected.returncode == 0 and f"x {prebuilt / header}.gch" in rejected.stderr, rejected.stderr


@pytest.mark.parametrize("damage", ["another key", "no precompiled header"])
def test_a_stale_or_partial_prebuilt_runtime_is_not_used(prebuilt, empty_cache, tmp_path, monkeypatch, damage):
    package = tmp_path / "prebuilt"
    copy = package / ("runtime-" + "0" * 24 if damage == "another key" else prebuilt.name)
    shutil.copytree(prebuilt, copy)
    if damage == "no precompiled header":
        (copy / "cudajudge_observed_pch.h.gch").unlink()
    monkeypatch.setattr(cpu_runtime, "PREBUILT_DIR", package)
    assert not runtime_ready()   # the first judge builds it into the cache, and says so
    assert cpu_runtime._runtime_layout(False).archive.parent == empty_cache / "cpu" / prebuilt.name


def test_prebuilding_again_keeps_the_runtime_and_removes_the_stale_ones(prebuilt):
    stale = prebuilt.parent / "runtime-000000000000000000000000"
    stale.mkdir()
    (prebuilt.parent / f"{stale.name}.lock").touch()
    archive = prebuilt / "libcudajudge_cpu.a"
    built = archive.stat().st_mtime_ns
    assert prebuild_runtime(prebuilt.parent) == prebuilt
    assert prebuilt.stat().st_mode & 0o777 == 0o755   # readable by every user of an installed package
    assert [p.name for p in prebuilt.parent.iterdir()] == [prebuilt.name]
    assert archive.stat().st_mtime_ns == built
