"""Fixtures of the server tests: a database (a SQLite file, or a fresh PostgreSQL database), a small
problem catalog, apps with fast password hashing, API helpers, a live uvicorn server on loopback."""
from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Callable

import pytest

pytest.importorskip("fastapi", reason="the server tests need the server extra: pip install -e '.[server]'")

from sqlalchemy import update  # noqa: E402

from judge.result import CaseTiming, CompileInfo, Result, TestResult, Timing, Verdict  # noqa: E402
from server.config import RateLimit, Settings  # noqa: E402
from server.db import scratch_database  # noqa: E402
from server.models import Submission, User, utcnow  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
RELU = REPO / "problems" / "001-relu"
RELU_OK = (RELU / "solutions" / "accepted" / "naive.cu").read_text()
PG_URL = os.environ.get("CUDAJUDGE_TEST_POSTGRES_URL")
PASSWORD = "correct horse battery"
NO_PG = "PostgreSQL tests need CUDAJUDGE_TEST_POSTGRES_URL (bash .ci/run starts a throwaway cluster and sets it)"


# --- databases ------------------------------------------------------------------------------------

def expire_lease(db, submission_id: int) -> None:
    """The submission's lease ran out a second ago, as a worker's that stopped renewing it, whatever the
    machine's load (a short lease and a sleep raced the test's own statements on a busy machine)."""
    with db.write() as s:
        s.get(Submission, submission_id).lease_expires = utcnow() - timedelta(seconds=1)


