"""`GET /api/metrics`: the judge's figures in Prometheus' text format, read from the database.

Everything comes from the database, so any server process answers for the whole deployment:
submissions by status and verdict, judging runs (claims), the job queue's depth per queue,
judge and wait times of recent submissions, and the workers seen recently.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import String, cast, func, select

from server.db import Database
from server.dispatch.queue import JOBS
from server.models import Submission, WorkerRow, utcnow

RECENT_FINISHED = 1000          # judge-time figures cover this many of the latest finished submissions
WORKER_SEEN_S = 60.0            # a worker that reported within this is counted as up
WORKER_LISTED_S = 3600.0        # workers seen within this are listed one by one
QUANTILES = (0.5, 0.9, 0.99)


@dataclass(frozen=True)
class WorkerSeen:
    name: str
    backend: str
    gpu_model: str | None
    age_s: float
    judged: int
    current: int | None


def recent_workers(db: Database, within_s: float = WORKER_SEEN_S) -> list[WorkerSeen]:
    now = utcnow()
    with db.read() as s:
        rows = s.scalars(select(WorkerRow).where(WorkerRow.last_seen >= now - timedelta(seconds=within_s))
                         .order_by(WorkerRow.name)).all()
    return [WorkerSeen(r.name, r.backend, r.gpu_model, (now - r.last_seen).total_seconds(), r.judged, r.current)
            for r in rows]


def _quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    position = q * (len(sorted_values) - 1)
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def _label(value: str | None) -> str:
    return (value or "").replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


class _Text:
    def __init__(self):
        self.lines: list[str] = []

    def metric(self, name: str, kind: str, help_: str, samples: list[tuple[dict, float]]) -> None:
        self.lines += [f"# HELP {name} {help_}", f"# TYPE {name} {kind}"]
        for labels, value in samples:
            inner = ",".join(f'{k}="{_label(v)}"' for k, v in labels.items())
            self.lines.append(f"{name}{{{inner}}} {value:g}" if inner else f"{name} {value:g}")

    def summary(self, name: str, help_: str, values: list[float]) -> None:
        ordered = sorted(values)
        self.lines += [f"# HELP {name} {help_}", f"# TYPE {name} summary"]
        self.lines += [f'{name}{{quantile="{q:g}"}} {_quantile(ordered, q):g}' for q in QUANTILES]
        self.lines += [f"{name}_sum {sum(ordered):g}", f"{name}_count {len(ordered)}"]


def _seconds(later: datetime | None, earlier: datetime | None) -> float | None:
    return (later - earlier).total_seconds() if later is not None and earlier is not None else None


def prometheus_text(db: Database) -> str:
    out = _Text()
    with db.read() as s:
        statuses = dict(s.execute(select(Submission.status, func.count()).group_by(Submission.status)).all())
        verdicts = s.execute(select(Submission.verdict, func.count()).where(Submission.status == "done")
                             .group_by(Submission.verdict).order_by(Submission.verdict)).all()
        runs = s.scalar(select(func.coalesce(func.sum(Submission.attempts), 0)))
        recent = s.execute(select(Submission.created_at, Submission.started_at, Submission.finished_at)
                           .where(Submission.status == "done", Submission.finished_at.is_not(None))
                           .order_by(Submission.finished_at.desc()).limit(RECENT_FINISHED)).all()
        job_status = cast(JOBS.c.status, String)
        queues = [] if db.is_sqlite else s.execute(
            select(JOBS.c.queue_name, job_status, func.count()).where(job_status.in_(("todo", "doing")))
            .group_by(JOBS.c.queue_name, job_status).order_by(JOBS.c.queue_name, job_status)).all()
    out.metric("cudajudge_submissions", "gauge", "Submissions by status.",
               [({"status": status}, statuses.get(status, 0)) for status in ("queued", "judging", "done")])
    out.metric("cudajudge_verdicts", "gauge", "Finished submissions by verdict.",
               [({"verdict": verdict or "none"}, n) for verdict, n in verdicts])
    out.metric("cudajudge_judging_runs", "gauge", "Claims of submissions by workers (a submission judged again "
               "after its worker died counts twice; a rejudge starts again from zero).", [({}, runs)])
    out.metric("cudajudge_queue_jobs", "gauge", "Jobs of the scale-out job queue: todo (waiting) and doing.",
               [({"queue": queue, "status": status}, n) for queue, status, n in queues])
    out.summary("cudajudge_judge_seconds", f"Claim to result, over the latest {RECENT_FINISHED} finished submissions.",
                [v for _, started, finished in recent if (v := _seconds(finished, started)) is not None])
    out.summary("cudajudge_wait_seconds", f"Submission to claim, over the latest {RECENT_FINISHED} finished submissions.",
                [v for created, started, _ in recent if (v := _seconds(started, created)) is not None])
    seen = recent_workers(db, WORKER_LISTED_S)
    up: dict[tuple[str, str], int] = {}
    for w in seen:
        if w.age_s <= WORKER_SEEN_S:
            key = (w.backend, w.gpu_model or "")
            up[key] = up.get(key, 0) + 1
    out.metric("cudajudge_workers_up", "gauge", f"Worker processes that reported within {WORKER_SEEN_S:g} s.",
               [({"backend": b, "gpu_model": m}, n) for (b, m), n in sorted(up.items())])
    out.metric("cudajudge_worker_last_seen_seconds", "gauge", "Seconds since each worker process (seen within the "
               "hour) last reported.", [({"worker": w.name, "gpu_model": w.gpu_model or ""}, round(w.age_s, 1))
                                        for w in seen])
    out.metric("cudajudge_worker_judged", "gauge", "Submissions each worker process judged since it started.",
               [({"worker": w.name}, w.judged) for w in seen])
    return "\n".join(out.lines) + "\n"
