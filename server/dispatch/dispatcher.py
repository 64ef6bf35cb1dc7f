"""The embedded dispatcher: worker threads in the server process that claim and judge submissions.

One worker per local GPU, or CPU-backend workers when there is none. A worker thread only waits
on `judge_source`, which builds and runs the submission in a child process: the server process
never runs user code and never creates a CUDA context.
"""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from sqlalchemy import select

from judge.problems.loader import ProblemError, parse_problem
from judge.problems.model import Problem
from judge.result import Result
from server.db import Database
from server.dispatch.lease import Job, LeaseStore
from server.models import ProblemRow

log = logging.getLogger("cudajudge.dispatch")

# judge(problem, source, mode=..., filename=..., on_event=...) -> Result
JudgeFn = Callable[..., Result]


def local_gpu_count() -> int:
    """GPUs that `nvidia-smi -L` lists, when CuPy is installed; asked without a CUDA context here."""
    from judge.submission import gpu_available

    if not gpu_available() or shutil.which("nvidia-smi") is None:
        return 0
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(1 for line in out.stdout.splitlines() if line.startswith("GPU "))


def plan_workers(backend: str, workers: int | None) -> tuple[str, int]:
    """(backend every worker uses, how many workers)."""
    from judge.submission import resolve_backend

    chosen = resolve_backend(backend)
    if chosen == "gpu":
        return "gpu", workers or max(1, local_gpu_count())
    return "cpu", workers or 1


def judge_with(backend: str, hidden: tuple[Path, ...] = ()) -> JudgeFn:
    """Judge with `judge_source` on `backend`; `hidden`: folders (the server's data) the run child must not see."""
    from judge.submission import judge_source

    def judge(problem: Problem, source: str, *, mode: str, filename: str, on_event) -> Result:
        return judge_source(problem, source, backend=backend, timing=(mode == "submit"),
                            samples_only=(mode == "run"), filename=filename, on_event=on_event, hidden=tuple(hidden))
    return judge


@dataclass
class WorkerState:
    name: str
    thread: threading.Thread
    wake: threading.Event
    current: int | None = None


class Dispatcher:
    def __init__(self, db: Database, store: LeaseStore, judge: JudgeFn, workers: int = 1, poll_s: float = 1.0,
                 name: str | None = None, backend: str = "cpu"):
        self.db, self.store, self.judge = db, store, judge
        self.poll_s = poll_s
        self.backend = backend
        self.count = workers
        self.name = name or f"{os.uname().nodename}:{os.getpid()}:{id(self) & 0xffff:04x}"
        self._stop = threading.Event()
        self._dead = False
        self._workers: list[WorkerState] = []
        self._lock = threading.Lock()
        self.judged = 0          # judge calls made by this dispatcher (each claimed attempt is one)
        self.lost = 0            # results discarded because the lease was lost

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        for i in range(self.count):
            state = WorkerState(f"{self.name}/w{i}", None, threading.Event())   # type: ignore[arg-type]
            state.thread = threading.Thread(target=self._loop, args=(state,), name=f"cudajudge-worker-{i}", daemon=True)
            self._workers.append(state)
            state.thread.start()
        log.info("dispatcher %s: %d %s worker(s)", self.name, self.count, self.backend)

    def wake(self) -> None:
        for w in self._workers:
            w.wake.set()

    def stop(self, timeout: float = 30.0) -> bool:
        """Stop claiming; wait up to `timeout` for the submissions being judged. True when all finished."""
        self._stop.set()
        self.wake()
        for w in self._workers:
            w.thread.join(timeout)
        return not any(w.thread.is_alive() for w in self._workers)

    def kill(self) -> None:
        """Behave as a process that died: stop at once, write nothing more (leases are left to expire)."""
        self._dead = True
        self._stop.set()
        self.wake()

    @property
    def busy(self) -> list[int]:
        return [w.current for w in self._workers if w.current is not None]

    # --- the worker loop ---------------------------------------------------------------------------

    def _loop(self, state: WorkerState) -> None:
        while not self._stop.is_set():
            state.wake.clear()
            try:
                job = self.store.claim(state.name)
            except Exception:
                log.exception("claiming a submission failed")
                job = None
            if job is None:
                state.wake.wait(self.poll_s)
                continue
            state.current = job.lease.submission_id
            try:
                self._judge(job)
            except Exception:
                log.exception("judging submission %d failed", job.lease.submission_id)
            finally:
                state.current = None

    def _judge(self, job: Job) -> None:
        lease = job.lease
        with self.db.read() as s:
            folder = s.scalar(select(ProblemRow.folder).where(ProblemRow.id == job.problem_id))
        try:
            problem = parse_problem(Path(folder))
        except (ProblemError, TypeError, OSError) as exc:
            self.store.fail(lease, f"problem {job.problem_id} cannot be loaded: {exc}")
            return

        lost = threading.Event()
        done = threading.Event()

        def heartbeat() -> None:
            while not done.wait(max(0.2, self.store.lease_s / 3)):
                if self._dead:
                    return
                try:
                    if not self.store.renew(lease):
                        lost.set()
                        return
                except Exception:
                    log.exception("renewing the lease of submission %d failed", lease.submission_id)

        beat = threading.Thread(target=heartbeat, name=f"cudajudge-lease-{lease.submission_id}", daemon=True)
        beat.start()
        index = 0

        def on_event(event: dict) -> None:
            nonlocal index
            if self._dead or lost.is_set():
                return
            try:
                if event.get("event") == "test":
                    if not self.store.record_test(lease, index, event["result"]):
                        lost.set()
                    index += 1
                elif event.get("event") == "build_done":
                    if not self.store.record_compile(lease, event["compile"]):
                        lost.set()
            except Exception:
                log.exception("recording an event of submission %d failed", lease.submission_id)

        try:
            with self._lock:
                self.judged += 1
            result = self.judge(problem, job.source, mode=job.mode, filename=job.filename, on_event=on_event)
        except Exception as exc:
            done.set()
            if not self._dead:
                log.error("judge raised on submission %d:\n%s", lease.submission_id, traceback.format_exc())
                self.store.fail(lease, f"{type(exc).__name__}: {exc}")
            return
        done.set()
        if self._dead:
            return
        if lost.is_set() or not self.store.complete(lease, result.model_dump(mode="json")):
            with self._lock:
                self.lost += 1
            log.warning("submission %d: lease lost while judging; result discarded", lease.submission_id)
