"""The job a parent hands its run child."""
from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel


class Job(BaseModel):
    problem_folder: Path
    backend: str                      # gpu | cpu
    library: Path                     # the built shared library that exports solve()
    artifacts: dict[str, str] = {}    # backend-specific: cubin path, kernel table, ...
    seed: int
    tests: list[str]                  # test names, in order
    rerun_test: str | None = None     # run this one twice to catch non-determinism
    timing: bool = False
    event_fd: int
    isolation: list[str] = []
