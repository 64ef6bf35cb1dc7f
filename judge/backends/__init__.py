"""Backends run a built submission: `gpu` (CuPy + the driver API) and `cpu` (CUDA emulated on fibers)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:   # base imports NumPy, which the judge side (judge.backends.choice) does without
    from judge.backends.base import Backend
    from judge.problems.model import Problem


def open_backend(name: str, problem: "Problem", library: Path, artifacts: dict[str, str],
                 before_user_code: Callable[[], None] = lambda: None) -> "Backend":
    """`before_user_code` runs once the device is set up and before the submission's library is
    loaded (its static constructors are user code)."""
    if name == "gpu":
        from judge.backends.gpu import GpuBackend
        return GpuBackend(problem, library, artifacts, before_user_code)
    if name == "cpu":
        from judge.backends.cpu import CpuBackend
        return CpuBackend(problem, library, artifacts, before_user_code)
    raise ValueError(f"unknown backend {name!r}")