def wait_for_status(db, submission_id: int, status: str, timeout: float) -> None:
    """Poll the database until the submission has `status`, or the timeout passes (the caller's
    assertions on the row then say what went wrong)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with db.read() as s:
            if s.get(Submission, submission_id).status == status:
                return
        time.sleep(0.05)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'judge.db'}"
        return
    if not PG_URL:
        pytest.skip(NO_PG)
    url, drop = scratch_database(PG_URL, "cj_test")
    yield url
    drop()


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'judge.db'}"


# --- a small catalog --------------------------------------------------------------------------------

def copy_problem(src: Path, dest_root: Path, new_id: int | None = None, slug: str | None = None,
                 toml_edit: Callable[[str], str] | None = None) -> Path:
    """A copy of a problem folder, optionally renumbered and edited."""
    toml = (src / "problem.toml").read_text()
    pid = new_id or int(re.search(r"^id = (\d+)", toml, re.M).group(1))
    slug = slug or re.search(r'^slug = "([^"]+)"', toml, re.M).group(1)
    dest = dest_root / f"{pid:03d}-{slug}"
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"))
    toml = re.sub(r"^id = \d+", f"id = {pid}", toml, count=1, flags=re.M)
    toml = re.sub(r'^slug = "[^"]+"', f'slug = "{slug}"', toml, count=1, flags=re.M)
    (dest / "problem.toml").write_text(toml_edit(toml) if toml_edit else toml)
    return dest


def no_samples(toml: str) -> str:
    return toml.replace("sample = true\n", "")


@pytest.fixture(scope="session")
def catalog(tmp_path_factory) -> Path:
    """Problem 1 (relu) and a variant without sample tests (problem 2, `relu-nosample`)."""
    root = tmp_path_factory.mktemp("catalog")
    copy_problem(RELU, root)
    copy_problem(RELU, root, 2, "relu-nosample", no_samples)
    return root


# --- settings and apps --------------------------------------------------------------------------------

def make_settings(data_dir: Path, database_url: str, catalog: Path, **overrides) -> Settings:
    base = dict(data_dir=data_dir, database_url=database_url, problems_dir=catalog, backend="cpu", workers=1,
                poll_s=0.1, sse_poll_s=0.05, lease_s=30.0, argon2_time_cost=1, argon2_memory_kib=8192,
                argon2_parallelism=1, rate_api=RateLimit(10_000, 100_000), rate_submit=RateLimit(10_000, 100_000),
                rate_auth=RateLimit(10_000, 100_000), rate_upload=RateLimit(1000, 1000),
                rate_validate=RateLimit(1000, 1000), validate_timeout_s=120)
    base.update(overrides)
    return Settings(**base)


@pytest.fixture
def settings(tmp_path, database_url, catalog) -> Settings:
    return make_settings(tmp_path / "data", database_url, catalog)


class Api:
    """A client with helpers: accounts, submissions, waiting."""

    def __init__(self, client, app):
        self.client, self.app = client, app

    @property
    def state(self):
        return self.app.state.cj

    def account(self, username: str, role: str = "student") -> dict:
        """Register and log in; returns bearer headers."""
        r = self.client.post("/api/auth/register", json={"username": username, "password": PASSWORD})
        assert r.status_code == 201, r.text
        if role != "student":
            with self.state.db.write() as s:
                s.execute(update(User).where(User.username == username).values(role=role))
        r = self.client.post("/api/auth/login", json={"username": username, "password": PASSWORD})
        assert r.status_code == 200, r.text
        self.client.cookies.clear()   # bearer only unless a test wants the cookie
        return {"Authorization": f"Bearer {r.json()['token']}"}

    def submit(self, headers: dict, source: str = RELU_OK, problem="1", mode: str = "run") -> dict:
        r = self.client.post("/api/submissions", json={"problem": problem, "source": source, "mode": mode},
                             headers=headers)
        assert r.status_code == 201, r.text
        return r.json()

    def wait(self, headers: dict, sid: int, timeout: float = 120.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            body = self.client.get(f"/api/submissions/{sid}", headers=headers).json()
            if body["status"] == "done":
                return body
            time.sleep(0.1)
        raise AssertionError(f"submission {sid} not done in {timeout} s: {body}")


@pytest.fixture
def make_api(tmp_path):
    """make_api(settings, judge=None) -> Api over a TestClient whose lifespan (dispatcher) is running."""
    from fastapi.testclient import TestClient

    from server.app import create_app

    opened = []

    def make(settings: Settings, judge=None, stop_timeout_s: float = 30.0) -> Api:
        app = create_app(settings, judge=judge, stop_timeout_s=stop_timeout_s)
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        return Api(client, app)
    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)
        client.app.state.cj.db.dispose()


@pytest.fixture
def api(make_api, settings) -> Api:
    return make_api(settings)


# --- a live server on loopback --------------------------------------------------------------------------

class LiveServer:
    def __init__(self, app):
        import uvicorn

        self.app = app
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on",
                                timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the live server did not start")
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.app.state.cj.db.dispose()


@pytest.fixture
def live_server():
    """live_server(settings, judge=None) -> LiveServer, stopped at the end of the test."""
    from server.app import create_app

    started = []

    def start(settings: Settings, judge=None) -> LiveServer:
        server = LiveServer(create_app(settings, judge=judge))
        started.append(server)
        return server
    yield start
    for server in started:
        server.stop()


# --- a fake judge, for tests about the server rather than the judge ------------------------------------------

class FakeJudge:
    """Judges instantly from markers in the source: `// fake verdict=WA device=H100 median=12.5 iqr=0.3 delay=0.2`.

    Records every call, so tests can check each submission was judged exactly once."""

    def __init__(self):
        self.calls: list[str] = []
        self.accounts: list[str] = []                # whose kernel cache each call would use
        self.lock = threading.Lock()
        self.gate: threading.Event | None = None    # when set, calls wait for it

    def __call__(self, problem, source, *, mode, filename, on_event, account) -> Result:
        with self.lock:
            self.calls.append(source)
            self.accounts.append(account)
        marks = dict(re.findall(r"(\w+)=(\S+)", source.split("// fake", 1)[1])) if "// fake" in source else {}
        if self.gate is not None:
            self.gate.wait()
        on_event({"event": "build_done", "compile": CompileInfo(ok=True).model_dump(mode="json")})
        tests = []
        for i in range(int(marks.get("tests", 3))):
            time.sleep(float(marks.get("delay", 0)))
            t = TestResult(name=f"sample/N={i + 1}/uniform", size={"N": i + 1}, distribution="uniform",
                           verdict=Verdict(marks.get("verdict", "AC")) if i == 0 else Verdict.AC)
            tests.append(t)
            on_event({"event": "test", "result": t.model_dump(mode="json")})
        verdict = tests[0].verdict if tests else Verdict.AC
        timing = None
        if "median" in marks and mode == "submit":
            m, iqr = float(marks["median"]), float(marks.get("iqr", 0.1))
            case = CaseTiming(size={"N": 1 << 24}, distribution="uniform", samples=50, median_us=m, min_us=m * 0.9,
                              iqr_us=iqr, noisy=False, gbps=100.0)
            timing = Timing(samples=50, median_us=m, min_us=m * 0.9, iqr_us=iqr, noisy=False, per_case=[case])
        return Result(problem=problem.key, backend="gpu" if timing else "cpu", device=marks.get("device"),
                      seed=1, verdict=verdict, message="fake", compile=CompileInfo(ok=True), tests=tests,
                      timing=timing)

    def count(self, marker: str) -> int:
        with self.lock:
            return sum(marker in c for c in self.calls)
