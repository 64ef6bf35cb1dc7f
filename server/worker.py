"""`cudajudge worker`: judging processes on any host, fed by the job queue (server/dispatch/queue.py).

With the GPU backend: one judging process per GPU, each pinned to its GPU (the run child sees only
that GPU's device node and `CUDA_VISIBLE_DEVICES=<its UUID>`) and taking jobs of the generic queue
and of its GPU model's queue. With the CPU backend: one process judging `--concurrency` submissions
at a time. Each process claims and records through the same `judge_one` as the embedded dispatcher.

SIGTERM (or Ctrl-C) drains: the submissions being judged are finished and recorded, no new job
is taken. A process that loses the database keeps judging what it holds (its writes wait for the
database), then reconnects; the sweep (see queue.py) re-defers whatever lost its job meanwhile.
"""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from sqlalchemy import update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from sandbox.gpus import Gpu, list_gpus
from server.config import default_data_dir, normalize_database_url
from server.db import Database
from server.dispatch.judging import judge_one, judge_with
from server.dispatch.lease import LeaseStore
from server.dispatch.queue import CPU_MODEL, JUDGE_TASK, make_app, sweep, worker_queues
from server.models import WorkerRow, utcnow

log = logging.getLogger("cudajudge.worker")
RESTART_PAUSE_S = (1.0, 30.0)     # after losing the database: first pause, longest pause


@dataclass(frozen=True)
class WorkerOptions:
    database_url: str
    backend: str = "auto"                       # auto | gpu | cpu
    gpus: tuple[int, ...] | None = None         # nvidia-smi indexes; default: every GPU of the host
    concurrency: int = 1                        # CPU backend: submissions judged at once
    data_dir: Path = field(default_factory=default_data_dir)   # problem copies; hidden from run children
    lease_s: float = 60.0
    max_attempts: int = 3                       # a submission whose worker died 3 times is closed as IE
    heartbeat_s: float = 10.0                   # the queue's worker heartbeat; stalled after 3 missed
    sweep_s: float = 10.0                       # how often this process sweeps (see queue.sweep)
    poll_s: float = 5.0                         # job polling besides LISTEN/NOTIFY

    @classmethod
    def from_env(cls, **overrides) -> "WorkerOptions":
        env = os.environ
        values: dict = {}
        for name, key, kind in (("lease_s", "CUDAJUDGE_LEASE_S", float), ("max_attempts", "CUDAJUDGE_MAX_ATTEMPTS", int),
                                ("heartbeat_s", "CUDAJUDGE_HEARTBEAT_S", float), ("sweep_s", "CUDAJUDGE_SWEEP_S", float),
                                ("poll_s", "CUDAJUDGE_POLL_S", float)):
            if env.get(key):
                values[name] = kind(env[key])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    @property
    def url(self) -> str:
        return normalize_database_url(self.database_url)


