"""The package as the build describes it (pyproject.toml): judge/prebuilt, which the build replaces with the
runtime it builds (setup.py), is package data and never a package: a package listed before the build and
gone after it fails the install (`pip install -e .` again after the runtime's sources changed)."""
import shutil
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_prebuilt_runtime_folders_are_no_packages(tmp_path):
    read_configuration = pytest.importorskip("setuptools.config.pyprojecttoml").read_configuration
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for package in ("cudajudge", "judge", "judge/checking", "sandbox", "server"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").touch()
    stale = tmp_path / "judge" / "prebuilt" / ("runtime-" + "0" * 24)   # a runtime of older sources
    stale.mkdir(parents=True)
    (stale / "libcudajudge_cpu.a").touch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # setuptools calls its pyproject support beta
        packages = read_configuration(tmp_path / "pyproject.toml", expand=True)["tool"]["setuptools"]["packages"]
    assert "judge" in packages and "judge.checking" in packages
    assert not [p for p in packages if p.startswith("judge.prebuilt")], packages
