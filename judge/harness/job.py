"""The job a parent hands its run child."""
from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel


class Job(BaseModel):
    problem_files: dict[str, str]     # problem.toml and reference.py: the child needs no view of the catalog
    problem_folder_name: str          # e.g. "083-multi-block-scan"
    backend: str                      # gpu | cpu
    library: Path                     # the built shared library that exports solve()
    artifacts: dict[str, str] = {}    # backend-specific: cubin path, kernel table, ...
    seed: int
    tests: list[str]                  # test names, in order
    rerun_test: str | None = None     # run this one twice to catch non-determinism
    timing: bool = False
    event_fd: int
    token: str                        # proves an event came from the harness, not from user code
    isolation: list[str] = []         # what the parent set up; the child adds what it installs itself
    seccomp: bool = True
