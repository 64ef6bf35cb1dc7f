"""The oracle: the sandboxed process that runs a problem's reference.py for the judge side.

`python -m judge.checking.oracle [--gpu] --events FD`. It reads an OracleJob, then commands
(judge.protocol): it makes each test's inputs into a data file of its exchange folder and keeps the
expected outputs, checks the outputs the judge side copies there with the problem's tolerance (or its
custom check), and on the GPU measures the copy bandwidth and times the baseline on input sets of its
own. It never sees the submission, and the runner never sees it: reference.py is instructor code,
sandboxed like a submission.
"""
from __future__ import annotations

import mmap
import os
import sys
import tempfile
import threading
import traceback
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import numpy as np

from judge import exchange as X
from judge.checking.compare import compare_outputs, shown_inputs, untouched_count
from judge.output_digest import new_key, output_digest
from judge.pieces import ranked
from judge.problems.loader import load_reference, parse_problem
from judge.problems.plan import TestCase, elements
from judge.problems.test_data import TestData, case_rng, expected_outputs, make_test_data
from judge.protocol import (ORACLE_COMMANDS, BaselineTimed, Check, Checked, CopyMeasured, DataMade, Finish, Forget,
                            MakeData, MeasureCopy, OracleFailed, OracleJob, OracleReady, OutputDigest, Slot, TimeBaseline,
                            child_ends, decode)


LARGE_DATA_ELEMENTS = 1 << 24   # a test's buffers together; such data takes a large share of a second to make
LARGE_DATA_WORKERS = 2, 4       # at least and at most (large_data_workers)
MAKE_WORKERS = 4                # for the other data, at most (make_workers)


def make_workers() -> int:
    """Threads making data at once: the machine's cores, at most MAKE_WORKERS (each holds a test's arrays)."""
    return max(1, min(MAKE_WORKERS, len(os.sched_getaffinity(0))))