class JudgingProcess:
    """One judging process: a procrastinate worker on this process's queues, plus the sweep."""

    def __init__(self, options: WorkerOptions, backend: str, device: Gpu | None):
        self.options, self.backend, self.device = options, backend, device
        self.model = device.model if device is not None else CPU_MODEL
        self.queues = worker_queues(device.model if device is not None else None)
        self.host = socket.gethostname()
        self.name = f"{self.host}:{os.getpid()}:" + (f"gpu{device.index}" if device is not None else "cpu")
        self.db = Database(options.url)
        self.store = LeaseStore(self.db, options.lease_s, options.max_attempts)
        options.data_dir.mkdir(parents=True, exist_ok=True)
        self.problem_cache = options.data_dir / "worker-problems"
        self.judge = judge_with(backend, hidden=(options.data_dir.resolve(),), device=device)
        self.stopping = asyncio.Event()
        self.judged = 0

    # --- one job -------------------------------------------------------------------------------

    def judge_submission(self, submission_id: int) -> None:
        """What a delivered job does (in a thread): claim, judge and record that submission, if still claimable."""
        run = judge_one(self.store, self.judge, self.name, submission_id=submission_id,
                        problem_cache=self.problem_cache, on_claim=lambda sid: self._report(current=sid))
        if run is None:
            log.info("submission %d: nothing to do (done, or another worker holds it)", submission_id)
            return
        self.judged += 1
        self._report(current=None)
        log.info("submission %d attempt %d: %s in %.1f s%s", run.submission_id, run.attempt, run.verdict or "-",
                 run.seconds, "" if run.recorded else " (not recorded: the lease was lost)")

    def _report(self, **changes) -> None:
        """This process as monitoring sees it (GET /api/metrics); a failure here never stops judging."""
        values = dict(host=self.host, backend=self.backend, gpu_model=self.model, queues=self.queues,
                      last_seen=utcnow(), judged=self.judged, **changes)
        try:
            with self.db.write() as s:
                s.execute(pg_insert(WorkerRow).values(name=self.name, started_at=utcnow(), **values)
                          .on_conflict_do_update(index_elements=[WorkerRow.name], set_=values))
        except Exception as exc:
            log.warning("reporting this worker failed: %s", exc)

    def _forget(self) -> None:
        try:
            with self.db.write() as s:
                s.execute(update(WorkerRow).where(WorkerRow.name == self.name).values(current=None, last_seen=utcnow()))
        except Exception as exc:
            log.warning("reporting this worker's stop failed: %s", exc)

    # --- the process ----------------------------------------------------------------------------

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        running: list[asyncio.Task] = []

        def drain() -> None:
            if self.stopping.is_set():
                return
            log.info("%s: stopping: finishing the submissions being judged, taking no new job", self.name)
            self.stopping.set()
            for task in running:
                task.cancel()     # a cancelled procrastinate worker stops fetching and waits for its jobs

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, drain)
        pause = RESTART_PAUSE_S[0]
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                await self._serve(running)
            except asyncio.CancelledError:
                break
            except Exception as exc:
                log.error("%s: the queue failed (%s: %s); reconnecting in %.0f s", self.name, type(exc).__name__,
                          exc, pause)
            if self.stopping.is_set():
                break
            pause = RESTART_PAUSE_S[0] if time.monotonic() - started > RESTART_PAUSE_S[1] else \
                min(pause * 2, RESTART_PAUSE_S[1])
            try:
                await asyncio.wait_for(self.stopping.wait(), pause)
            except asyncio.TimeoutError:
                pass
        await asyncio.to_thread(self._forget)
        self.db.dispose()
        log.info("%s: stopped after judging %d submission(s)", self.name, self.judged)

    async def _serve(self, running: list[asyncio.Task]) -> None:
        o = self.options
        app = make_app(o.url, asynchronous=True, pool_size=self.concurrency + 4)

        @app.task(name=JUDGE_TASK)
        async def judge_submission(submission_id: int) -> None:
            await asyncio.to_thread(self.judge_submission, submission_id)

        async with app.open_async():
            await asyncio.to_thread(self._report, current=None)
            log.info("%s: judging on %s, queues %s", self.name, self.device.name if self.device else "the CPU backend",
                     ", ".join(self.queues))
            worker = asyncio.create_task(app.run_worker_async(
                queues=self.queues, name=self.name, concurrency=self.concurrency, install_signal_handlers=False,
                delete_jobs="successful", update_heartbeat_interval=o.heartbeat_s,
                stalled_worker_timeout=3 * o.heartbeat_s, fetch_job_polling_interval=o.poll_s))
            sweeper = asyncio.create_task(self._sweep(app))
            running[:] = [worker, sweeper]
            try:
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in running:
                    task.cancel()
                results = await asyncio.gather(*running, return_exceptions=True)
                running.clear()
            for result in results:
                if isinstance(result, Exception):
                    raise result

    @property
    def concurrency(self) -> int:
        return 1 if self.device is not None else self.options.concurrency

    async def _sweep(self, app) -> None:
        o = self.options
        while True:
            await asyncio.sleep(o.sweep_s)
            try:
                retried, deferred = await sweep(app, self.db, grace_s=o.sweep_s, stalled_s=3 * o.heartbeat_s)
            except Exception as exc:       # the database is away: the next sweep tries again
                log.warning("%s: sweep failed: %s", self.name, exc)
                continue
            if retried or deferred:
                log.info("%s: sweep: %d stalled job(s) handed back, %d job(s) deferred again", self.name, retried,
                         deferred)
            await asyncio.to_thread(self._report)


