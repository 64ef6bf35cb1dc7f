"""Instructor code runs sandboxed (or not at all), and serve / worker refuse to start without isolation."""
from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from sandbox import bubblewrap
from server_helpers import REPO, RELU, copy_problem, make_settings
from test_server_uploads import preview, upload, zip_folder

SECRET = "s3cr3t-from-the-server-env"
DB_PASSWORD = "hunter2-db-password"

PROBE = '''import os
found = {{"system": os.system("touch {outside}"), "secret": os.environ.get("CJ_TEST_SECRET"),
         "url": os.environ.get("CUDAJUDGE_DATABASE_URL")}}
for name, path in (("db", "{db}"), ("note", "{note}")):
    try:
        with open(path, "rb") as f:
            found[name] = f.read(64)
    except OSError as exc:
        found[name] = type(exc).__name__
for name, path in (("data", "{data}"), ("catalog", "{catalog}")):
    try:
        found[name] = os.listdir(path)
    except OSError as exc:
        found[name] = type(exc).__name__
raise RuntimeError(f"probe ran: {{found!r}}")
'''


@pytest.fixture
def hostile(tmp_path, make_api, catalog, monkeypatch):
    """(api, instructor headers, zip of a problem whose reference.py probes the server, the outside path)."""
    data = tmp_path / "data"
    settings = make_settings(data, None, catalog)          # SQLite in the data folder
    api = make_api(settings)
    (data / "note.txt").write_text("note-from-the-data-folder")
    assert (data / "cudajudge.db").read_bytes().startswith(b"SQLite format 3")
    monkeypatch.setenv("CJ_TEST_SECRET", SECRET)
    monkeypatch.setenv("CUDAJUDGE_DATABASE_URL", f"postgresql://judge:{DB_PASSWORD}@db/judge")
    outside = tmp_path / "pwned"
    folder = copy_problem(RELU, tmp_path / "src", 950, "hostile")
    (folder / "reference.py").write_text(PROBE.format(outside=outside, db=data / "cudajudge.db", note=data / "note.txt",
                                                      data=data, catalog=catalog) + (RELU / "reference.py").read_text())
    return api, api.account("teacher", "instructor"), zip_folder(folder), outside


def _leaks(text: str) -> list[str]:
    return [s for s in (SECRET, DB_PASSWORD, "SQLite format", "note-from-the-data-folder", "cudajudge.db", "001-relu")
            if s in text]


def test_reference_runs_sandboxed(hostile):
    api, teacher, data, outside = hostile
    r = preview(api, teacher, data)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["valid"] is False
    [probe] = [f for f in body["findings"] if "probe ran" in f["message"]]    # it ran, and its text came back
    assert probe["file"] == "reference.py"
    assert "'secret': None" in probe["message"] and "'url': None" in probe["message"]
    assert "'db': 'FileNotFoundError'" in probe["message"] and "'catalog': 'FileNotFoundError'" in probe["message"]
    assert _leaks(r.text) == [] and not outside.exists()

    r = upload(api, teacher, data)                         # the same through the upload itself
    assert r.status_code == 422 and "probe ran" in r.text, r.text
    assert _leaks(r.text) == [] and not outside.exists()
    assert api.client.get("/api/problems/950").status_code == 404


def test_validation_refused_without_bubblewrap(hostile, monkeypatch):
    api, teacher, data, outside = hostile
    monkeypatch.setattr(bubblewrap, "available", lambda: False)
    for r in (preview(api, teacher, data), upload(api, teacher, data)):
        assert r.status_code == 503, r.text
        detail = r.json()["detail"]
        assert "bubblewrap is required to run instructor code" in detail and "apt-get install bubblewrap" in detail
    assert not outside.exists() and api.client.get("/api/problems/950").status_code == 404


# --- serve and worker refuse to start -------------------------------------------------------------------

def _start(args: list[str], **env) -> tuple[int, str]:
    """Run `python -m cudajudge ARGS` (by the interpreter's full path, so PATH may lack everything else)."""
    full = {**os.environ, "COLUMNS": "300", **env}
    try:
        out = subprocess.run([sys.executable, "-m", "cudajudge", *args], cwd=REPO, env=full, capture_output=True,
                             text=True, timeout=120)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"{args[0]} started instead of refusing") from exc
    return out.returncode, " ".join((out.stdout + out.stderr).split())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_and_worker_refuse_without_isolation(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    serve = ["serve", "--port", str(_free_port()), "--data-dir", str(tmp_path / "data"), "--backend", "cpu"]
    worker = ["worker", "--database-url", "postgresql://nobody@127.0.0.1:1/none", "--backend", "cpu"]
    fake = tmp_path / "no-seccomp"
    fake.mkdir()
    (fake / "pyseccomp.py").write_text("raise ImportError('libseccomp is missing')\n")
    install = "apt-get install bubblewrap libseccomp2"
    no_bwrap, no_seccomp = "bubblewrap (bwrap) is not installed", "seccomp filter cannot be installed"
    cases = [(serve, {"PATH": str(empty)}, [no_bwrap, install]),
             (worker, {"PATH": str(empty)}, [no_bwrap, install]),
             (serve, {"CUDAJUDGE_SANDBOX": "off"}, ["(CUDAJUDGE_SANDBOX=off): unset it"]),
             (serve, {"PYTHONPATH": str(fake)}, [no_seccomp, install]),
             (worker, {"PYTHONPATH": str(fake)}, [no_seccomp, install])]
    for args, env, messages in cases:
        code, output = _start(args, **env)
        assert code != 0, (args[0], env, output)
        for message in [f"cudajudge {args[0]} refuses to start", *messages]:
            assert message in output, (args[0], env, output)
    assert not (tmp_path / "data").exists()                # refused before touching the data folder
