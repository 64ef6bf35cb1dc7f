"""The embedded dispatcher: worker threads in the server process that claim and judge submissions.

One worker per local GPU, or CPU-backend workers when there is none. A worker thread only waits
on `judge_source`, which builds and runs the submission in a child process: the server process
never runs user code and never creates a CUDA context.
"""
from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass

from sandbox.gpus import list_gpus
from server.db import Database
from server.dispatch.judging import JudgeFn, judge_one
from server.dispatch.lease import LeaseStore

log = logging.getLogger("cudajudge.dispatch")


def local_gpu_count() -> int:
    """GPUs that nvidia-smi lists, when CuPy is installed; asked without a CUDA context here."""
    from judge.backends.choice import gpu_available

    return len(list_gpus()) if gpu_available() else 0


def plan_workers(backend: str, workers: int | None) -> tuple[str, int]:
    """(backend every worker uses, how many workers)."""
    from judge.backends.choice import resolve_backend

    chosen = resolve_backend(backend)
    if chosen == "gpu":
        return "gpu", workers or max(1, local_gpu_count())
    return "cpu", workers or 1


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
                run = judge_one(self.store, self.judge, state.name, dead=lambda: self._dead,
                                on_claim=lambda sid: setattr(state, "current", sid))
            except Exception:
                log.exception("claiming or judging a submission failed")
                run = None
            finally:
                state.current = None
            if run is None:
                state.wake.wait(self.poll_s)
