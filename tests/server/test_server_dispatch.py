"""Leases: atomic claims, fencing, a dead worker's submission judged again once, restarts with queued work."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from sqlalchemy import select

from judge.result import CompileInfo, Result, Verdict
from server.db import Database
from server.dispatch.dispatcher import Dispatcher
from server.dispatch.lease import LeaseStore
from server.models import ProblemRow, Submission, User, utcnow
from server_helpers import PASSWORD, RELU_OK, REPO, FakeJudge, expire_lease, make_settings, wait_for_status


def _db(database_url: str) -> Database:
    db = Database(database_url)
    db.migrate()
    with db.write() as s:
        s.add(User(id=1, username="u", password_hash="x", role="student", disabled=False, created_at=utcnow()))
        s.add(ProblemRow(id=1, slug="relu", title_en="t", title_zh="t", difficulty="easy", tags=[], origin="catalog",
                         folder=str(REPO / "problems" / "001-relu"), available=True, has_samples=True, info={},
                         updated_at=utcnow()))
    return db


def _queue(db: Database, n: int, source: str = "src") -> list[int]:
    with db.write() as s:
        rows = [Submission(user_id=1, problem_id=1, mode="run", source=f"{source} {i}", filename="solution.cu",
                           status="queued", attempts=0, created_at=utcnow()) for i in range(n)]
        s.add_all(rows)
        s.flush()
        return [r.id for r in rows]


def test_claims_are_atomic(database_url):
    """Eight threads race to claim 40 submissions: each is claimed exactly once."""
    db = _db(database_url)
    ids = _queue(db, 40)
    store = LeaseStore(db, lease_s=60)
    claimed: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(8)

    def worker(n: int) -> None:
        barrier.wait()
        while (job := store.claim(f"w{n}")) is not None:
            with lock:
                claimed.append(job.lease.submission_id)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(claimed) == ids
    with db.read() as s:
        assert set(s.scalars(select(Submission.status))) == {"judging"}
        assert set(s.scalars(select(Submission.attempts))) == {1}
    db.dispose()


def test_expired_lease_is_judged_again_once_and_fenced(database_url):
    db = _db(database_url)
    [sid] = _queue(db, 1)
    store = LeaseStore(db, lease_s=60, max_attempts=2)
    first = store.claim("dead-worker")
    assert first.lease.attempt == 1 and store.claim("other") is None     # held: not claimable
    assert store.record_test(first.lease, 0, {"name": "t0", "verdict": "AC"})
    expire_lease(db, sid)
    second = store.claim("live-worker")                                   # expired: judged again
    assert second.lease.submission_id == sid and second.lease.attempt == 2
    # the first worker's lease is gone: every write it tries is refused
    assert not store.record_test(first.lease, 1, {"name": "t1", "verdict": "AC"})
    assert not store.renew(first.lease)
    assert not store.complete(first.lease, {"verdict": "WA", "tests": []})
    with db.read() as s:
        assert s.get(Submission, sid).tests == []                        # the dead attempt's rows are gone
    assert store.renew(second.lease)
    assert store.complete(second.lease, {"verdict": "AC", "message": "ok", "backend": "cpu",
                                         "tests": [{"name": "t0", "verdict": "AC"}], "compile": {"ok": True}})
    with db.read() as s:
        sub = s.get(Submission, sid)
        assert (sub.status, sub.verdict, sub.attempts, len(sub.tests)) == ("done", "AC", 2, 1)
        assert sub.lease_token is None
    db.dispose()


def test_dies_twice_then_closed_as_internal_error(database_url):
    db = _db(database_url)
    [sid] = _queue(db, 1)
    store = LeaseStore(db, lease_s=60, max_attempts=2)
    assert store.claim("a").lease.attempt == 1
    expire_lease(db, sid)
    assert store.claim("b").lease.attempt == 2
    expire_lease(db, sid)
    assert store.claim("c") is None                                       # not a third time
    with db.read() as s:
        sub = s.get(Submission, sid)
        assert (sub.status, sub.verdict, sub.attempts) == ("done", "IE", 2)
        assert "stopped 2 times" in sub.message
    db.dispose()


def test_judge_exception_retried_once_then_internal_error(database_url):
    db = _db(database_url)
    [sid] = _queue(db, 1)
    store = LeaseStore(db, lease_s=30, max_attempts=2)
    calls = []

    def broken(problem, source, **_):
        calls.append(source)
        raise RuntimeError("the build cache is unwritable")

    dispatcher = Dispatcher(db, store, broken, workers=1, poll_s=0.05)
    dispatcher.start()
    wait_for_status(db, sid, "done", timeout=30)
    dispatcher.stop()
    with db.read() as s:
        sub = s.get(Submission, sid)
        assert (sub.verdict, sub.attempts, len(calls)) == ("IE", 2, 2)
        assert "unwritable" in sub.message
    db.dispose()


def test_an_internal_error_verdict_is_judged_again_like_a_raised_one(database_url):
    """IE in a Result (the judge's children failed) is the judge's fault as much as an exception: judged
    once more; an IE on the last attempt is final, with the Result's own message."""
    db = _db(database_url)
    flaky, broken = _queue(db, 2)
    store = LeaseStore(db, lease_s=30, max_attempts=2)
    calls: list[int] = []
    verdicts = {flaky: iter([Verdict.IE, Verdict.AC]), broken: iter([Verdict.IE, Verdict.IE])}

    def judge(problem, source, **_):
        sid = int(source)
        calls.append(sid)
        verdict = next(verdicts[sid])
        return Result(problem=problem.key, backend="cpu", seed=1, verdict=verdict, compile=CompileInfo(ok=True),
                      message="the judge failed: the reference process ended" if verdict is Verdict.IE else "ok")

    with db.write() as s:   # each submission's source names it
        for sid in (flaky, broken):
            s.get(Submission, sid).source = str(sid)
    dispatcher = Dispatcher(db, store, judge, workers=1, poll_s=0.05)
    dispatcher.start()
    for sid in (flaky, broken):
        wait_for_status(db, sid, "done", timeout=30)
    dispatcher.stop()
    with db.read() as s:
        assert (s.get(Submission, flaky).verdict, s.get(Submission, flaky).attempts) == ("AC", 2)
        last = s.get(Submission, broken)
        assert (last.verdict, last.attempts) == ("IE", 2) and "reference process ended" in last.message
    assert sorted(calls) == sorted([flaky, flaky, broken, broken])
    db.dispose()


def test_worker_dies_mid_judging_judged_again_once(make_api, tmp_path, database_url, catalog):
    """A dispatcher dies while judging: a new app instance judges that submission again, once, and the
    dead worker's late result is discarded."""
    settings = make_settings(tmp_path / "data", database_url, catalog, lease_s=1.0)
    judge1 = FakeJudge()
    judge1.gate = threading.Event()                  # the first app's judge hangs until we let it go
    api1 = make_api(settings, judge=judge1)
    alice = api1.account("alice")
    sid = api1.submit(alice, RELU_OK + "// fake doomed\n")["id"]
    deadline = time.monotonic() + 10
    while not judge1.calls and time.monotonic() < deadline:
        time.sleep(0.02)
    assert judge1.count("doomed") == 1
    api1.state.dispatcher.kill()                     # as if the process died: no more renewals, no writes

    judge2 = FakeJudge()
    api2 = make_api(settings, judge=judge2)
    done = api2.wait(alice, sid, timeout=30)
    assert done["verdict"] == "AC" and done["attempts"] == 2 and judge2.count("doomed") == 1
    judge1.gate.set()                                # the dead worker wakes up: its result must not land
    time.sleep(0.3)
    assert api2.client.get(f"/api/submissions/{sid}", headers=alice).json()["attempts"] == 2
    assert judge1.count("doomed") + judge2.count("doomed") == 2


def test_restart_with_queued_work(make_api, tmp_path, database_url, catalog):
    """Stop the dispatcher mid-queue; a new app instance on the same database finishes the queue, each once."""
    settings = make_settings(tmp_path / "data", database_url, catalog)
    judge1 = FakeJudge()
    api1 = make_api(settings, judge=judge1, stop_timeout_s=30)
    alice = api1.account("alice")
    ids = [api1.submit(alice, f"{RELU_OK}// fake n={i} delay=0.1\n")["id"] for i in range(8)]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        done = [i for i in ids if api1.client.get(f"/api/submissions/{i}", headers=alice).json()["status"] == "done"]
        if len(done) >= 2:
            break
        time.sleep(0.02)
    assert api1.state.dispatcher.stop(30)            # graceful: the one being judged finishes, no new claims
    first_round = len(judge1.calls)
    assert 2 <= first_round < 8

    judge2 = FakeJudge()
    api2 = make_api(settings, judge=judge2)
    finished = [api2.wait(alice, i, timeout=30) for i in ids]
    assert all(f["verdict"] == "AC" and f["attempts"] == 1 for f in finished)
    for i in range(8):
        assert judge1.count(f"n={i} ") + judge2.count(f"n={i} ") == 1, f"submission {i} judged more than once"
    assert len(judge2.calls) == 8 - first_round


def _serve(data_dir: Path, database_url: str, catalog: Path, port: int, log) -> subprocess.Popen:
    env = {**os.environ, "CUDAJUDGE_PROBLEMS": str(catalog), "CUDAJUDGE_LEASE_S": "2", "CUDAJUDGE_POLL_S": "0.2"}
    return subprocess.Popen([sys.executable, "-m", "cudajudge", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--data-dir", str(data_dir), "--database-url", database_url, "--backend", "cpu"],
                            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=str(REPO))


def _wait_up(url: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode}")
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("the server did not come up")


def test_killed_server_process_resumes(tmp_path, database_url, catalog):
    """`cudajudge serve` is killed (SIGKILL) while judging a submission with two more queued; started again,
    it judges the interrupted one again and the queued ones once (real CPU-backend judging)."""
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    url = f"http://127.0.0.1:{port}"
    log = open(tmp_path / "serve.log", "wb")
    proc = _serve(tmp_path / "data", database_url, catalog, port, log)
    try:
        _wait_up(url, proc)
        c = httpx.Client(base_url=url, timeout=30)
        c.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
        h = {"Authorization": "Bearer " + c.post("/api/auth/login", json={"username": "alice", "password": PASSWORD}
                                                 ).json()["token"]}
        ids = [c.post("/api/submissions", json={"problem": 1, "source": RELU_OK + f"// {i}\n",
                                                "mode": "submit" if i == 0 else "run"}, headers=h).json()["id"]
               for i in range(3)]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:      # kill once the first submission's tests are streaming in
            if len(c.get(f"/api/submissions/{ids[0]}", headers=h).json()["tests"]) >= 3:
                break
            time.sleep(0.05)
        states = [c.get(f"/api/submissions/{i}", headers=h).json() for i in ids]
        assert states[0]["status"] == "judging" and [s["status"] for s in states[1:]] == ["queued", "queued"]
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

        proc = _serve(tmp_path / "data", database_url, catalog, port, log)
        _wait_up(url, proc)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            states = [c.get(f"/api/submissions/{i}", headers=h).json() for i in ids]
            if all(s["status"] == "done" for s in states):
                break
            time.sleep(0.2)
        assert [s["verdict"] for s in states] == ["AC", "AC", "AC"]
        assert [s["attempts"] for s in states] == [2, 1, 1]
        assert len(states[0]["result"]["tests"]) == 70   # 66 run on the CPU backend, 4 GPU-only listed as not run
        c.close()
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        log.close()



