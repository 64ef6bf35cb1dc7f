"""Start a run child, feed it its job, and relay its events under wall-clock deadlines.

The parent never runs user code and never creates a CUDA context. Between a child's "start"
event and its next event the deadline of that call applies; past it the child's whole process
group is killed.
"""
from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

OUTPUT_CAP_BYTES = 1 << 20     # stdout + stderr + printf a child may write before OLE
STARTUP_DEADLINE_S = 120.0     # importing CuPy and creating a context can be slow on a cold machine
IDLE_DEADLINE_S = 600.0        # between events outside a solve() call (reference, timing)


@dataclass
class ChildOutcome:
    """How the child ended, once its events are exhausted."""
    returncode: int | None = None
    killed_for: str | None = None          # "deadline" when we killed it
    deadline_test: str | None = None
    output: str = ""                       # the tail of its stdout/stderr
    output_bytes: int = 0
    signal_name: str | None = None


@dataclass
class ChildRun:
    command: list[str]
    job: dict
    deadline_s: float
    env: dict[str, str] | None = None
    outcome: ChildOutcome = field(default_factory=ChildOutcome)

    def events(self) -> Iterator[dict]:
        read_fd, write_fd = os.pipe()
        job = {**self.job, "event_fd": write_fd}
        with tempfile.TemporaryFile() as output:
            proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=output, stderr=output,
                                    pass_fds=(write_fd,), start_new_session=True, env=self.env)
            os.close(write_fd)
            try:
                proc.stdin.write(json.dumps(job).encode())
                proc.stdin.close()
            except BrokenPipeError:
                pass
            yield from self._relay(proc, read_fd)
            self._finish(proc, output)

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
                    _kill_group(proc)
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
                    if event.get("event") == "start":
                        current_test = event.get("test")
                        deadline = time.monotonic() + self.deadline_s
                    else:
                        current_test = None
                        deadline = time.monotonic() + IDLE_DEADLINE_S
                    yield event
        finally:
            selector.close()
            os.close(read_fd)

    def _finish(self, proc: subprocess.Popen, output) -> None:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            proc.wait()
        self.outcome.returncode = proc.returncode
        if proc.returncode is not None and proc.returncode < 0:
            self.outcome.signal_name = signal.Signals(-proc.returncode).name
        output.seek(0, os.SEEK_END)
        self.outcome.output_bytes = output.tell()
        output.seek(max(0, output.tell() - 4000))
        self.outcome.output = output.read().decode("utf-8", "replace")


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def python_child(module: str) -> list[str]:
    return [sys.executable, "-m", module]


def repository_root() -> Path:
    return Path(__file__).resolve().parents[1]