def _pin(device: Gpu) -> None:
    """This process works on `device` only: what it asks of the GPU (the build's arch) is about that GPU."""
    os.environ["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"     # CUDA's order is then nvidia-smi's
    os.environ["CUDA_VISIBLE_DEVICES"] = str(device.index)


def _supervise(options: WorkerOptions, devices: list[Gpu]) -> int:
    """One judging process per GPU; SIGTERM is passed on (each drains); a process that dies is started again."""
    # the database URL goes through the environment: a password in a command line is visible to every user
    env = {**os.environ, "CUDAJUDGE_DATABASE_URL": options.database_url}

    def start(device: Gpu) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "server.worker", str(device.index), str(options.data_dir)], env=env)

    children = {device.index: start(device) for device in devices}
    stopping = False

    def stop(signum, _frame) -> None:
        nonlocal stopping
        stopping = True
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while True:
        for device in devices:
            child = children[device.index]
            if child.poll() is not None and not stopping:
                log.error("the judging process of GPU %d ended with %s; starting it again", device.index,
                          child.returncode)
                time.sleep(RESTART_PAUSE_S[0])
                children[device.index] = start(device)
        if stopping and all(child.poll() is not None for child in children.values()):
            return max(child.returncode for child in children.values())
        time.sleep(0.5)


def configure_logging(level: str) -> None:
    """The worker's log on stderr at `level` (debug, info, warning or error); procrastinate's own lines from
    warnings on, or all of them at debug."""
    logging.basicConfig(level=getattr(logging, level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("procrastinate").setLevel(logging.DEBUG if level == "debug" else logging.WARNING)


def run(options: WorkerOptions) -> int:
    """Run the judging process(es) of this host until SIGTERM; raises ValueError for a wrong setup."""
    from judge.backends.choice import resolve_backend
    from server.isolation import require_isolation

    require_isolation("cudajudge worker")
    if not options.url.startswith("postgresql"):
        raise ValueError("cudajudge worker needs the server's PostgreSQL database: --database-url postgresql://...")
    backend = resolve_backend(options.backend)
    if backend == "cpu":
        asyncio.run(JudgingProcess(replace(options, gpus=None), "cpu", None).run())
        return 0
    found = list_gpus()
    devices = [g for g in found if options.gpus is None or g.index in options.gpus]
    missing = sorted(set(options.gpus or ()) - {g.index for g in found})
    if missing or not devices:
        raise ValueError(f"no GPU {', '.join(map(str, missing))} on this host: nvidia-smi lists "
                         f"{', '.join(f'{g.index} ({g.name})' for g in found) or 'none'}")
    if len(devices) > 1:
        return _supervise(options, devices)
    _pin(devices[0])
    asyncio.run(JudgingProcess(options, "gpu", devices[0]).run())
    return 0


def _gpu_process(argv: list[str]) -> int:
    """`python -m server.worker GPU DATA_DIR`: the judging process of one GPU, as _supervise starts it (the
    database URL and the CUDAJUDGE_* settings come through the environment)."""
    gpu, data_dir = argv
    configure_logging("info")
    options = WorkerOptions.from_env(database_url=os.environ["CUDAJUDGE_DATABASE_URL"], backend="gpu",
                                     gpus=(int(gpu),), data_dir=Path(data_dir))
    try:
        return run(options)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(_gpu_process(sys.argv[1:]))
