"""The FastAPI application: `create_app(settings)`.

Creating the app opens the database, applies the Alembic migrations and syncs the problem
folders in; starting it (the ASGI lifespan) starts the embedded dispatcher, stopping it stops
the dispatcher (the submissions being judged may finish for a while; queued ones wait in the
database for the next start). With dispatch "queue" (scale-out, PostgreSQL) there is no
dispatcher: each submission becomes a job for the `cudajudge worker`s (server/dispatch/queue.py).
"""
from __future__ import annotations

import asyncio
import logging
import threading
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from fastapi.responses import PlainTextResponse
from sqlalchemy import func, select

from judge import __version__
from server.api import account, admin, auth, drafts, problems, submissions
from server.api_docs import mount_api_docs
from server.catalog import sync_problems
from server.compression import CompressWeb
from server.config import Settings
from server.db import Database
from server.deps import AppState, state
from server.dispatch.dispatcher import Dispatcher, plan_workers
from server.dispatch.judging import JudgeFn, judge_with
from server.dispatch.lease import LeaseStore
from server.dispatch.queue import JobQueue
from server.limits import BodySizeLimit
from server.metrics import prometheus_text, recent_workers
from server.models import Submission
from server.schemas import Health
from server.security import Passwords
from server.spa import mount_web

log = logging.getLogger("cudajudge.server")


def _prepare_cpu_runtime() -> None:
    from judge.compilation.cpu_runtime import CpuRuntimeBuildError, prepare_runtime

    try:
        log.info("the CPU backend's runtime is ready (%.1f s)", prepare_runtime())
    except CpuRuntimeBuildError as exc:
        log.error("the CPU backend's runtime does not build; every CPU judge will say why: %s", exc)


def create_app(settings: Settings | None = None, *, judge: JudgeFn | None = None,
               stop_timeout_s: float = 30.0) -> FastAPI:
    settings = settings or Settings.from_env()
    _check_dispatch(settings)
    st = _open_state(settings)
    app = FastAPI(title="cudajudge", version=__version__, lifespan=_lifespan(st, judge, stop_timeout_s),
                  docs_url=None, redoc_url=None,
                  description="A practice judge for CUDA kernels: problems, submissions, results, leaderboards.")
    app.state.cj = st
    app.add_middleware(BodySizeLimit, settings=settings)
    app.add_middleware(CompressWeb)
    for module in (auth, account, problems, submissions, drafts, admin):
        app.include_router(module.router)
    mount_api_docs(app)
    _add_health_routes(app)
    mount_web(app)   # last: it answers every path the API does not
    return app


def _check_dispatch(settings: Settings) -> None:
    if settings.dispatch not in ("embedded", "queue"):
        raise ValueError(f"unknown dispatch {settings.dispatch!r}: choose embedded or queue")
    if settings.dispatch == "queue" and not settings.url.startswith("postgresql"):
        raise ValueError("--dispatch queue needs PostgreSQL (--database-url postgresql://...): the job queue lives there")


def _open_state(settings: Settings) -> AppState:
    """The database opened, migrated and synced with the problem folders; the judging backend planned."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = Database(settings.url)
    db.migrate()
    report = sync_problems(db, settings)
    log.info("problems synced: %d available, %d broken", len(report.synced), len(report.broken))
    if settings.dispatch == "queue":
        backend, workers = "queue", 0
    else:
        backend, workers = plan_workers(settings.backend, settings.workers)
    return AppState(settings=settings, db=db, passwords=Passwords(settings),
                    store=LeaseStore(db, settings.lease_s, settings.max_attempts), backend=backend,
                    workers=workers if settings.dispatcher else 0)


def _lifespan(st: AppState, judge: JudgeFn | None, stop_timeout_s: float):
    """The ASGI lifespan: the job queue or the embedded dispatcher runs while the app does."""
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await _start_dispatch(st, judge)
        try:
            yield
        finally:
            st.shutting_down = True
            await _stop_dispatch(st, stop_timeout_s)
    return lifespan


async def _start_dispatch(st: AppState, judge: JudgeFn | None) -> None:
    settings = st.settings
    if settings.dispatch == "queue":
        st.jobs = JobQueue(settings.url)
        await asyncio.to_thread(st.jobs.open)
    elif settings.dispatcher:
        judge_fn = judge or judge_with(st.backend, hidden=(settings.data_dir.resolve(),))
        st.dispatcher = Dispatcher(st.db, st.store, judge_fn, workers=st.workers, poll_s=settings.poll_s,
                                   backend=st.backend)
        if st.backend == "cpu" and judge is None:   # built now, not in the first learner's wait
            threading.Thread(target=_prepare_cpu_runtime, name="cpu-runtime", daemon=True).start()
        st.dispatcher.start()


async def _stop_dispatch(st: AppState, stop_timeout_s: float) -> None:
    if st.dispatcher is not None:
        if not await asyncio.to_thread(st.dispatcher.stop, stop_timeout_s):
            log.warning("stopping with submissions %s still being judged: they will be judged again",
                        st.dispatcher.busy)
    if st.jobs is not None:
        await asyncio.to_thread(st.jobs.close)


def _add_health_routes(app: FastAPI) -> None:
    @app.get("/api/health", response_model=Health, tags=["health"])
    def health(st: AppState = Depends(state)) -> Health:
        with st.db.read() as s:
            counts = dict(s.execute(select(Submission.status, func.count()).group_by(Submission.status)).all())
        workers = len(recent_workers(st.db)) if st.jobs is not None else st.workers
        return Health(status="ok", version=__version__, backend=st.backend, workers=workers,
                      queued=counts.get("queued", 0), judging=counts.get("judging", 0))

    @app.get("/api/metrics", response_class=PlainTextResponse, tags=["health"],
             responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format"}})
    def metrics(st: AppState = Depends(state)) -> PlainTextResponse:
        """Queue depth, judge and wait times, verdict counts, workers seen recently (Prometheus text format)."""
        return PlainTextResponse(prometheus_text(st.db), media_type="text/plain; version=0.0.4; charset=utf-8")
