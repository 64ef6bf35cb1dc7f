"""Sandboxed child processes of the judge side, and the channel to each.

A child reads commands, one JSON line each, on its stdin and writes events, one JSON line each, to a
pipe whose write end it inherits (`--events FD`); its stdout and stderr go to a file that the judge
side watches. The judge side never runs user code and never creates a CUDA context: the runner
(judge.runner) and the oracle (judge.checking.oracle) do, each in a child of its own.

`receive()` waits for the next event under a deadline the caller gives and under the whole judge's
budget, and ends the child (its whole process group) when either passes or when its output crosses
OUTPUT_CAP_BYTES: the caller learns why from `ChildEnded.reason`.
"""
from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from sandbox import bubblewrap, gpu_health, kernel_cache
from sandbox.gpus import Gpu
from sandbox.limits import Limits

OUTPUT_CAP_BYTES = 1 << 20     # stdout + stderr a child may write before OLE
ORACLE_FILE_BYTES = 64 << 30    # the oracle writes tests' data files, GB for GPU-only tests
CPU_HOST_MEMORY = 8 << 30       # host memory a child may use: the emulator's buffers live there
GPU_HOST_MEMORY = 96 << 30      # GPU-only tests stage inputs and outputs of many GB in host memory
CPU_SECONDS = 1800
# The only variables a child inherits: numerics settings and device selection, never credentials.
PASSED_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "CUDA_VISIBLE_DEVICES", "CUDAJUDGE_CPU_THREADS", "LD_LIBRARY_PATH")
STARTUP_DEADLINE_S = 120.0     # importing CuPy and creating a context can be slow on a cold machine
LINE_MAX_BYTES = 1 << 20       # no event of the protocol is longer
OUTPUT_POLL_S = 0.1            # how often the output's size is looked at while waiting
EXCHANGE_FOLDER = "exchange"   # inside a child's inbox: the one folder it may write besides its /tmp


class ChildEnded(Exception):
    """The child is gone or was ended. `reason`: "exited" (its channel closed), "deadline",
    "budget" (the whole judge's wall-clock budget), "output" (output past the cap), "protocol"
    (a line too long to be an event)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class ChildOutcome:
    """How the child ended."""
    returncode: int | None = None
    output: str = ""                       # the tail of its stdout/stderr
    signal_name: str | None = None
    gpu_released: bool | None = None       # after a kill on the GPU: did its context go away in time?


@dataclass
class Started:
    """A running child's ends of the channel: its pid (the leader of its process group), the write end
    of its stdin, the read end of its events, its output file, and how to learn its exit status."""
    pid: int
    commands: int
    events: int
    output: int
    reap: Callable[[float], int | None]


@dataclass
class Child:
    command: list[str]
    env: dict[str, str] | None = None
    limits: Limits | None = None
    gpu: bool = False
    kernel_cache: Path | None = None
    inbox: Path | None = None                # the folder it sees the build's files in
    isolation: list[str] = field(default_factory=list)
    budget_ends: float = float("inf")        # time.monotonic() when the whole judge must end
    arch: str | None = None                  # a standby runner: the GPU arch its host's starter found
    on_take: Callable[[], None] | None = None   # a standby runner: tells its host a job began
    outcome: ChildOutcome = field(default_factory=ChildOutcome)
    started: Started | None = field(default=None, repr=False)
    _pending: bytes = field(default=b"", repr=False)

    @property
    def exchange(self) -> Path:
        return self.inbox / EXCHANGE_FOLDER

    def start(self) -> None:
        """Start the process; its interpreter and imports then overlap the parent's build."""
        if self.started is not None:
            return
        read_fd, write_fd = os.pipe()
        output = tempfile.TemporaryFile()
        try:
            proc = subprocess.Popen([*self.command, "--events", str(write_fd)], stdin=subprocess.PIPE, stdout=output,
                                    stderr=output, pass_fds=(write_fd,), start_new_session=True, env=self.env,
                                    preexec_fn=self.limits.apply if self.limits else None)
        except BaseException:
            os.close(read_fd)
            output.close()
            raise
        finally:
            os.close(write_fd)

        def reap(timeout: float) -> int | None:
            try:
                return proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                return None
        self.started = Started(proc.pid, os.dup(proc.stdin.fileno()), read_fd, os.dup(output.fileno()), reap)
        proc.stdin.close()
        output.close()

    def pid(self) -> int | None:
        return self.started.pid if self.started else None

    def send(self, line: bytes) -> None:
        """One command; a child that no longer reads is found by the next receive()."""
        self.start()
        try:
            os.write(self.started.commands, line)
        except (BrokenPipeError, OSError):
            pass

    def receive(self, deadline_s: float) -> bytes:
        """The next line the child writes to its events, within `deadline_s` seconds and the budget."""
        self.start()
        if b"\n" in self._pending:
            line, self._pending = self._pending.split(b"\n", 1)
            return line
        ends = min(time.monotonic() + deadline_s, self.budget_ends)
        selector = selectors.DefaultSelector()
        selector.register(self.started.events, selectors.EVENT_READ)
        try:
            while True:
                if self.output_size() > OUTPUT_CAP_BYTES:
                    self.end("output")
                remaining = ends - time.monotonic()
                if remaining <= 0:
                    self.end("budget" if ends == self.budget_ends else "deadline")
                if not selector.select(timeout=min(remaining, OUTPUT_POLL_S)):
                    continue
                chunk = os.read(self.started.events, 1 << 16)
                if not chunk:
                    raise ChildEnded("exited")
                self._pending += chunk
                if b"\n" in self._pending:
                    line, self._pending = self._pending.split(b"\n", 1)
                    return line
                if len(self._pending) > LINE_MAX_BYTES:
                    self.end("protocol")
        finally:
            selector.close()

    def output_size(self) -> int:
        return os.fstat(self.started.output).st_size if self.started else 0

    def end(self, reason: str) -> None:
        """Kill the child's process group for `reason` and raise ChildEnded."""
        doomed = gpu_health.descendants(self.started.pid)
        kill_group(self.started.pid)
        if self.gpu:
            self.outcome.gpu_released = gpu_health.wait_released(doomed)
        raise ChildEnded(reason)

    def finish(self, wait_s: float = 10.0) -> ChildOutcome:
        """Wait for the child to exit (killing it after `wait_s`), and say how it ended."""
        if self.started is None:
            return self.outcome
        code = self.started.reap(wait_s)
        if code is None:
            kill_group(self.started.pid)
            code = self.started.reap(10.0)
        self.outcome.returncode = code
        # A signal kills the child directly (negative status) or inside bubblewrap (128 + the signal).
        number = -code if code is not None and code < 0 else (code - 128 if code is not None and 128 < code < 128 + 65 else None)
        if number is not None:
            try:
                self.outcome.signal_name = signal.Signals(number).name
            except ValueError:
                self.outcome.signal_name = f"signal {number}"
        self.outcome.output = self.output_tail()
        if self.kernel_cache is not None:
            kernel_cache.tidy(self.kernel_cache)
        return self.outcome

    def output_tail(self) -> str:
        """The tail of what the child wrote to stdout and stderr."""
        size = self.output_size()
        start = max(0, size - 4000)
        return os.pread(self.started.output, size - start, start).decode("utf-8", "replace")

    def read_output(self, start: int, count: int) -> bytes:
        """Up to `count` bytes of what the child wrote to stdout and stderr, from byte `start` on."""
        return os.pread(self.started.output, count, start) if self.started and count > 0 else b""

    def close(self) -> None:
        """End the process if it still runs and let go of its channel."""
        if self.started is None:
            return
        started, self.started = self.started, None
        if started.reap(0) is None:
            kill_group(started.pid)
            started.reap(10.0)
        for fd in (started.commands, started.events, started.output):
            try:
                os.close(fd)
            except OSError:
                pass


