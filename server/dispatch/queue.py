"""The job queue of scale-out judging: procrastinate on the server's own PostgreSQL database.

A job says only "judge submission N"; the submission row stays the source of truth. Delivery is
at least once, and everything a worker writes is fenced by its lease (server/dispatch/lease.py),
so a job delivered twice is judged once and recorded once.

Queues route by GPU model: a submission that asks for a model goes to `judge.<model>` (e.g.
`judge.h100-80gb-hbm3`), any other to `judge`. A GPU worker takes jobs from `judge` and from its
model's queue; a CPU worker from `judge` and `judge.cpu`.

Nothing is lost when a job is: the sweep (run by every worker, `sweep`) defers a job again for
every submission that is claimable but has no pending job (the server died between storing a
submission and deferring its job, the database restarted, a worker died and its lease expired),
and hands the jobs of workers whose heartbeat stopped back to the queue (procrastinate's
stalled-job recovery).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

import procrastinate
from procrastinate.exceptions import AlreadyEnqueued
from sqlalchemy import String, and_, cast, column, literal, or_, select, table
from sqlalchemy.engine import make_url

from sandbox.gpus import gpu_model_key
from server.db import Database
from server.models import Submission, utcnow

log = logging.getLogger("cudajudge.queue")

JUDGE_TASK = "cudajudge.judge_submission"
GENERIC_QUEUE = "judge"
JOBS = table("procrastinate_jobs", column("id"), column("queue_name"), column("queueing_lock"), column("status"))
CPU_MODEL = "cpu"


def queue_for(gpu_model: str | None) -> str:
    return f"{GENERIC_QUEUE}.{gpu_model_key(gpu_model)}" if gpu_model else GENERIC_QUEUE


def worker_queues(gpu_model: str | None) -> list[str]:
    """What a worker takes: the generic queue and its model's (`cpu` for the CPU backend)."""
    return [GENERIC_QUEUE, queue_for(gpu_model or CPU_MODEL)]


def libpq_url(database_url: str) -> str:
    """`postgresql+psycopg://...` (SQLAlchemy's form) as libpq wants it."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def make_app(database_url: str, *, asynchronous: bool, pool_size: int = 4) -> procrastinate.App:
    """A procrastinate App on the database (its pools check a connection before lending it, so a
    restarted database only costs the connections that were open)."""
    connector_class = procrastinate.PsycopgConnector if asynchronous else procrastinate.SyncPsycopgConnector
    return procrastinate.App(connector=connector_class(conninfo=libpq_url(database_url), min_size=1,
                                                       max_size=pool_size))


def _deferrer(app: procrastinate.App, submission_id: int, gpu_model: str | None):
    # the queueing lock keeps one pending job per submission however often it is deferred
    return app.configure_task(JUDGE_TASK, queue=queue_for(gpu_model), queueing_lock=_lock(submission_id))


class JobQueue:
    """The server's side of the queue: a job per stored submission (deferring is synchronous)."""

    def __init__(self, database_url: str):
        self.app = make_app(database_url, asynchronous=False)

    def open(self) -> None:
        self.app.open()

    def close(self) -> None:
        self.app.close()

    def enqueue(self, submissions: list[tuple[int, str | None]]) -> int:
        """Defer a job for each (submission id, GPU model); a failure only costs time (the sweep defers it)."""
        deferred = 0
        for submission_id, gpu_model in submissions:
            try:
                _deferrer(self.app, submission_id, gpu_model).defer(submission_id=submission_id)
                deferred += 1
            except AlreadyEnqueued:
                pass
            except Exception as exc:
                log.warning("deferring the job of submission %d failed (%s); the next sweep defers it", submission_id, exc)
        return deferred


def _lock(submission_id) -> str:
    return f"submission-{submission_id}"


def orphans(db: Database, grace_s: float) -> list[tuple[int, str | None]]:
    """Claimable submissions without a pending job: queued for longer than `grace_s`, or judged under a
    lease that expired (its worker died, or lost the database for longer than the lease)."""
    now = utcnow()
    pending = (select(JOBS.c.id).where(JOBS.c.queueing_lock == literal("submission-") + cast(Submission.id, String),
                                       cast(JOBS.c.status, String).in_(("todo", "doing"))).exists())
    with db.read() as s:
        rows = s.execute(select(Submission.id, Submission.gpu_model).where(or_(
            and_(Submission.status == "queued", Submission.created_at < now - timedelta(seconds=grace_s)),
            and_(Submission.status == "judging", Submission.lease_expires < now)), ~pending)
            .order_by(Submission.id)).all()
    return [(r.id, r.gpu_model) for r in rows]


async def sweep(app: procrastinate.App, db: Database, *, grace_s: float, stalled_s: float) -> tuple[int, int]:
    """(stalled jobs handed back, jobs deferred for orphaned submissions)."""
    retried = 0
    for job in await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled_s):
        try:
            await app.job_manager.retry_job(job)
            retried += 1
        except Exception as exc:
            # another worker's sweep handed it back first, or the submission has a pending job already
            log.info("stalled job %s not handed back: %s", job.id, exc)
            with contextlib.suppress(Exception):    # it may have left 'doing' meanwhile: then nothing is to be done
                await app.job_manager.finish_job(job, status=procrastinate.jobs.Status.ABORTED, delete_job=True)
    deferred = 0
    for submission_id, gpu_model in await asyncio.to_thread(orphans, db, grace_s):
        try:
            await _deferrer(app, submission_id, gpu_model).defer_async(submission_id=submission_id)
            deferred += 1
        except AlreadyEnqueued:
            pass
    return retried, deferred
