"""A timed judge's benchmark data, made while a standby run child waits for its job.

Making GB of benchmark inputs and the reference's outputs, and placing them on the device, is
most of a timed judge's wall time. A standby host that has just run a timed job for a problem
expects the learner's next submission for the same problem, so it gives the next child that
problem and a fresh seed: the child makes the data while the learner edits, and the judge that
adopts it takes the seed. The child has run no user code yet, and the data is never shared
between processes: isolation is as before. A job for another problem or seed, or without timing,
calls the work off and frees what it made.
"""
from __future__ import annotations

import threading
from types import ModuleType

from judge.harness.job import Job
from judge.harness.timing import (CaseSets, Stats, Timer, benchmark_cases, device_bytes, input_set_count, prepare_case,
                                  time_baseline)
from judge.problems.model import Problem

DEVICE_SHARE = 0.25   # at most this share of the free device memory is held for a job not yet asked for:
                     # the job's own tests need the rest


class Ahead:
    """The benchmark of one problem at one seed, made in a background thread: the timer (its L2 flush
    buffer) and copy bandwidth, then, in the judge's order, every whole case that fits DEVICE_SHARE,
    and the baseline timed on it. The baseline is still timed by the process that times the
    solution, on the same input sets, with the same timer: only earlier."""

    def __init__(self, problem_files: dict[str, str], seed: int, load):
        """`load()` gives (problem, reference) from `problem_files`."""
        self.problem_files, self.seed = problem_files, seed
        self.problem: Problem | None = None
        self.reference: ModuleType | None = None
        self.timer: Timer | None = None
        self.copy_gbps: float | None = None
        self.error: str | None = None   # why it stopped early (the judge makes the rest itself): in timing_start
        self._cases: dict[str, CaseSets] = {}
        self._baselines: dict[str, Stats] = {}
        self._memory = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._make, args=(load,), name="benchmark-ahead", daemon=True)
        self._thread.start()

    def _make(self, load) -> None:
        try:
            from judge.backends.gpu import DeviceMemory

            self.problem, self.reference = load()
            self._memory = memory = DeviceMemory()
            self.timer = Timer(memory)
            self.copy_gbps = self.timer.copy_bandwidth_gbps()
            budget = DEVICE_SHARE * memory.cp.cuda.runtime.memGetInfo()[0]
            for case in benchmark_cases(self.problem):
                if self._stop.is_set():
                    return
                count = input_set_count(self.problem, case, self.copy_gbps)
                need = device_bytes(self.problem, case, count)
                if need > budget:
                    continue
                cs = prepare_case(memory, self.problem, self.reference, case, self.seed, count, self._stop)
                self._cases[case.name] = cs
                budget -= need
                if callable(getattr(self.reference, "baseline", None)) and not self._stop.is_set():
                    self._baselines[case.name] = time_baseline(memory, self.problem, self.reference, cs, self.timer)
        except Exception as exc:   # Cancelled, or a failure that measure() meets again and reports
            self.error = f"{type(exc).__name__}: {exc}"

    def serves(self, job: Job) -> bool:
        return job.timing and job.backend == "gpu" and job.seed == self.seed and job.problem_files == self.problem_files

    def wait(self) -> None:
        self._thread.join()

    def cases_ready(self) -> list[str]:
        return list(self._cases)

    def take(self, case_name: str) -> CaseSets | None:
        """The prepared sets of one case, now the caller's to release; None if it was not made."""
        return self._cases.pop(case_name, None)

    def baseline(self, case_name: str) -> Stats | None:
        """The baseline's timing on that case's sets, taken by this process before the job arrived."""
        return self._baselines.get(case_name)

    def discard(self) -> None:
        """Call the work off, wait for it to stop, and give its device memory back."""
        self._stop.set()
        self._thread.join()
        for cs in self._cases.values():
            cs.release(self._memory)
        self._cases.clear()
        if self._memory is not None:
            self._memory.cp.get_default_memory_pool().free_all_blocks()
