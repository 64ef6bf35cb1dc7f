"""schemathesis against the OpenAPI schema of a live server: no request may get a 5xx.

Runs schemathesis's CLI with a bounded number of examples per operation (a fixed seed, so a failure
reproduces), as an admin so every operation is reachable, on each database kind."""
from __future__ import annotations

import subprocess
import sys
import time

import httpx
from sqlalchemy import update

from server.models import User
from server_helpers import PASSWORD, RELU_OK, make_settings

MAX_EXAMPLES = 25


def test_no_server_errors(tmp_path, database_url, catalog, live_server):
    settings = make_settings(tmp_path / "data", database_url, catalog, dispatcher=False)
    server = live_server(settings)
    with httpx.Client(base_url=server.url, timeout=30) as c:
        c.post("/api/auth/register", json={"username": "root", "password": PASSWORD})
        with server.app.state.cj.db.write() as s:
            s.execute(update(User).where(User.username == "root").values(role="admin"))
        token = c.post("/api/auth/login", json={"username": "root", "password": PASSWORD}).json()["token"]
        h = {"Authorization": f"Bearer {token}"}
        assert c.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "run"},
                      headers=h).json()["id"] == 1      # the examples' ids exist
    started = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "run", f"{server.url}/openapi.json", "--checks", "not_a_server_error",
         "--max-examples", str(MAX_EXAMPLES), "--seed", "20261129", "--workers", "1", "--no-color",
         "--phases", "examples,coverage,fuzzing,stateful", "--header", f"Authorization: Bearer {token}",
         "--exclude-path", "/api/auth/logout",            # it would revoke the token the run uses
         "--exclude-path", "/api/submissions/{submission_id}/events",   # a stream that ends only when judged
         "--request-timeout", "20"],
        capture_output=True, text=True, timeout=170, cwd=tmp_path)   # its caches go there, not into the repo
    report = out.stdout[-8000:] + out.stderr[-2000:]
    assert out.returncode == 0, report
    assert "generated" in report, report
    assert time.monotonic() - started < 120, report


def test_events_and_logout_by_hand(tmp_path, sqlite_url, catalog, live_server):
    """The two operations the run leaves out: an unfinished stream answers, logout revokes only its token."""
    server = live_server(make_settings(tmp_path / "data", sqlite_url, catalog, dispatcher=False))
    with httpx.Client(base_url=server.url, timeout=30) as c:
        c.post("/api/auth/register", json={"username": "amy", "password": PASSWORD})
        t1 = c.post("/api/auth/login", json={"username": "amy", "password": PASSWORD}).json()["token"]
        t2 = c.post("/api/auth/login", json={"username": "amy", "password": PASSWORD}).json()["token"]
        c.cookies.clear()
        h1, h2 = {"Authorization": f"Bearer {t1}"}, {"Authorization": f"Bearer {t2}"}
        sid = c.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "run"}, headers=h1).json()["id"]
        with c.stream("GET", f"/api/submissions/{sid}/events", headers=h1) as r:
            lines = []
            for line in r.iter_lines():
                lines.append(line)
                if line.startswith("data:"):
                    break
        assert "event: status" in lines and '"status":"queued"' in lines[-1]
        for bad in ("abc", "0", "99999999999"):
            assert c.get(f"/api/submissions/{bad}/events", headers=h1).status_code == 422
        assert c.post("/api/auth/logout", headers=h1).status_code == 204
        assert c.get("/api/auth/me", headers=h1).status_code == 401
        assert c.get("/api/auth/me", headers=h2).status_code == 200
        assert c.post("/api/auth/logout").status_code == 401
