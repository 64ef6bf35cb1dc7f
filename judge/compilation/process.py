"""Compiler processes under caps: address space and file size per process, and a deadline after
which a job's whole process group is killed. limit_message() says which cap stopped one."""
from __future__ import annotations

import re
import resource
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from judge.cache_paths import cache_root, cpu_build_root, pch_root
from sandbox import bubblewrap
from sandbox.runner import kill_group

# A compiler's stdout and stderr are each kept up to this many bytes (the rest is cut from its log).
COMPILER_LOG_CAP_BYTES = 64 * 1024


# Address space of each compiler process (g++, cc1plus, as, ld, the NVRTC worker; a worker that uses
# a PCH gets its heap on top: device.py). The largest legit builds measured: the NVRTC worker on CUB
# 0.7 GiB without PCH (0.55 GiB resident), cc1plus 0.2 GiB. A macro bomb reaches 2 GiB in 6 s in g++.
COMPILER_MEMORY_BYTES = 2 << 30
# Largest file a compiler may write: an object of a 16 GiB initialized array would fill the disk.
# The largest legit file is NVRTC's PCH, 0.36 GiB for CUB (it cannot outgrow its 1 GiB heap).
COMPILER_FILE_BYTES = 2 << 30
# Wall time of one build's compilers. The slowest legit builds measured, cold caches, on a 2-core
# machine under load: CUB device code creating its PCH 11 s, a CPU-backend build 6 s.
COMPILER_TIME_S = 20.0

# How a failed compiler shows the cap it hit: the signals it died of (-N, or 128 + N as bubblewrap
# reports its child's), and its own words at the start of a line (no quoted source line or #error
# text of the learner's starts so): g++ and its driver, ld, C++, Python, NVRTC and its LLVM.
_OUT_OF_MEMORY = re.compile(r"^(virtual memory exhausted|\S+: out of memory allocating"
                            r"|\S+: (fatal|internal compiler) error: (Killed|Segmentation fault) signal terminated"
                            r"|collect2: fatal error: ld terminated with signal (9|11)"
                            r"|terminate called after throwing an instance of 'std::bad_alloc'|MemoryError"
                            r"|(\S+\(\d+\): )?catastrophic error: out of memory|LLVM ERROR: out of memory)",
                            re.MULTILINE)
_SIGNS = {
    "memory": ({signal.SIGKILL, signal.SIGSEGV}, _OUT_OF_MEMORY),
    "file size": ({signal.SIGXFSZ}, re.compile(r"^\S+: (fatal|internal compiler) error: File size limit exceeded "
                                               r"signal terminated", re.MULTILINE)),
}


def limit_message(limit: str, time_limit_s: float) -> str:
    """What a learner reads when a cap ("time", "memory" or "file size") stopped the compiler."""
    if limit == "time":
        return f"compilation exceeded its time limit ({time_limit_s:g} s)"
    cap = COMPILER_MEMORY_BYTES if limit == "memory" else COMPILER_FILE_BYTES
    return f"compilation exceeded its {limit} limit ({cap / (1 << 30):g} GiB)"


def reports_out_of_memory(output: str) -> bool:
    return bool(_OUT_OF_MEMORY.search(output))


def _compiler_limits(memory_bytes: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (COMPILER_FILE_BYTES, COMPILER_FILE_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def build_writable_dirs() -> list[Path]:
    """The caches compilers write into: the build cache, NVRTC's precompiled headers, the CPU runtime."""
    folders = [cache_root(), cpu_build_root(), pch_root()]
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

    @property
    def limit(self) -> str | None:
        """The cap that stopped it: "time", "memory", "file size", or None."""
        if self.timed_out:
            return "time"
        code = self.returncode
        died_of = -code if code < 0 else code - 128 if code > 128 else None
        for limit, (signals, words) in _SIGNS.items():
            if code != 0 and (died_of in signals or words.search(self.stderr)):
                return limit
        return None


def _capped(data: bytes) -> str:
    cap = COMPILER_LOG_CAP_BYTES
    text = data[:cap].decode("utf-8", errors="replace")
    return text + (f"\n[output truncated at {cap} bytes]" if len(data) > cap else "")


class _Running:
    """The process groups of the jobs now running, so that an interrupt ends them all (and any job
    started after it) instead of waiting for builds nobody will read."""

    def __init__(self):
        self.lock = threading.Lock()
        self.groups: set[int] = set()
        self.interrupted = False

    def add(self, pid: int) -> None:
        with self.lock:
            self.groups.add(pid)
            if self.interrupted:
                kill_group(pid)

    def discard(self, pid: int) -> None:
        with self.lock:
            self.groups.discard(pid)

    def end_all(self) -> None:
        with self.lock:
            self.interrupted = True
            for pid in self.groups:
                kill_group(pid)


_running = _Running()


def end_all_jobs() -> None:
    """Kill every compiler job of this process, and each one started from now on."""
    _running.end_all()


class CompilerProcess:
    """One compiler process; its whole process group is killed if it outlives the deadline.

    Compilers run in bubblewrap where it works: no network, no device nodes, the filesystem
    read-only but for the job's folder and the build caches."""

    def __init__(self, args: list[str], *, stdin: bytes = b"", cwd: Path | None = None, env: dict | None = None,
                 writable: tuple[Path, ...] = (), memory_bytes: int = COMPILER_MEMORY_BYTES):
        self.started = time.perf_counter()
        self._stdin = stdin
        if bubblewrap.available():
            args = bubblewrap.build_command(args, [p for p in (cwd, *writable, *build_writable_dirs()) if p is not None])
        self._process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         cwd=cwd, env=env, start_new_session=True,
                                         preexec_fn=lambda: _compiler_limits(memory_bytes))
        _running.add(self._process.pid)

    def wait(self, deadline: float) -> Finished:
        """Wait until `deadline` (a time.perf_counter() value)."""
        try:
            out, err = self._process.communicate(self._stdin, timeout=max(deadline - time.perf_counter(), 0.01))
            code = self._process.returncode
        except subprocess.TimeoutExpired:
            kill_group(self._process.pid)
            out, err = self._process.communicate()
            code = None
        finally:
            _running.discard(self._process.pid)
        return Finished(code, _capped(out), _capped(err), time.perf_counter() - self.started)
