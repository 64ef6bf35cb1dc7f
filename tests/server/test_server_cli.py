"""`cudajudge admin create-user`, `cudajudge judge --server` (same output as a local judge), and the
migrations matching the models."""
from __future__ import annotations

import io
import json

import httpx
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from rich.console import Console
from typer.testing import CliRunner

from cudajudge.cli import app, console as cli_console
from judge.report import render
from judge.result import Result
from server.db import Database, include_name
from server.models import Base
from server_helpers import PASSWORD, RELU, make_settings

runner = CliRunner()


def test_admin_create_user(tmp_path, database_url):
    args = ["--data-dir", str(tmp_path / "data"), "--database-url", database_url]
    r = runner.invoke(app, ["admin", "create-user", "root", "--role", "admin", "--password", PASSWORD, *args])
    assert r.exit_code == 0 and "created admin 'root'" in r.output, r.output
    r = runner.invoke(app, ["admin", "create-user", "ROOT", "--password", PASSWORD, *args])
    assert r.exit_code == 1 and "taken" in r.output
    r = runner.invoke(app, ["admin", "create-user", "teacher", "--role", "instructor", "--print-token", *args],
                      input=f"{PASSWORD}\n{PASSWORD}\n")
    assert r.exit_code == 0, r.output
    token = r.output.strip().splitlines()[-1]
    assert token.startswith("cj_")
    assert runner.invoke(app, ["admin", "create-user", "x", "--password", PASSWORD, *args]).exit_code == 1
    assert runner.invoke(app, ["admin", "create-user", "bob", "--role", "king", "--password", PASSWORD,
                               *args]).exit_code == 2
    db = Database(database_url)
    from sqlalchemy import select

    from server.models import User
    with db.read() as s:
        assert {(u.username, u.role) for u in s.scalars(select(User))} == {("root", "admin"), ("teacher", "instructor")}
    db.dispose()


def test_remote_judge_prints_what_a_local_judge_prints(tmp_path, sqlite_url, catalog, live_server):
    server = live_server(make_settings(tmp_path / "data", sqlite_url, catalog))
    with httpx.Client(base_url=server.url, timeout=30) as c:
        c.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
        token = c.post("/api/auth/login", json={"username": "alice", "password": PASSWORD}).json()["token"]
    solution = RELU / "solutions" / "accepted" / "naive.cu"
    remote = ["--server", server.url, "--token", token]

    r = runner.invoke(app, ["judge", "relu", str(solution), "--tests", "sample", *remote])
    assert r.exit_code == 0, r.output
    with httpx.Client(base_url=server.url, timeout=30, headers={"Authorization": f"Bearer {token}"}) as c:
        [latest] = c.get("/api/submissions?limit=1").json()["items"]
        stored = Result.model_validate(c.get(f"/api/submissions/{latest['id']}").json()["result"])
    assert latest["mode"] == "run"
    local = io.StringIO()
    render(stored, Console(file=local, width=cli_console.width, force_terminal=False, color_system=None))
    assert r.output == local.getvalue()               # exactly what `cudajudge judge` renders for that Result
    assert "sample/N=8/uniform" in r.output and "AC" in r.output

    broken = tmp_path / "broken.cu"
    broken.write_text('extern "C" void solve(const float* input, float* output, int N) { nope }\n')
    r = runner.invoke(app, ["judge", "1", str(broken), "--json", *remote])   # mode submit, Result as JSON
    assert r.exit_code == 1, r.output
    result = json.loads(r.output)
    assert result["verdict"] == "CE" and result["compile"]["diagnostics"]

    r = runner.invoke(app, ["judge", "1", str(solution), "--server", server.url, "--token", "cj_wrong"])
    assert r.exit_code == 2 and "401" in r.output
    r = runner.invoke(app, ["judge", "nosuch", str(solution), *remote])
    assert r.exit_code == 2 and "no problem named 'nosuch'" in r.output
    r = runner.invoke(app, ["judge", "1", str(solution), "--seed", "3", *remote])
    assert r.exit_code == 2 and "--seed" in r.output

    # --gpu asks the server for a GPU model (the embedded dispatcher judges it anyway); locally it is refused
    r = runner.invoke(app, ["judge", "1", str(solution), "--tests", "sample", "--gpu", "NVIDIA H100 80GB HBM3", *remote])
    assert r.exit_code == 0, r.output
    with httpx.Client(base_url=server.url, timeout=30, headers={"Authorization": f"Bearer {token}"}) as c:
        [latest] = c.get("/api/submissions?limit=1").json()["items"]
    assert latest["gpu"] == "h100-80gb-hbm3"
    r = runner.invoke(app, ["judge", "1", str(solution), "--gpu", "H100"])
    assert r.exit_code == 2 and "--server" in r.output


def test_migrations_match_the_models(database_url):
    db = Database(database_url)
    db.migrate()
    db.migrate()                                      # applying again is a no-op
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True, "include_name": include_name})
        diff = compare_metadata(context, Base.metadata)
    db.dispose()
    assert diff == []
