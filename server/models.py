"""The database: users, their credentials, problems, submissions, per-test results, timing, workers.

Timestamps are naive UTC (the same on SQLite and PostgreSQL). The migration in
server/migrations/versions creates exactly these tables; a test compares the two.
"""
from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default="student")
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Credential(Base):
    """A bearer API token (kind 'token') or a browser session (kind 'session', with its CSRF token).

    Only the SHA-256 of the secret is stored."""
    __tablename__ = "credentials"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    csrf_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str | None] = mapped_column(String(100), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime)


class ProblemRow(Base):
    """A problem the server knows: from the catalog folder or uploaded by an instructor.

    `info` is the public view (statement, signature, tests, tolerance; never hidden data)."""
    __tablename__ = "problems"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    slug: Mapped[str] = mapped_column(String(100), unique=True)
    title_en: Mapped[str] = mapped_column(String(200))
    title_zh: Mapped[str] = mapped_column(String(200))
    difficulty: Mapped[str] = mapped_column(String(16))
    tags: Mapped[list] = mapped_column(JSON, default=list)
    origin: Mapped[str] = mapped_column(String(16))            # catalog | uploaded
    folder: Mapped[str] = mapped_column(Text)
    available: Mapped[bool] = mapped_column(Boolean, default=True)
    has_samples: Mapped[bool] = mapped_column(Boolean, default=True)
    info: Mapped[dict] = mapped_column(JSON)
    uploaded_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # what judging needs of the folder (problem.toml, reference.py), for workers on hosts without the folder
    judge_files: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    files_digest: Mapped[str | None] = mapped_column(String(64), nullable=True)


class Submission(Base):
    __tablename__ = "submissions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    problem_id: Mapped[int] = mapped_column(ForeignKey("problems.id"), index=True)
    mode: Mapped[str] = mapped_column(String(8))
    source: Mapped[str] = mapped_column(Text)
    filename: Mapped[str] = mapped_column(String(100), default="solution.cu")
    gpu_model: Mapped[str | None] = mapped_column(String(64), nullable=True)   # asked for; None: any worker
    status: Mapped[str] = mapped_column(String(16), default="queued")
    verdict: Mapped[str | None] = mapped_column(String(8), nullable=True)
    message: Mapped[str | None] = mapped_column(Text, nullable=True)
    backend: Mapped[str | None] = mapped_column(String(16), nullable=True)
    device: Mapped[str | None] = mapped_column(String(200), nullable=True)
    median_us: Mapped[float | None] = mapped_column(Float, nullable=True)    # the headline timing, for the leaderboard
    compile_info: Mapped[dict | None] = mapped_column(JSON, nullable=True)   # stored when the build is done
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)         # the Result, when done
    progress: Mapped[dict | None] = mapped_column(JSON, nullable=True)       # while judging: phase, test, since
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # the lease (see server/dispatch/lease.py)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(100), nullable=True)
    lease_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_expires: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    tests: Mapped[list["TestResultRow"]] = relationship(back_populates="submission", cascade="all, delete-orphan",
                                                        order_by="TestResultRow.idx", passive_deletes=True)
    timing_cases: Mapped[list["TimingCase"]] = relationship(cascade="all, delete-orphan", order_by="TimingCase.idx",
                                                            passive_deletes=True)

    __table_args__ = (
        Index("ix_submissions_status_lease", "status", "lease_expires"),
        Index("ix_submissions_problem_verdict", "problem_id", "mode", "verdict"),
    )


class TestResultRow(Base):
    """One test of one submission, written as soon as the test finishes (the events stream reads these)."""
    __tablename__ = "test_results"
    __test__ = False   # not a pytest class
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id", ondelete="CASCADE"))
    idx: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(300))
    verdict: Mapped[str] = mapped_column(String(8))
    message: Mapped[str] = mapped_column(Text, default="")
    time_ms: Mapped[float | None] = mapped_column(Float, nullable=True)
    data: Mapped[dict] = mapped_column(JSON)     # the TestResult
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    submission: Mapped[Submission] = relationship(back_populates="tests")

    __table_args__ = (UniqueConstraint("submission_id", "idx", name="uq_test_results_submission_idx"),)


class TimingCase(Base):
    """One benchmark case of an accepted submission judged on a GPU."""
    __tablename__ = "timing_cases"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id", ondelete="CASCADE"), index=True)
    idx: Mapped[int] = mapped_column(Integer)
    size: Mapped[dict] = mapped_column(JSON)
    distribution: Mapped[str] = mapped_column(String(100))
    samples: Mapped[int] = mapped_column(Integer)
    median_us: Mapped[float] = mapped_column(Float)
    min_us: Mapped[float] = mapped_column(Float)
    iqr_us: Mapped[float] = mapped_column(Float)
    noisy: Mapped[bool] = mapped_column(Boolean)
    gbps: Mapped[float | None] = mapped_column(Float, nullable=True)
    sol_pct: Mapped[float | None] = mapped_column(Float, nullable=True)
    baseline_us: Mapped[float | None] = mapped_column(Float, nullable=True)
    ratio_to_baseline: Mapped[float | None] = mapped_column(Float, nullable=True)


class Draft(Base):
    """A user's editor text for a problem, kept on the server so that it follows them between browsers."""
    __tablename__ = "drafts"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    problem_id: Mapped[int] = mapped_column(ForeignKey("problems.id", ondelete="CASCADE"), primary_key=True)
    source: Mapped[str] = mapped_column(Text)
    revision: Mapped[int] = mapped_column(Integer, default=1)     # +1 per save: a stale editor's save is refused
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class WorkerRow(Base):
    """A judging process of `cudajudge worker`, as it last reported itself (for monitoring only)."""
    __tablename__ = "judge_workers"
    name: Mapped[str] = mapped_column(String(100), primary_key=True)    # host:pid:gpuN or host:pid:cpu
    host: Mapped[str] = mapped_column(String(100))
    backend: Mapped[str] = mapped_column(String(8))
    gpu_model: Mapped[str | None] = mapped_column(String(64), nullable=True)
    queues: Mapped[list] = mapped_column(JSON, default=list)
    started_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    last_seen: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    judged: Mapped[int] = mapped_column(Integer, default=0)               # submissions this process judged
    current: Mapped[int | None] = mapped_column(Integer, nullable=True)   # the submission it is judging
