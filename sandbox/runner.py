"""Start a run child, feed it its job, and relay its events under wall-clock deadlines.

The parent never runs user code and never creates a CUDA context. Between a child's "start"
event and its next event the deadline of that call applies; past it the child's whole process
group is killed.
"""
from __future__ import annotations

import json
import os
import secrets
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator

from sandbox import bubblewrap, gpu_health, kernel_cache
from sandbox.gpus import Gpu
from sandbox.limits import Limits

OUTPUT_CAP_BYTES = 1 << 20     # stdout + stderr + printf a child may write before OLE
CPU_HOST_MEMORY = 8 << 30       # host memory a child may use: the emulator's buffers live there
GPU_HOST_MEMORY = 96 << 30      # GPU-only tests stage inputs and outputs of many GB in host memory
CPU_SECONDS = 1800
# The only variables a child inherits: numerics settings and device selection, never credentials.
PASSED_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "CUDA_VISIBLE_DEVICES", "CUDAJUDGE_CPU_THREADS", "LD_LIBRARY_PATH")
STARTUP_DEADLINE_S = 120.0     # importing CuPy and creating a context can be slow on a cold machine
IDLE_DEADLINE_S = 600.0        # between events outside a solve() call (reference, timing)
FINAL_EVENTS = ("done", "stopped")   # a child's last events: it runs nothing more, its exit status decides nothing


@dataclass
class ChildOutcome:
    """How the child ended, once its events are exhausted."""
    returncode: int | None = None
    killed_for: str | None = None          # "deadline" when we killed it
    deadline_test: str | None = None
    output: str = ""                       # the tail of its stdout/stderr
    output_bytes: int = 0
    signal_name: str | None = None
    gpu_released: bool | None = None       # after a kill on the GPU: did its context go away in time?


@dataclass
class ChildRun:
    command: list[str]
    job: dict
    deadline_s: float
    env: dict[str, str] | None = None
    limits: Limits | None = None
    gpu: bool = False
    kernel_cache: Path | None = None
    inbox: Path | None = None                # the folder it sees the build's files in
    outcome: ChildOutcome = field(default_factory=ChildOutcome)
    token: str = field(default_factory=lambda: secrets.token_hex(16))   # events without it are ignored

    _started: tuple | None = field(default=None, repr=False)   # (process, event read end, its fd number there, output file)

    def start(self) -> None:
        """Start the process before its job is complete: its interpreter and imports then overlap the
        parent's build. It reads the job from stdin when `events()` sends it."""
        if self._started is not None:
            return
        read_fd, write_fd = os.pipe()
        output = tempfile.TemporaryFile()
        try:
            proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=output, stderr=output,
                                    pass_fds=(write_fd,), start_new_session=True, env=self.env,
                                    preexec_fn=self.limits.apply if self.limits else None)
        except BaseException:
            os.close(read_fd)
            output.close()
            raise
        finally:
            os.close(write_fd)
        self._started = (proc, read_fd, write_fd, output)

    def tell(self, message: dict) -> None:
        """One line to the child before its job (what a standby child prepares while it waits)."""
        self.start()
        stdin = self._started[0].stdin
        stdin.write(json.dumps(message).encode() + b"\n")
        stdin.flush()

    def pid(self) -> int | None:
        return self._started[0].pid if self._started else None

    def exited(self) -> bool:
        return self._started is not None and self._started[0].poll() is not None

    def events(self) -> Iterator[dict]:
        self.start()
        proc, read_fd, write_fd, output = self._started
        try:
            proc.stdin.write(json.dumps({**self.job, "event_fd": write_fd, "token": self.token}).encode())
            proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            yield from self._relay(proc, read_fd)
            self._finish(proc, output)
        finally:
            self.close()

    def close(self) -> None:
        """End the process if it still runs (a child started for a build that failed) and let go of its files."""
        if self._started is None:
            return
        proc, read_fd, _, output = self._started
        self._started = None
        if proc.poll() is None:
            _kill_group(proc)
        if proc.stdin and not proc.stdin.closed:
            proc.stdin.close()
        os.close(read_fd)
        output.close()

    def _relay(self, proc: subprocess.Popen, read_fd: int) -> Iterator[dict]:
        selector = selectors.DefaultSelector()
        selector.register(read_fd, selectors.EVENT_READ)
        pending = b""
        deadline = time.monotonic() + STARTUP_DEADLINE_S
        current_test = None
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.outcome.killed_for, self.outcome.deadline_test = "deadline", current_test
                    doomed = gpu_health.descendants(proc.pid)
                    _kill_group(proc)
                    if self.gpu:
                        self.outcome.gpu_released = gpu_health.wait_released(doomed)
                    return
                if not selector.select(timeout=min(remaining, 1.0)):
                    continue
                chunk = os.read(read_fd, 1 << 16)
                if not chunk:
                    return
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    try:
                        event = json.loads(line)
                    except json.JSONDecodeError:
                        continue   # not ours: user code wrote to the channel
                    if not isinstance(event, dict) or event.pop("token", None) != self.token:
                        continue   # forged: user code shares the child's process and can write to the channel
                    if event.get("event") == "start":
                        current_test = event.get("test")
                        deadline = time.monotonic() + self.deadline_s
                    else:
                        current_test = None
                        deadline = time.monotonic() + IDLE_DEADLINE_S
                    yield event
        finally:
            selector.close()

    def _finish(self, proc: subprocess.Popen, output) -> None:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            proc.wait()
        self.outcome.returncode = proc.returncode
        if self.kernel_cache is not None:
            kernel_cache.tidy(self.kernel_cache)
        code = proc.returncode
        # A signal kills the child directly (negative status) or inside bubblewrap (128 + the signal).
        number = -code if code is not None and code < 0 else (code - 128 if code is not None and 128 < code < 128 + 65 else None)
        if number is not None:
            try:
                self.outcome.signal_name = signal.Signals(number).name
            except ValueError:
                self.outcome.signal_name = f"signal {number}"
        self.outcome.output_bytes, self.outcome.output = _written(output)

    def outcome_so_far(self) -> ChildOutcome:
        """How the child stands after its last event, before it has exited (a GPU child's exit, the
        context's teardown, takes about 0.2 s): all a judge needs once the child reported `done`."""
        return replace(self.outcome, **dict(zip(("output_bytes", "output"), _written(self._started[3]))))


