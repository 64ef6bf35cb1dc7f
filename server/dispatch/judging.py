"""Judging one submission under a lease: claim the row, judge it, record the results.

The one code path of every kind of worker: the embedded dispatcher's threads (which claim the
oldest claimable submission) and the queue workers of `cudajudge worker` (which claim the
submission a delivered job names). Everything written is fenced by the lease token, so a job
delivered twice, or a worker that lost its lease, records nothing twice.
"""
from __future__ import annotations

import logging
import os
import shutil
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import InterfaceError, OperationalError

from judge.problems.loader import ProblemError, parse_problem
from judge.problems.model import Problem
from judge.protocol import BuildDone, BuildStarted, Progress, ShrinkStarted, TestDone, TestStarted, TimingCaseStarted
from judge.result import Result, Verdict
from sandbox.gpus import Gpu
from server.catalog import files_digest, judge_files
from server.dispatch.lease import ClaimedSubmission, Lease, LeaseStore
from server.models import ProblemRow, utcnow

log = logging.getLogger("cudajudge.dispatch")

# judge(problem, source, mode=..., filename=..., on_event=..., account=...) -> Result
JudgeFn = Callable[..., Result]
T = TypeVar("T")

# While the database is away (a restart, a failover) the final writes are retried this long, so a
# submission judged during the outage is recorded by its own worker instead of being judged again.
DATABASE_RETRY_S = 120.0


@dataclass(frozen=True)
class JudgeRun:
    """What became of one claimed submission."""
    submission_id: int
    attempt: int
    recorded: bool        # False: the lease was lost (or the worker died) and the result was discarded
    verdict: str | None
    seconds: float


def _retrying(what: str, call: Callable[[], T], gone: Callable[[], bool], give_up_s: float = DATABASE_RETRY_S) -> T:
    """`call()`, again while the database is unreachable (the write is fenced, so repeating it is safe)."""
    deadline = time.monotonic() + give_up_s
    pause = 0.2
    while True:
        try:
            return call()
        except (OperationalError, InterfaceError) as exc:
            if time.monotonic() > deadline or gone():
                raise
            log.warning("%s: the database did not answer (%s); retrying in %.1f s", what, exc.orig, pause)
            time.sleep(pause)
            pause = min(pause * 2, 5.0)


def judge_with(backend: str, hidden: tuple[Path, ...] = (), device: Gpu | None = None) -> JudgeFn:
    """Judge with `judge_source` on `backend` (and on `device`, a worker's GPU); `hidden`: folders (the
    server's data) the run child must not see."""
    from judge.submission import judge_source

    def judge(problem: Problem, source: str, *, mode: str, filename: str, on_event, account: str) -> Result:
        return judge_source(problem, source, backend=backend, timing=(mode == "submit"), samples_only=(mode == "run"),
                            fail_fast=(mode == "run"), shrink=True, filename=filename, on_event=on_event,
                            hidden=tuple(hidden), device=device, account=account)
    return judge


def load_problem(store: LeaseStore, problem_id: int, cache: Path | None = None) -> Problem:
    """The problem as the database knows it: its folder when this host has that folder with the same
    files (the server's host, or a shared checkout), else a copy of the stored files under `cache`."""
    with store.db.read() as s:
        row = s.execute(select(ProblemRow.folder, ProblemRow.judge_files, ProblemRow.files_digest)
                        .where(ProblemRow.id == problem_id)).first()
    if row is None:
        raise ProblemError(Path(f"problem {problem_id}"), None, "is not in the database")
    folder = Path(row.folder)
    if row.judge_files is None or cache is None or _local_digest(folder) == row.files_digest:
        return parse_problem(folder)
    copy = cache / row.files_digest / folder.name
    if not copy.is_dir():
        staging = cache / f".{row.files_digest}.{os.getpid()}.{threading.get_ident()}"
        (staging / folder.name).mkdir(parents=True, exist_ok=True)
        for name, text in row.judge_files.items():
            (staging / folder.name / name).write_text(text, encoding="utf-8")
        try:
            staging.rename(cache / row.files_digest)    # atomic: concurrent workers never see half a copy
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)   # another process made it first
    return parse_problem(copy)


def _local_digest(folder: Path) -> str | None:
    try:
        return files_digest(judge_files(folder))
    except OSError:
        return None


def live_progress(event: Progress) -> dict | None:
    """What the judge is doing now, after `event`, as the events stream shows it; None: unchanged."""
    if isinstance(event, BuildStarted):
        phase = {"phase": "compiling"}
    elif isinstance(event, TestStarted):
        phase = {"phase": "testing", "test": event.name, "index": event.index}
    elif isinstance(event, ShrinkStarted):
        phase = {"phase": "shrinking", "test": event.test}
    elif isinstance(event, TimingCaseStarted):
        phase = {"phase": "timing", "test": event.case}
    else:
        return None
    return {**phase, "since": utcnow().isoformat()}


