"""`python -m judge.runner [--gpu] --events FD`: read a RunnerJob, then do what each command says.

The seccomp filter is installed after the backend is set up and before the submission's library is
loaded (its static constructors are user code). From then on this process is the submission's as
much as the judge's: everything it reports is only a claim, which the judge side checks.
"""
from __future__ import annotations

import ctypes
import os
import tomllib
import traceback
from pathlib import Path

import numpy as np

from judge.backends import open_backend
from judge.backends.base import Allocation, Backend, Launch, broken_driver_message
from judge.exchange import reset_pattern
from judge.problems.model import Problem
from judge.protocol import (RUNNER_COMMANDS, Call, CallError, CopiedBack, CopyBack, Finish, LaunchRecord, Place, Placed,
                            Ready, Release, Released, Returned, RunnerFailed, TimeCase, child_ends, decode)
from sandbox import seccomp_filter

LAUNCHES_REPORTED = 16
IOLBF = 1   # setvbuf's line-buffered mode (glibc)

_libc = ctypes.CDLL(None)


def line_buffered_stdout() -> None:
    """C stdout line-buffered, as on a terminal, though it is a file here: a line the submission prints
    reaches the judge side at once and is not lost in a buffer when the process crashes or is killed."""
    _libc.setvbuf(ctypes.c_void_p.in_dll(_libc, "stdout"), None, IOLBF, 0)


def launch_record(launch: Launch) -> LaunchRecord:
    return LaunchRecord(kernel=launch.kernel[:200], grid=launch.grid, block=launch.block, shared_bytes=launch.shared_bytes,
                        line=launch.line, status=launch.status, elapsed_us=launch.elapsed_us)


def call_error(err) -> CallError | None:
    if err is None:
        return None
    return CallError(verdict=err.verdict, message=err.message[:4000], sticky=err.sticky,
                     launch=launch_record(err.launch) if err.launch is not None else None)