def _written(output) -> tuple[int, str]:
    """How many bytes the child wrote to stdout and stderr, and the tail of it."""
    output.seek(0, os.SEEK_END)
    size = output.tell()
    output.seek(max(0, size - 4000))
    return size, output.read().decode("utf-8", "replace")


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def repository_root() -> Path:
    return Path(__file__).resolve().parents[1]


def child_environment() -> dict[str, str]:
    """A clean environment: nothing of the parent's but what the child needs to run."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONPATH": os.pathsep.join([str(repository_root()), *[p for p in sys.path if p and os.path.isdir(p)]]),
           "TMPDIR": "/tmp"}
    env.update({k: os.environ[k] for k in PASSED_ENV if k in os.environ})
    return env


def run_child(module: str, *, job: dict, deadline_s: float, gpu: bool, build_dir: Path,
              hidden: list[Path], sandbox: bool = True, device: Gpu | None = None,
              kernel_cache_folder: Path | None = None, env: dict[str, str] | None = None) -> ChildRun:
    """The run child for one submission: bubblewrap where it works, rlimits always; the child adds
    its own seccomp filter. `hidden` folders (the catalog, the server's data) stay out of its view.
    `device`: the one GPU the child may use (a worker pinned to it); default: what the environment says.
    `kernel_cache_folder`: where CuPy keeps the judge's own compiled kernels between runs (see
    sandbox.kernel_cache: one account's folder only); default: a private one that ends with the run.
    `env`: the child's environment before the kernel cache and device are added; default: this process's
    `child_environment()` (a standby host passes the one of the judge that started it).
    `build_dir` is the child's inbox: the only build folder it sees, where the parent places the build's files."""
    env = dict(env or child_environment())
    env["CUPY_CACHE_DIR"] = str(kernel_cache_folder) if kernel_cache_folder else "/tmp/cupy-cache"
    if gpu and device is not None:
        env.update(device.child_environment())
    command = [sys.executable, "-m", module, *(["--gpu"] if gpu else [])]
    limits = Limits(output_bytes=OUTPUT_CAP_BYTES + 1, data_bytes=(GPU_HOST_MEMORY if gpu else CPU_HOST_MEMORY),
                    cpu_seconds=CPU_SECONDS)
    isolation = Limits.names()
    if sandbox and bubblewrap.available():
        root = repository_root()
        command = bubblewrap.run_command(command, code_dirs=[root / "judge", root / "sandbox"],
                                         read_only=[build_dir, *[Path(p) for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]],
                                         hidden=hidden, gpu=gpu, env=env,
                                         gpu_node=device.device_node if gpu and device is not None else None,
                                         writable=[kernel_cache_folder] if kernel_cache_folder else [])
        isolation = ["bubblewrap(no network, read-only minimal view, private /tmp" + (", GPU nodes)" if gpu else ")")] + isolation
    return ChildRun(command, {**job, "isolation": isolation}, deadline_s, env, limits, gpu, kernel_cache_folder, build_dir)
