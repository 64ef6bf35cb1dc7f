"""Scale-out judging: a server with `--dispatch queue` and real `cudajudge worker` processes on loopback.

Every test runs its own throwaway PostgreSQL cluster (the binaries `.ci/run` uses), so it can be
restarted mid-run. Judging is real (CPU backend, problem 1 in mode `run`: two tiny sample tests;
one source, so the build cache makes every build after the first cheap).
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select, update

from judge.compilation.cpu_build import build_cpu
from server.db import Database, scratch_database
from server.dispatch.judging import load_problem
from server.dispatch.lease import LeaseStore
from server.models import ProblemRow, Submission, TestResultRow, User, WorkerRow, utcnow
from server_helpers import NO_PG, PASSWORD, PG_URL, RELU, RELU_OK, REPO, expire_lease, make_settings, wait_for_status

pytestmark = [pytest.mark.skipif(not PG_URL, reason=NO_PG), pytest.mark.timeout(300)]

WORKER_ENV = {"CUDAJUDGE_LEASE_S": "3", "CUDAJUDGE_SWEEP_S": "1", "CUDAJUDGE_HEARTBEAT_S": "1",
              "CUDAJUDGE_POLL_S": "0.5"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """A PostgreSQL cluster of its own (initdb in a temporary folder, loopback, a free port) that a test
    may restart. As root (CI) the server runs as the `postgres` user, as `.ci/run` does."""

    def __init__(self, root: Path):
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: float(p.parent.name))
        self.bin = versions[-1]
        self.root = root
        self.data = root / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(root, "postgres")
        self._run(["initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync"])
        self.start()

    def _run(self, args: list[str]) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            command = ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(command)]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run(["pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-o", options, "start"])

    def stop(self, mode: str = "fast") -> None:
        self._run(["pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop"])

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        url, _ = scratch_database(self.url(), "cj_scale")   # dropped with the cluster
        return url


@pytest.fixture
def cluster():
    # not under pytest's temporary folder: the postgres user (as root) must be able to reach it, as in .ci/run
    root = Path(tempfile.mkdtemp(prefix="cudajudge-pg-test."))
    try:
        c = Cluster(root)
        yield c
        try:
            c.stop("immediate")
        except subprocess.CalledProcessError:
            pass
    finally:
        shutil.rmtree(root, ignore_errors=True)


class Workers:
    """Real `cudajudge worker` processes, each in its own process group (killing one kills its judge children)."""

    def __init__(self, database_url: str, root: Path):
        self.database_url, self.root = database_url, root
        self.procs: list[subprocess.Popen] = []

    def start(self, n: int = 1, concurrency: int = 1, **env: str) -> list[subprocess.Popen]:
        started = []
        for _ in range(n):
            i = len(self.procs)
            log = open(self.root / f"worker{i}.log", "wb")
            proc = subprocess.Popen([sys.executable, "-m", "cudajudge", "worker", "--database-url", self.database_url,
                                     "--backend", "cpu", "--concurrency", str(concurrency),
                                     "--data-dir", str(self.root / f"worker{i}")],
                                    env={**os.environ, **WORKER_ENV, **env}, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True, cwd=str(REPO))
            log.close()
            self.procs.append(proc)
            started.append(proc)
        return started

    def by_owner(self, owner: str) -> subprocess.Popen:
        pid = int(owner.split(":")[1])
        return next(p for p in self.procs if p.pid == pid)

    def logs(self) -> str:
        return "\n".join((self.root / f"worker{i}.log").read_text(errors="replace")[-3000:] for i in range(len(self.procs)))

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)


@pytest.fixture
def scale(tmp_path, cluster, catalog, live_server):
    """(server, client with alice's token, Workers, Database) on a fresh database of the test's own cluster.
    The source's builds (plain and observed) are made first, in the cache the workers share: the tests
    are about delivery, not about a cold runtime build on a 2-core machine."""
    for observed in (False, True):
        info = build_cpu(RELU_OK, observed=observed).compile
        assert info.ok, info.log
    url = cluster.new_database()
    server = live_server(make_settings(tmp_path / "data", url, catalog, dispatch="queue", lease_s=3.0))
    client = httpx.Client(base_url=server.url, timeout=30)
    client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
    token = client.post("/api/auth/login", json={"username": "alice", "password": PASSWORD}).json()["token"]
    client.headers["Authorization"] = f"Bearer {token}"
    workers = Workers(url, tmp_path)
    db = Database(server.app.state.cj.settings.url)
    yield server, client, workers, db
    workers.stop_all()
    client.close()
    db.dispose()


def _submit(client: httpx.Client, n: int, mode: str = "run", **extra) -> list[int]:
    ids = []
    for _ in range(n):
        r = client.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": mode, **extra})
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    return ids


def _wait_done(db: Database, ids: list[int], timeout: float, workers: Workers) -> list[Submission]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with db.read() as s:
            rows = s.scalars(select(Submission).where(Submission.id.in_(ids)).order_by(Submission.id)).all()
        if len(rows) == len(ids) and all(r.status == "done" for r in rows):
            return rows
        time.sleep(0.5)
    states = {r.id: (r.status, r.attempts) for r in rows if r.status != "done"}
    raise AssertionError(f"not done in {timeout} s: {states}\n{workers.logs()}")


def _recorded_once(db: Database, ids: list[int]) -> None:
    """Each submission's stored tests are exactly its Result's tests: one recording, no duplicates."""
    with db.read() as s:
        counts = dict(s.execute(select(TestResultRow.submission_id, func.count()).where(TestResultRow.submission_id.in_(ids))
                                .group_by(TestResultRow.submission_id)).all())
        results = dict(s.execute(select(Submission.id, Submission.result).where(Submission.id.in_(ids))).all())
    for sid in ids:
        assert counts.get(sid) == len(results[sid]["tests"]), f"submission {sid}: {counts.get(sid)} test rows"


def _wait_queue_empty(client: httpx.Client, timeout: float = 60) -> None:
    """Until no job of the generic queue is waiting or running."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if 'cudajudge_queue_jobs{queue="judge",' not in client.get("/api/metrics").text:
            return
        time.sleep(0.2)
    raise AssertionError(f"the queue did not drain in {timeout} s")


def _events(client: httpx.Client, sid: int) -> list[tuple[str, dict]]:
    events, kind = [], None
    with client.stream("GET", f"/api/submissions/{sid}/events") as r:
        for line in r.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                events.append((kind, json.loads(line[6:])))
                if kind == "done":
                    break
    return events


def _worker_counts(db: Database, total: int, timeout_s: float = 10.0) -> list:
    """Each worker's own count of what it judged, once they add up to `total` or `timeout_s` has passed: a
    worker reports its count after it has recorded the submission's result, in a transaction of its own."""
    ends = time.monotonic() + timeout_s
    while True:
        with db.read() as s:
            judged = s.execute(select(WorkerRow.name, WorkerRow.judged)).all()
        if sum(n for _, n in judged) >= total or time.monotonic() > ends:
            return judged
        time.sleep(0.1)


def test_three_workers_judge_300_submissions_exactly_once(scale):
    """300 submissions, 3 worker processes: every one judged once (one claim, one recorded result, and
    the workers' own counts add up to 300); events stream from a remote worker; a submission for a
    GPU model no worker has stays queued in its model's queue."""
    server, client, workers, db = scale
    workers.start(3)
    ids = _submit(client, 300)
    [waiting] = _submit(client, 1, gpu="NVIDIA H100 80GB HBM3")
    events = _events(client, ids[-1])
    rows = _wait_done(db, ids, 240, workers)
    assert [(r.verdict, r.attempts) for r in rows] == [("AC", 1)] * 300
    _recorded_once(db, ids)
    kinds = [k for k, _ in events]
    assert kinds[-1] == "done" and events[-1][1]["verdict"] == "AC" and kinds.count("test") == 2
    assert "compile" in kinds and "restart" not in kinds and ("status", {"status": "judging", "attempt": 1}) in events
    with db.read() as s:
        assert (s.get(Submission, waiting).status, s.get(Submission, waiting).gpu_model) == ("queued", "h100-80gb-hbm3")
    judged = _worker_counts(db, 300)
    assert len(judged) == 3 and sum(n for _, n in judged) == 300, judged
    assert sum(1 for _, n in judged if n > 0) >= 2, f"the work was not spread: {judged}"
    metrics = client.get("/api/metrics").text
    assert 'cudajudge_queue_jobs{queue="judge.h100-80gb-hbm3",status="todo"} 1' in metrics
    assert 'cudajudge_verdicts{verdict="AC"} 300' in metrics and "cudajudge_judging_runs 300" in metrics
    assert 'cudajudge_workers_up{backend="cpu",gpu_model="cpu"} 3' in metrics
    assert "cudajudge_judge_seconds_count 300" in metrics
    assert client.get("/api/health").json()["workers"] == 3

    # at-least-once: jobs delivered again for judged submissions change nothing
    assert server.app.state.cj.jobs.enqueue([(sid, None) for sid in ids[:10]]) == 10
    _wait_queue_empty(client)
    with db.read() as s:
        assert sum(s.scalars(select(WorkerRow.judged))) == 300
        assert set(s.scalars(select(Submission.attempts).where(Submission.id.in_(ids)))) == {1}
    # a rejudge asked twice judges the submission again, once
    with db.write() as s:
        s.execute(update(User).where(User.username == "alice").values(role="instructor"))
    assert [client.post(f"/api/submissions/{ids[0]}/rejudge").json() for _ in range(2)] == [{"queued": 1}] * 2
    [again] = _wait_done(db, ids[:1], 60, workers)
    _wait_queue_empty(client)
    assert (again.verdict, again.attempts) == ("AC", 1)
    _recorded_once(db, ids[:1])
    with db.read() as s:
        assert sum(s.scalars(select(WorkerRow.judged))) in (301, 302)   # 302: a worker had claimed it in between


def test_killed_worker_submission_judged_again_and_recorded_once(scale):
    """A worker is SIGKILLed (with its judge children) mid-judging: another worker judges that submission
    again once its lease expires; it is recorded once. SIGTERM then drains a worker: the submission it is
    judging is finished, the queued one is left to others."""
    server, client, workers, db = scale
    workers.start(3)
    [long] = _submit(client, 1, mode="submit")           # 66 tests run: seconds on the CPU backend
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with db.read() as s:
            owner = s.get(Submission, long).lease_owner
            tests = s.scalar(select(func.count()).select_from(TestResultRow).where(TestResultRow.submission_id == long))
        if owner and tests >= 3:
            break
        time.sleep(0.05)
    victim = workers.by_owner(owner)
    os.killpg(victim.pid, signal.SIGKILL)
    victim.wait(10)
    others = _submit(client, 4)
    rows = _wait_done(db, [long, *others], 120, workers)
    assert [(r.verdict, r.attempts) for r in rows] == [("AC", 2)] + [("AC", 1)] * 4
    # the 66 tests the CPU backend runs, and the 4 GPU-only ones listed as not run
    assert rows[0].lease_owner is None and len(rows[0].result["tests"]) == 70 and rows[0].result["partial"]
    _recorded_once(db, [long, *others])

    alive = [p for p in workers.procs if p.poll() is None]    # drain: one worker left, a long one queued behind
    for proc in alive[1:]:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    [draining] = alive[:1]
    [first, second] = _submit(client, 2, mode="submit")
    wait_for_status(db, first, "judging", timeout=60)
    draining.send_signal(signal.SIGTERM)
    assert draining.wait(120) == 0
    with db.read() as s:
        done, waiting = s.get(Submission, first), s.get(Submission, second)
        assert (done.status, done.verdict, done.attempts) == ("done", "AC", 1)
        assert (waiting.status, waiting.attempts) == ("queued", 0)


def test_database_restart_mid_run_loses_nothing(scale, cluster):
    """PostgreSQL is restarted while 3 workers judge 60 submissions: every one is judged and recorded once;
    a submission made while the database was down is judged too."""
    server, client, workers, db = scale
    workers.start(3, CUDAJUDGE_LEASE_S="15")               # longer than the outage: the workers keep their leases
    ids = _submit(client, 60)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with db.read() as s:
            done = s.scalar(select(func.count()).select_from(Submission).where(Submission.status == "done"))
        if done >= 10:
            break
        time.sleep(0.1)
    assert 10 <= done < 60
    cluster.stop("fast")                                  # every connection is cut
    time.sleep(2)
    cluster.start()
    ids += _submit(client, 5)
    rows = _wait_done(db, ids, 180, workers)
    assert all(r.verdict == "AC" for r in rows), [(r.id, r.verdict, r.message) for r in rows if r.verdict != "AC"]
    _recorded_once(db, ids)
    # judged again only where a claim's reply was cut off by the restart (its lease then expired)
    assert all(r.attempts <= 2 for r in rows) and sum(r.attempts for r in rows) <= len(rows) + 3, \
        [(r.id, r.attempts) for r in rows if r.attempts > 1]
    assert all(p.poll() is None for p in workers.procs), "a worker exited when the database went away"


# --- the pieces, without processes ---------------------------------------------------------------------------

def test_a_job_that_kills_its_worker_three_times_becomes_internal_error(cluster):
    """Queue delivery claims one submission by id; with the workers' max_attempts (3) the fourth delivery
    after three dead workers closes it as IE instead of judging it again."""
    db = Database(cluster.new_database().replace("postgresql://", "postgresql+psycopg://"))
    db.migrate()
    with db.write() as s:
        s.add(User(id=1, username="u", password_hash="x", role="student", disabled=False, created_at=utcnow()))
        s.add(ProblemRow(id=1, slug="relu", title_en="t", title_zh="t", difficulty="easy", tags=[], origin="catalog",
                         folder=str(RELU), available=True, has_samples=True, info={}, updated_at=utcnow()))
        s.flush()
        s.add(Submission(id=7, user_id=1, problem_id=1, mode="run", source="x", filename="solution.cu",
                         status="queued", attempts=0, created_at=utcnow()))
    store = LeaseStore(db, lease_s=60, max_attempts=3)
    for attempt in (1, 2, 3):
        assert store.claim(f"worker{attempt}", submission_id=7).lease.attempt == attempt
        assert store.claim("another", submission_id=7) is None       # held: a duplicate delivery does nothing
        expire_lease(db, 7)
    assert store.claim("worker4", submission_id=7) is None
    with db.read() as s:
        sub = s.get(Submission, 7)
        assert (sub.status, sub.verdict, sub.attempts) == ("done", "IE", 3) and "stopped 3 times" in sub.message
    db.dispose()


def test_a_worker_without_the_problem_folder_judges_the_stored_files(cluster, catalog, tmp_path):
    """A worker host that lacks the server's problem folder (or has another version of it) judges the
    files stored in the database, copied once into its cache."""
    from server.catalog import sync_problems

    url = cluster.new_database()
    settings = make_settings(tmp_path / "data", url, catalog)
    db = Database(settings.url)
    db.migrate()
    sync_problems(db, settings)
    with db.write() as s:
        s.execute(update(ProblemRow).where(ProblemRow.id == 1).values(folder=str(tmp_path / "elsewhere" / "001-relu")))
    store = LeaseStore(db)
    cache = tmp_path / "cache"
    problem = load_problem(store, 1, cache)
    assert problem.id == 1 and problem.folder.is_relative_to(cache)
    assert (problem.folder / "reference.py").read_text() == (RELU / "reference.py").read_text()
    assert load_problem(store, 1, cache).folder == problem.folder           # copied once
    local = load_problem(store, 2, cache)                                    # the folder is here: used as it is
    assert local.folder.is_relative_to(catalog)
    db.dispose()