def kill_group(pid: int) -> None:
    """SIGKILL the process group `pid` leads, if it is still there."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def repository_root() -> Path:
    return Path(__file__).resolve().parents[1]


def child_environment() -> dict[str, str]:
    """A clean environment: nothing of the parent's but what the child needs to run."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONPATH": os.pathsep.join([str(repository_root()), *[p for p in sys.path if p and os.path.isdir(p)]]),
           "TMPDIR": "/tmp"}
    env.update({k: os.environ[k] for k in PASSED_ENV if k in os.environ})
    return env


def isolation_of(gpu: bool, sandbox: bool = True) -> list[str]:
    """What a child started now with these settings is isolated by (before its own seccomp filter)."""
    names = Limits.names()
    if sandbox and bubblewrap.available():
        names = ["bubblewrap(no network, read-only minimal view, private /tmp" + (", GPU nodes)" if gpu else ")")] + names
    return names


def run_child(module: str, *, gpu: bool, build_dir: Path, hidden: list[Path], sandbox: bool = True,
              device: Gpu | None = None, kernel_cache_folder: Path | None = None,
              env: dict[str, str] | None = None, file_bytes: int = OUTPUT_CAP_BYTES + 1) -> Child:
    """A sandboxed child running `python -m module`: bubblewrap where it works, rlimits always; the
    child adds its own seccomp filter. `hidden` folders (the catalog, the server's data) stay out of
    its view. `build_dir` is its inbox, seen read-only, the only folder of the host it sees besides the
    judge's code; its `exchange` subfolder, made here, is writable.
    `device`: the one GPU the child may use (a worker pinned to it); default: what the environment says.
    `kernel_cache_folder`: where CuPy keeps the judge's own compiled kernels between runs (see
    sandbox.kernel_cache: one account's folder only); default: a private one that ends with the run.
    `env`: the child's environment before the kernel cache and device are added; default: this process's
    `child_environment()` (a standby host passes the one of the judge that started it)."""
    env = dict(env or child_environment())
    env["CUPY_CACHE_DIR"] = str(kernel_cache_folder) if kernel_cache_folder else "/tmp/cupy-cache"
    if gpu and device is not None:
        env.update(device.child_environment())
    (build_dir / EXCHANGE_FOLDER).mkdir(mode=0o700, exist_ok=True)
    command = [sys.executable, "-m", module, *(["--gpu"] if gpu else [])]
    if gpu:
        file_bytes = max(file_bytes, kernel_cache.KERNEL_FILE_LIMIT_BYTES)
    limits = Limits(output_bytes=file_bytes, data_bytes=(GPU_HOST_MEMORY if gpu else CPU_HOST_MEMORY),
                    cpu_seconds=CPU_SECONDS)
    isolation = isolation_of(gpu, sandbox)
    if sandbox and bubblewrap.available():
        root = repository_root()
        command = bubblewrap.run_command(command, code_dirs=[root / "judge", root / "sandbox"],
                                         read_only=[build_dir, *[Path(p) for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]],
                                         hidden=hidden, gpu=gpu, env=env,
                                         gpu_node=device.device_node if gpu and device is not None else None,
                                         writable=[build_dir / EXCHANGE_FOLDER, *([kernel_cache_folder] if kernel_cache_folder else [])])
    return Child(command, env, limits, gpu, kernel_cache_folder, build_dir, isolation)