def large_data_workers() -> int:
    """Threads making large data at once: a quarter of the machine's cores within LARGE_DATA_WORKERS. Each
    holds GBs at 10^8 elements; on a GPU machine's many cores, the large tests' and timing's input sets are
    made side by side while the tests before them run."""
    least, most = LARGE_DATA_WORKERS
    return max(least, min(most, len(os.sched_getaffinity(0)) // 4))


_writers = ThreadPoolExecutor(make_workers() + large_data_workers(), thread_name_prefix="write")   # one per maker


def _load(job: OracleJob):
    """The problem and its reference from the job's files, in a private folder deleted again."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / job.problem_folder_name
        folder.mkdir()
        for name, text in job.problem_files.items():
            (folder / name).write_text(text, encoding="utf-8")
        problem = parse_problem(folder)
        return problem, load_reference(problem)


class DataFile:
    """Arrays written one after another into a new file, each 64-byte aligned."""

    def __init__(self, path: Path):
        self.path, self.fd, self.end = path, X.create(path, 0), 0

    def put(self, array: np.ndarray, write: bool = True) -> Slot:
        array = np.ascontiguousarray(array).reshape(-1)
        offset = X.round_up(self.end, 64)
        self.end = offset + array.nbytes
        if write:
            X.write_bytes(self.fd, offset, array)
        return Slot(offset=offset, count=array.size, dtype=array.dtype.str)

    def close(self) -> None:
        os.ftruncate(self.fd, X.round_up(self.end, 64))
        os.close(self.fd)


def read_slots(path: str, slots: dict[str, Slot]) -> dict[str, np.ndarray]:
    """The arrays at `slots` in a file the judge side wrote, mapped copy-on-write: no pass over the bytes
    before the check's own, and a custom check may still change them without changing the file."""
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        pages = mmap.mmap(fd, size, access=mmap.ACCESS_COPY) if size else bytearray()
    finally:
        os.close(fd)
    return {name: np.frombuffer(pages, np.dtype(slot.dtype), slot.count, slot.offset) for name, slot in slots.items()}


class Oracle:
    def __init__(self, job: OracleJob, emit):
        self.job, self.emit = job, emit
        self.problem, self.reference = _load(job)
        # request -> (its data, when kept for a custom check or the baseline; its expected outputs)
        self.kept: dict[int, tuple[TestData | None, dict]] = {}
        # A timed judge's CUDA context and timer, made on a thread of their own while the tests run (CuPy's
        # import and a context take most of a second), not when timing begins.
        self.device: Future | None = ThreadPoolExecutor(1, thread_name_prefix="device").submit(_device) \
            if job.gpu else None

    def make(self, cmd: MakeData) -> DataMade:
        with ranked(cmd.request):   # the data of the tests that run first has its pieces made first
            return self._make(cmd)

    def _make(self, cmd: MakeData) -> DataMade:
        data = make_test_data(self.problem, self.reference, cmd.size, cmd.distribution, case_rng(cmd.rng_seed, cmd.test))
        out = DataFile(Path(self.job.exchange) / f"data-{cmd.request}.bin")

        def write() -> dict[str, Slot]:
            with ranked(cmd.request):
                return {p.name: out.put(data.arrays[p.name], write=p.role.value != "out")
                        for p in self.problem.params if p.is_pointer}

        try:   # the inputs written while the reference runs on them (read-only views)
            writing = _writers.submit(write)
            try:
                expected = expected_outputs(self.problem, self.reference, data)
                digests = self.digests(data, expected) if cmd.digest else {}
            finally:
                arrays = writing.result()
        finally:
            out.close()
        keep_data = cmd.keep or self.problem.tolerance.rule.keeps_inputs
        self.kept[cmd.request] = (data if keep_data else None, expected)
        inputs = {p.name: data.arrays[p.name] for p in self.problem.params if p.is_pointer and p.role.value != "out"}
        return DataMade(request=cmd.request, file=str(out.path), scalars=data.scalars, arrays=arrays,
                        shown=shown_inputs(inputs, data.scalars), digests=digests)

    def digests(self, data: TestData, expected: dict) -> dict[str, OutputDigest]:
        """Each expected output's digest under a new key, where equal bytes pass the check (the exact
        policy) and the reference gave every output the buffer's size (else the check says what is wrong)."""
        if self.problem.tolerance.policy != "exact":
            return {}
        outputs = [(p, np.asarray(expected[p.name])) for p in self.problem.params if p.is_output]
        if any(value.size != data.arrays[p.name].size for p, value in outputs):
            return {}
        digests = {}
        for p, value in outputs:
            key = new_key()
            digests[p.name] = OutputDigest(key=key, value=output_digest(value.astype(p.np_dtype, copy=False), key))
        return digests

    def forget(self, request: int) -> None:
        self.kept.pop(request, None)

    def is_large(self, cmd: MakeData) -> bool:
        return elements(self.problem, TestCase(cmd.test, "", cmd.size, cmd.distribution, False, False)) >= LARGE_DATA_ELEMENTS

    def check(self, cmd: Check) -> None:
        data, expected = self.kept[cmd.request]
        got = read_slots(cmd.file, cmd.got)
        report = compare_outputs(self.problem, got, expected, lambda g: self.reference.check(g, expected, **data.args()))
        if report is None:
            self.emit(Checked(request=cmd.request, mismatches=0, total=sum(g.size for g in got.values())))
            return
        untouched, first_untouched = 0, None
        name = report.first.output
        if name in got:   # a plain output, not a derived view such as "out (sorted)"
            untouched, first_untouched = untouched_count(got[name], self.problem.param(name))
        self.emit(Checked(request=cmd.request, mismatches=report.mismatches, total=report.total, first=report.first,
                          untouched=untouched, first_untouched=first_untouched))

    def _gpu(self):
        if self.device is None:
            raise RuntimeError("the job did not ask for timing, so the oracle has no GPU")
        return self.device.result()

    def measure_copy(self) -> CopyMeasured:
        memory, timer = self._gpu()
        cp = memory.cp
        properties = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        device_id = (f"{bytes(properties.get('uuid', b'')).hex() or properties['pciBusID']} "
                     f"driver {cp.cuda.runtime.driverGetVersion()} cupy {cp.__version__}")
        return CopyMeasured(gbps=timer.copy_bandwidth_gbps(), device=properties["name"].decode(), device_id=device_id)

    def time_baseline(self, cmd: TimeBaseline) -> None:
        from judge.timing.baseline import time_baseline

        memory, timer = self._gpu()
        stats = time_baseline(memory, timer, self.problem, self.reference, [self.kept[r] for r in cmd.requests],
                              cmd.batched)
        self.emit(BaselineTimed(case=cmd.case, samples=stats.samples, median_us=stats.median_us, min_us=stats.min_us,
                                iqr_us=stats.iqr_us, noisy=stats.noisy, calls_per_sample=stats.calls_per_sample,
                                single_call_us=stats.single_call_us))


def _device():
    """(DeviceMemory, DeviceTimer) on the process's GPU."""
    from judge.backends.gpu import DeviceMemory
    from judge.timing.device import DeviceTimer

    memory = DeviceMemory()
    return memory, DeviceTimer(memory.cp, memory.stream)


class DataMaker:
    """Makes the data of consecutive MakeData commands on worker threads, several at once (NumPy lets go
    of the GIL in its generators, sorts and scans), and sends each DataMade as soon as it and every
    request asked before it are made: in the order asked, as the judge side takes them. Large data
    (`large(cmd)`: about a second to make) starts at once on threads of its own, not after every smaller
    request asked before it, so that it is ready by the time the tests before it have run."""

    def __init__(self, oracle: Oracle, emit, workers: int, large: Callable[[MakeData], bool] = lambda cmd: False):
        self.oracle, self.emit, self.large = oracle, emit, large
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="make")
        self.large_pool = ThreadPoolExecutor(large_data_workers(), thread_name_prefix="make-large")
        self.pending: deque[tuple[int, Future]] = deque()   # (request, its making), in the order asked
        self.forgotten: set[int] = set()
        self.lock = threading.Lock()
        self.failure: BaseException | None = None

    def submit(self, cmd: MakeData) -> None:
        future = (self.large_pool if self.large(cmd) else self.pool).submit(self.oracle.make, cmd)
        with self.lock:
            self.pending.append((cmd.request, future))
        future.add_done_callback(lambda _: self._send_made())

    def forget(self, requests: list[int]) -> None:
        """Requests the judge side will not take: those not started are not made, those being made are
        neither answered nor kept, and what was kept of those made is let go."""
        with self.lock:   # a cancel calls _send_made, which takes the lock
            self.forgotten.update(requests)
            waiting = [future for request, future in self.pending if request in requests]
        for future in waiting:
            future.cancel()
        for request in requests:
            self.oracle.forget(request)
        self._send_made()

    def _send_made(self) -> None:
        with self.lock:
            while self.pending and self.pending[0][1].done() and self.failure is None:
                request, future = self.pending.popleft()
                if request in self.forgotten:   # cancelled, or made after the judge side let it go
                    self.oracle.forget(request)
                    continue
                self.failure = future.exception()
                self.emit(future.result() if self.failure is None else failed(self.failure))

    def finish(self) -> None:
        """Wait until every request asked so far is made and sent."""
        for _, future in list(self.pending):
            if not future.cancelled():
                future.exception()
        self._send_made()

    def stop(self) -> None:
        for pool in (self.pool, self.large_pool):
            pool.shutdown(wait=False, cancel_futures=True)


def failed(exc: BaseException) -> OracleFailed:
    """reference.py or the oracle failed: the problem's fault or the judge's."""
    trace = "".join(traceback.format_exception(exc))
    return OracleFailed(message=f"{type(exc).__name__}: {exc}"[:4000], trace=trace[-8000:])


def main() -> int:
    ends = child_ends()
    lock = threading.Lock()

    def emit(message) -> None:   # from the command loop and the makers' threads
        with lock:
            ends.emit(message)

    commands, maker = ends.commands, None
    try:
        job = decode(ORACLE_COMMANDS, commands.readline())
        oracle = Oracle(job, emit)
        maker = DataMaker(oracle, emit, make_workers(), large=oracle.is_large)
        emit(OracleReady())
        for line in commands:
            cmd = decode(ORACLE_COMMANDS, line)
            if isinstance(cmd, MakeData):
                maker.submit(cmd)
                continue
            if maker.failure is not None:
                return 1
            if isinstance(cmd, Check):   # the judge side takes the data made meanwhile as it comes
                oracle.check(cmd)
            elif isinstance(cmd, Forget):
                maker.forget(cmd.requests)
            elif isinstance(cmd, Finish):
                break
            elif isinstance(cmd, MeasureCopy):   # on the GPU, while the host makes the last input sets
                emit(oracle.measure_copy())
            elif isinstance(cmd, TimeBaseline):   # once every set is made: nothing else runs on the host
                maker.finish()
                if maker.failure is not None:
                    return 1
                oracle.time_baseline(cmd)
        return 0
    except Exception as exc:
        emit(failed(exc))
        return 1
    finally:
        if maker is not None:
            maker.stop()


if __name__ == "__main__":
    sys.exit(main())
