"""Backends run a built submission: `gpu` (CuPy + the driver API) and `cpu` (CUDA emulated on fibers)."""
from __future__ import annotations

from pathlib import Path

from judge.backends.base import Backend
from judge.problems.model import Problem


def open_backend(name: str, problem: Problem, library: Path, artifacts: dict[str, str]) -> Backend:
    if name == "gpu":
        from judge.backends.gpu import GpuBackend
        return GpuBackend(problem, library, artifacts)
    if name == "cpu":
        from judge.backends.cpu import CpuBackend
        return CpuBackend(problem, library, artifacts)
    raise ValueError(f"unknown backend {name!r}")
