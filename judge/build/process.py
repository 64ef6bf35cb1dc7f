"""Compiler processes with a deadline: started together, waited for, killed whole if late."""
from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from sandbox import bubblewrap

OUTPUT_CAP_BYTES = 64 * 1024


COMPILER_MEMORY_BYTES = 8 << 30   # address space of one compiler process: a compile bomb ends as CE


def _compiler_limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (COMPILER_MEMORY_BYTES, COMPILER_MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def build_writable_dirs() -> list[Path]:
    """The caches compilers write into: the build cache, NVRTC's precompiled headers, the CPU runtime."""
    from judge.build.cache import cache_root
    from judge.build.cpu_build import cache_dir
    from judge.build.pch import pch_dir

    folders = [cache_root(), cache_dir(), pch_dir()]
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
    return folders


@dataclass(frozen=True)
class Finished:
    returncode: int | None     # None when killed at the deadline
    stdout: str
    stderr: str
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


def _capped(data: bytes) -> str:
    text = data[:OUTPUT_CAP_BYTES].decode("utf-8", errors="replace")
    return text + (f"\n[output truncated at {OUTPUT_CAP_BYTES} bytes]" if len(data) > OUTPUT_CAP_BYTES else "")


class Job:
    """One running process; its whole process group is killed if it outlives the deadline.

    Compilers run in bubblewrap where it works: no network, no device nodes, the filesystem
    read-only but for the job's folder and the build caches."""

    def __init__(self, args: list[str], *, stdin: bytes = b"", cwd: Path | None = None, env: dict | None = None,
                 writable: tuple[Path, ...] = ()):
        self.started = time.perf_counter()
        self._stdin = stdin
        if bubblewrap.available():
            args = bubblewrap.build_command(args, [p for p in (cwd, *writable, *build_writable_dirs()) if p is not None])
        self._process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         cwd=cwd, env=env, start_new_session=True, preexec_fn=_compiler_limits)

    def wait(self, deadline: float) -> Finished:
        """Wait until `deadline` (a time.perf_counter() value)."""
        try:
            out, err = self._process.communicate(self._stdin, timeout=max(deadline - time.perf_counter(), 0.01))
            code = self._process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(self._process.pid, signal.SIGKILL)
            out, err = self._process.communicate()
            code = None
        return Finished(code, _capped(out), _capped(err), time.perf_counter() - self.started)