def judge_one(store: LeaseStore, judge: JudgeFn, owner: str, *, submission_id: int | None = None,
              problem_cache: Path | None = None,
              dead: Callable[[], bool] = lambda: False,
              on_claim: Callable[[int], None] = lambda submission_id: None) -> JudgeRun | None:
    """Claim a submission (`submission_id`, or the oldest claimable one), judge it, record the Result.

    None when there was nothing to claim: no claimable submission, or `submission_id` is done or
    held by another worker's live lease. `dead()` true means: behave as a process that died (write
    nothing more); the tests use it to simulate a crash."""
    job = store.claim(owner, submission_id=submission_id)
    if job is None:
        return None
    on_claim(job.lease.submission_id)
    started = time.monotonic()
    lease = job.lease
    try:
        problem = load_problem(store, job.problem_id, problem_cache)
    except (ProblemError, TypeError, OSError) as exc:
        store.fail(lease, f"problem {job.problem_id} cannot be loaded: {exc}")
        return JudgeRun(lease.submission_id, lease.attempt, False, None, time.monotonic() - started)
    held = _HeldLease(store, lease, dead)
    held.start()
    recorded, verdict = _judge_held(judge, job, problem, held)
    return JudgeRun(lease.submission_id, lease.attempt, recorded, verdict, time.monotonic() - started)


class _HeldLease:
    """A claimed submission while it is judged: the lease renewed, the judge's events recorded under it."""

    def __init__(self, store: LeaseStore, lease: Lease, dead: Callable[[], bool]):
        self.store, self.lease, self.dead = store, lease, dead
        self.lost = threading.Event()    # a renewal or a write found the lease taken
        self.done = threading.Event()    # judging ended: stop renewing
        self.index = 0                   # the next test's index

    def start(self) -> None:
        threading.Thread(target=self._heartbeat, name=f"cudajudge-lease-{self.lease.submission_id}",
                         daemon=True).start()

    def gone(self) -> bool:
        return self.dead() or self.lost.is_set()

    def _heartbeat(self) -> None:
        while not self.done.wait(max(0.2, self.store.lease_s / 3)):
            if self.dead():
                return
            try:
                if not self.store.renew(self.lease):
                    self.lost.set()
                    return
            except Exception as exc:     # the database is away: the next renewal tries again
                log.warning("renewing the lease of submission %d failed: %s", self.lease.submission_id, exc)

    def on_event(self, event: Progress) -> None:
        if self.gone():
            return
        try:
            self._record(event)
        except Exception as exc:
            # a live event missed (the database is away): the final Result still carries every test
            log.warning("recording an event of submission %d failed: %s", self.lease.submission_id, exc)

    def _record(self, event: Progress) -> None:
        store, lease = self.store, self.lease
        if isinstance(event, TestDone):
            if not store.record_test(lease, self.index, event.result.model_dump(mode="json")):
                self.lost.set()
            self.index += 1
        elif isinstance(event, BuildDone):
            if not store.record_compile(lease, event.compile.model_dump(mode="json")):
                self.lost.set()
        elif (progress := live_progress(event)) is not None:
            if not store.record_progress(lease, progress):
                self.lost.set()


def _judge_held(judge: JudgeFn, job: ClaimedSubmission, problem: Problem, held: _HeldLease) -> tuple[bool, str | None]:
    """Judge the claimed `job` and write what came of it: (recorded, verdict recorded)."""
    store, lease = held.store, held.lease
    try:
        result = judge(problem, job.source, mode=job.mode, filename=job.filename, on_event=held.on_event,
                       account=f"user-{job.user_id}")
    except Exception as exc:
        held.done.set()
        if not held.dead():
            log.error("judge raised on submission %d:\n%s", lease.submission_id, traceback.format_exc())
            _retrying(f"submission {lease.submission_id}", lambda: store.fail(lease, f"{type(exc).__name__}: {exc}"),
                      held.dead)
        return False, None
    held.done.set()
    if held.dead():
        return False, None
    return _write_result(held, result)


def _write_result(held: _HeldLease, result: Result) -> tuple[bool, str | None]:
    """Complete the submission with `result`; an internal error while attempts remain puts it back instead."""
    store, lease = held.store, held.lease
    if result.verdict is Verdict.IE and lease.attempt < store.max_attempts:   # the judge's fault: once more
        log.warning("submission %d: internal error, judged again: %s", lease.submission_id, result.message)
        _retrying(f"submission {lease.submission_id}", lambda: store.fail(lease, result.message), held.dead)
        return False, None
    recorded = not held.lost.is_set() and _retrying(f"submission {lease.submission_id}",
                                                    lambda: store.complete(lease, result.model_dump(mode="json")),
                                                    held.dead)
    if not recorded:
        log.warning("submission %d: lease lost while judging; result discarded", lease.submission_id)
    return recorded, result.verdict.value if recorded else None