class Runner:
    def __init__(self, backend: Backend, problem: Problem, exchange: Path, exchange_fd: int, emit):
        self.backend, self.problem, self.folder, self.fd, self.emit = backend, problem, exchange.parent, exchange_fd, emit
        self.placed: dict[str, tuple] = {}   # buffer name -> (slot, allocation)
        self.kept: dict[str, Allocation] = {}   # input name -> its payload as placed, on the device (GPU)
        self.timer = None                     # made by the first timed case (judge.runner.timing)

    def place(self, cmd: Place) -> None:
        self.release()
        uploaded: dict[tuple, tuple] = {}   # a payload source -> (allocation, start) where it was uploaded
        for slot in cmd.buffers:
            param = self.param_of(slot.name)
            output = param.role.value == "out"
            if slot.source is not None:
                alloc = self.place_from(slot, uploaded)
            elif output and self.backend.copies_buffers:   # its payload is filled below, not uploaded
                alloc = self.place_guards(slot)
            else:
                alloc = self.backend.place(self.fd, slot.offset, slot.span)
            self.placed[slot.name] = (slot, alloc)
            self.backend.name(alloc, slot.payload_offset, slot.nbytes, param.name, param.itemsize)
            if output:
                self.fill(slot, alloc, param)
        self.emit(Placed(test=cmd.test))

    def param_of(self, buffer: str):
        """The parameter a placed buffer holds (a timing set's buffers are named `set<k>/<param>`)."""
        return self.problem.param(buffer.rpartition("/")[2])

    def fill(self, slot, alloc, param) -> None:
        """An output's payload as it starts: the sentinel (or zeros), on the device, not through the file."""
        if slot.nbytes:
            self.backend.fill(alloc, slot.payload_offset, slot.nbytes, np.frombuffer(reset_pattern(param), np.uint8))

    def place_from(self, slot, uploaded: dict[tuple, tuple]) -> Allocation:
        """A device buffer whose guard bytes come from the exchange file and payload from `slot.source` (GPU):
        copied on the device from where an earlier buffer of the same Place took the same bytes (the timing
        sets that are copies of one set's data), else uploaded from the file."""
        backend, alloc = self.backend, self.place_guards(slot)
        key = slot.source.file, slot.source.offset, slot.nbytes
        if key in uploaded:
            backend.copy_within(alloc, slot.payload_offset, *uploaded[key], slot.nbytes)
        else:
            source = os.open(self.folder / slot.source.file, os.O_RDONLY | os.O_NOFOLLOW)
            try:
                backend.copy_in(source, slot.source.offset, alloc, slot.payload_offset, slot.nbytes)
            finally:
                os.close(source)
            uploaded[key] = alloc, slot.payload_offset
        return alloc

    def place_guards(self, slot) -> Allocation:
        """A device buffer of the slot's span holding the exchange file's guard bytes around a payload not
        yet set (GPU)."""
        backend, end = self.backend, slot.payload_offset + slot.nbytes
        alloc = backend.allocate(slot.span)
        backend.copy_in(self.fd, slot.offset, alloc, 0, slot.payload_offset)
        backend.copy_in(self.fd, slot.offset + end, alloc, end, slot.span - end)
        return alloc

    def release(self) -> None:
        for alloc in [alloc for _, alloc in self.placed.values()] + list(self.kept.values()):
            self.backend.free(alloc)
        self.placed.clear()
        self.kept.clear()

    def keep_inputs(self) -> None:
        """A device copy of each input's payload as placed, taken before the test's first call (GPU): after
        a call, an input still equal to it need not go back to the exchange file. Where the device has no
        room for a copy, that input is copied back whole after every call."""
        for name, (slot, alloc) in self.placed.items():
            if name not in self.kept and slot.nbytes and self.param_of(name).role.value == "in":
                if (copy := self.backend.copy_of(alloc, slot.payload_offset, slot.nbytes)) is not None:
                    self.kept[name] = copy

    def copy_back(self, digest: dict[str, int]) -> tuple[list[str], dict[str, int]]:
        """Every buffer back to the exchange file, except the payloads of an input equal to its kept copy
        and of an output named in `digest` (GPU), whose digest under its key is taken on the device instead;
        their guard bytes still go back. (Those inputs' names, those outputs' digests.)"""
        unchanged, digests = [], {}
        for name, (slot, alloc) in self.placed.items():
            kept = self.kept.get(name)
            if name in digest and self.backend.copies_buffers and self.param_of(name).is_output:
                digests[name] = self.backend.digest(alloc, slot.payload_offset, slot.nbytes, digest[name])
            elif kept is not None and not self.backend.differs(kept, alloc, slot.payload_offset):
                unchanged.append(name)
            else:
                self.backend.download(self.fd, slot.offset, alloc)
                continue
            end = slot.payload_offset + slot.nbytes
            self.backend.copy_out(self.fd, slot.offset, alloc, 0, slot.payload_offset)
            self.backend.copy_out(self.fd, slot.offset + end, alloc, end, slot.span - end)
        return unchanged, digests

    def copy_back_payloads(self, cmd: CopyBack) -> None:
        for name in cmd.buffers:
            slot, alloc = self.placed[name]
            self.backend.download(self.fd, slot.offset, alloc)
        self.emit(CopiedBack(test=cmd.test))

    def args(self, scalars: dict, prefix: str = "") -> list:
        out = []
        for p in self.problem.params:
            if p.is_pointer:
                slot, alloc = self.placed[prefix + p.name]
                out.append(alloc.address + slot.payload_offset)
            else:
                out.append(scalars[p.name])
        return out

    def call(self, cmd: Call) -> None:
        for name in cmd.reset:
            slot, alloc = self.placed[name]
            param = self.param_of(name)
            if param.role.value == "out":
                self.fill(slot, alloc, param)
            else:
                self.backend.upload(self.fd, slot.offset, alloc)
        if self.backend.copies_buffers:
            self.keep_inputs()
        self.backend.set_schedule(cmd.schedule, cmd.observe)
        self.backend.reset()
        try:
            err = self.backend.call_solve(self.args(cmd.scalars))
        except Exception as exc:
            if not self.backend.device_failure(exc):
                raise
            err = CallError(verdict="RE", message=broken_driver_message(exc), sticky=True)
        error = err if isinstance(err, CallError) or err is None else call_error(err)
        unchanged, digests = self.copy_back(cmd.digest) if error is None or not error.sticky else ([], {})
        launches = [launch_record(l) for l in self.backend.launches()[:LAUNCHES_REPORTED]]
        accesses, traffic = self.backend.observations() if cmd.observe and error is None else ([], [])
        printf, printf_bytes = self.backend.printf_output()
        _libc.fflush(None)   # what solve() printed without a newline is written before the judge side hears it returned
        self.emit(Returned(test=cmd.test, error=error, launches=launches, printf=printf, printf_bytes=printf_bytes,
                           accesses=accesses, traffic=traffic, unchanged_inputs=unchanged,
                           digests=digests))


def main() -> int:
    ends = child_ends()
    if ends.gpu:   # CuPy's import and the CUDA context, made while the judge side still builds
        try:
            import cupy

            cupy.cuda.runtime.free(0)   # cudaFree(0) creates the context
        except Exception:
            pass   # the backend does it again below, where a failure is reported
    emit, commands = ends.emit, ends.commands
    try:
        job = decode(RUNNER_COMMANDS, commands.readline())
        problem = Problem(**tomllib.loads(job.problem_toml))
        fd = os.open(job.exchange, os.O_RDWR)
        seccomp = []
        line_buffered_stdout()

        def before_user_code() -> None:
            if job.seccomp and seccomp_filter.install():
                seccomp.append(True)

        backend = open_backend(job.backend, problem, Path(job.library), job.artifacts, before_user_code)
    except Exception as exc:   # before the submission loaded: the judge's own fault
        emit(RunnerFailed(message=f"{type(exc).__name__}: {exc}"[:4000], trace=traceback.format_exc()[-8000:]))
        return 1
    emit(Ready(device=backend.device, schedules=list(backend.schedules), seccomp=bool(seccomp)))
    runner = Runner(backend, problem, Path(job.exchange), fd, emit)
    for line in commands:
        cmd = decode(RUNNER_COMMANDS, line)
        if isinstance(cmd, Place):
            runner.place(cmd)
        elif isinstance(cmd, Call):
            runner.call(cmd)
        elif isinstance(cmd, CopyBack):
            runner.copy_back_payloads(cmd)
        elif isinstance(cmd, Release):
            runner.release()
            emit(Released(test=cmd.test))
        elif isinstance(cmd, TimeCase):
            from judge.runner.timing import time_case

            time_case(runner, cmd, commands)
        elif isinstance(cmd, Finish):
            break
    return 0
