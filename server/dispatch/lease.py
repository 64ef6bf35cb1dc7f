"""Claiming submissions by database leases: the one piece every kind of worker shares.

A submission row is the source of truth. A worker claims one atomically with a compare-and-set
UPDATE (`... WHERE id = :id AND <still claimable>`: on SQLite writers are serialized, on
PostgreSQL the UPDATE re-checks its WHERE after any concurrent writer, and candidates are picked
with SKIP LOCKED), which gives it a lease: an owner, a fresh token and an expiry. Every write the
worker makes afterwards (a test result, a renewal, the final result) is fenced by that token, so
a worker whose lease was lost (it stalled, or an instructor asked for a rejudge) can no longer
change the row. A lease that expires makes the submission claimable again: a worker that died
mid-judging gets its submission judged again, and after `max_attempts` claims it is closed with
verdict IE instead of being judged a third time. Queued submissions simply wait in the table, so
a restarted server picks them up.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, delete, insert, or_, select, update

from server.db import Database
from server.models import Submission, TestResultRow, TimingCase, utcnow

GAVE_UP = ("the judge stopped {n} times while judging this submission (a worker died or lost its lease); "
           "it was not judged again")


@dataclass(frozen=True)
class Lease:
    submission_id: int
    owner: str
    token: str
    attempt: int


@dataclass(frozen=True)
class ClaimedSubmission:
    """What a worker needs to judge a claimed submission."""
    lease: Lease
    problem_id: int
    mode: str
    source: str
    filename: str
    user_id: int


class LeaseStore:
    def __init__(self, db: Database, lease_s: float = 60.0, max_attempts: int = 2):
        self.db = db
        self.lease_s = lease_s
        self.max_attempts = max_attempts

    def _claimable(self, now):
        return or_(Submission.status == "queued",
                   and_(Submission.status == "judging", Submission.lease_expires < now))

    def _fence(self, lease: Lease):
        return and_(Submission.id == lease.submission_id, Submission.lease_token == lease.token,
                    Submission.status == "judging")

    def claim(self, owner: str, batch: int = 8, submission_id: int | None = None) -> ClaimedSubmission | None:
        """Claim the oldest claimable submission for `owner` (or only `submission_id`); None when there is none."""
        with self.db.write() as s:
            s.connection()      # begin now: on SQLite this takes the write lock, so `now` follows every commit before
            now = utcnow()
            query = (select(Submission.id, Submission.status, Submission.attempts).where(self._claimable(now))
                     .order_by(Submission.id).limit(batch))
            if submission_id is not None:
                query = query.where(Submission.id == submission_id)
            if not self.db.is_sqlite:
                query = query.with_for_update(skip_locked=True)
            for sid, status, attempts in s.execute(query).all():
                if status == "judging" and attempts >= self.max_attempts:
                    s.execute(update(Submission).where(Submission.id == sid, Submission.status == "judging",
                                                       Submission.lease_expires < now)
                              .values(status="done", verdict="IE", message=GAVE_UP.format(n=attempts),
                                      finished_at=now, lease_owner=None, lease_token=None, lease_expires=None,
                                      result=None))
                    continue
                token = secrets.token_hex(16)
                claimed = s.execute(update(Submission).where(Submission.id == sid, self._claimable(now))
                                    .values(status="judging", lease_owner=owner, lease_token=token,
                                            lease_expires=now + timedelta(seconds=self.lease_s),
                                            attempts=Submission.attempts + 1, started_at=now,
                                            compile_info=None, result=None, verdict=None, message=None,
                                            progress=None)
                                    .execution_options(synchronize_session=False))
                if claimed.rowcount != 1:
                    continue
                # a previous attempt's partial results go: the events stream starts this attempt afresh
                s.execute(delete(TestResultRow).where(TestResultRow.submission_id == sid))
                s.execute(delete(TimingCase).where(TimingCase.submission_id == sid))
                row = s.execute(select(Submission.attempts, Submission.problem_id, Submission.mode, Submission.source,
                                       Submission.filename, Submission.user_id).where(Submission.id == sid)).one()
                return ClaimedSubmission(Lease(sid, owner, token, row.attempts), row.problem_id, row.mode, row.source,
                                         row.filename, row.user_id)
        return None

    def renew(self, lease: Lease) -> bool:
        """Push the expiry forward; False when the lease is lost (the worker must stop writing)."""
        with self.db.write() as s:
            return s.execute(update(Submission).where(self._fence(lease))
                             .values(lease_expires=utcnow() + timedelta(seconds=self.lease_s))
                             .execution_options(synchronize_session=False)).rowcount == 1

    def record_compile(self, lease: Lease, compile_info: dict) -> bool:
        with self.db.write() as s:
            return s.execute(update(Submission).where(self._fence(lease))
                             .values(compile_info=compile_info,
                                     lease_expires=utcnow() + timedelta(seconds=self.lease_s))
                             .execution_options(synchronize_session=False)).rowcount == 1

    def record_progress(self, lease: Lease, progress: dict) -> bool:
        """Store what the judge is doing now (the events stream shows it) and renew the lease."""
        with self.db.write() as s:
            return s.execute(update(Submission).where(self._fence(lease))
                             .values(progress=progress, lease_expires=utcnow() + timedelta(seconds=self.lease_s))
                             .execution_options(synchronize_session=False)).rowcount == 1

    def record_test(self, lease: Lease, idx: int, result: dict) -> bool:
        """Store one finished test (and renew the lease) if the lease is still held."""
        with self.db.write() as s:
            held = s.execute(update(Submission).where(self._fence(lease))
                             .values(lease_expires=utcnow() + timedelta(seconds=self.lease_s))
                             .execution_options(synchronize_session=False)).rowcount == 1
            if held:
                s.execute(insert(TestResultRow).values(
                    submission_id=lease.submission_id, idx=idx, name=str(result.get("name", ""))[:300],
                    verdict=str(result.get("verdict", "IE")), message=str(result.get("message") or ""),
                    time_ms=result.get("time_ms"), data=result, created_at=utcnow()))
            return held

    def complete(self, lease: Lease, result: dict) -> bool:
        """Store the final Result (tests and timing as rows too); False when the lease was lost."""
        now = utcnow()
        timing = result.get("timing") or None
        with self.db.write() as s:
            done = s.execute(update(Submission).where(self._fence(lease)).values(
                status="done", verdict=result.get("verdict"), message=result.get("message", ""),
                backend=result.get("backend"), device=result.get("device"),
                median_us=timing["median_us"] if timing else None, compile_info=result.get("compile"),
                result=result, progress=None, finished_at=now, lease_owner=None, lease_token=None,
                lease_expires=None)
                .execution_options(synchronize_session=False)).rowcount == 1
            if not done:
                return False
            # the result is the truth: per-test rows mirror its tests exactly
            s.execute(delete(TestResultRow).where(TestResultRow.submission_id == lease.submission_id))
            tests = result.get("tests") or []
            if tests:
                s.execute(insert(TestResultRow), [
                    {"submission_id": lease.submission_id, "idx": i, "name": str(t.get("name", ""))[:300],
                     "verdict": str(t.get("verdict", "IE")), "message": str(t.get("message") or ""),
                     "time_ms": t.get("time_ms"), "data": t, "created_at": now} for i, t in enumerate(tests)])
            cases = (timing or {}).get("per_case") or []
            if cases:
                s.execute(insert(TimingCase), [
                    {"submission_id": lease.submission_id, "idx": i, "size": c["size"],
                     "distribution": c["distribution"], "samples": c["samples"], "median_us": c["median_us"],
                     "min_us": c["min_us"], "iqr_us": c["iqr_us"], "noisy": c["noisy"], "gbps": c.get("gbps"),
                     "sol_pct": c.get("sol_pct"), "baseline_us": c.get("baseline_us"),
                     "ratio_to_baseline": c.get("ratio_to_baseline")} for i, c in enumerate(cases)])
            return True

    def fail(self, lease: Lease, message: str) -> bool:
        """The judge raised: queue it again while attempts remain, else close it as IE."""
        now = utcnow()
        with self.db.write() as s:
            row = s.execute(select(Submission.attempts).where(self._fence(lease))).first()
            if row is None:
                return False
            if row.attempts < self.max_attempts:
                values = dict(status="queued", lease_owner=None, lease_token=None, lease_expires=None)
            else:
                values = dict(status="done", verdict="IE", message=f"the judge failed: {message}"[:2000],
                              finished_at=now, lease_owner=None, lease_token=None, lease_expires=None)
            return s.execute(update(Submission).where(self._fence(lease)).values(**values)
                             .execution_options(synchronize_session=False)).rowcount == 1

    def release(self, lease: Lease) -> bool:
        """Give a claimed submission back unjudged (a worker shutting down): queued again, attempt not counted."""
        with self.db.write() as s:
            return s.execute(update(Submission).where(self._fence(lease)).values(
                status="queued", lease_owner=None, lease_token=None, lease_expires=None,
                attempts=Submission.attempts - 1).execution_options(synchronize_session=False)).rowcount == 1

    def requeue(self, submission_ids: list[int] | None = None, problem_id: int | None = None) -> list[int]:
        """Rejudge: queue finished (or running) submissions again from scratch; a running worker's lease is
        revoked. Returns the ids queued."""
        with self.db.write() as s:
            query = select(Submission.id)
            if submission_ids is not None:
                query = query.where(Submission.id.in_(submission_ids))
            if problem_id is not None:
                query = query.where(Submission.problem_id == problem_id)
            ids = list(s.scalars(query.order_by(Submission.id)))
            if not ids:
                return []
            s.execute(update(Submission).where(Submission.id.in_(ids)).values(
                status="queued", attempts=0, verdict=None, message=None, result=None, compile_info=None,
                median_us=None, device=None, backend=None, started_at=None, finished_at=None, lease_owner=None,
                lease_token=None, lease_expires=None).execution_options(synchronize_session=False))
            s.execute(delete(TestResultRow).where(TestResultRow.submission_id.in_(ids)))
            s.execute(delete(TimingCase).where(TimingCase.submission_id.in_(ids)))
            return ids
