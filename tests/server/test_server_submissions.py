"""The submission lifecycle end to end on the CPU backend, SSE progress, bad requests, the leaderboard, rejudge."""
from __future__ import annotations

import json
import time

import httpx
import pytest
from sqlalchemy import select

from judge.problems.loader import parse_problem
from server.models import TimingCase
from judge.problems import plan
from server_helpers import RELU, RELU_OK, FakeJudge, make_settings

CE_SOURCE = 'extern "C" void solve(const float* input, float* output, int N) { this is not C++ }\n'


def read_sse(response) -> list[tuple[str, str | None, dict, float]]:
    """(event, id, data, arrival time) of a text/event-stream."""
    out, event, eid, data = [], "message", None, []
    for line in response.iter_lines():
        if line == "":
            if data:
                out.append((event, eid, json.loads("\n".join(data)), time.monotonic()))
            event, eid, data = "message", None, []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("id:"):
            eid = line[3:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
    return out


def test_run_lifecycle_cpu(api):
    """mode=run: queued, judged on the CPU backend against the sample tests, the Result stored and listed."""
    alice = api.account("alice")
    created = api.submit(alice, RELU_OK, problem="relu", mode="run")
    assert created["status"] in ("queued", "judging") and created["problem_id"] == 1 and created["mode"] == "run"
    done = api.wait(alice, created["id"])
    assert done["verdict"] == "AC" and done["attempts"] == 1 and done["backend"] == "cpu"
    result = done["result"]
    samples = [c.name for c in plan.test_cases(parse_problem(RELU), samples_only=True)]
    assert [t["name"] for t in result["tests"]] == samples == [t["name"] for t in done["tests"]]
    assert result["problem"] == "problem1" and result["compile"]["ok"] and result["seed"] >= 0
    assert done["source"] == RELU_OK and done["finished_at"] >= done["started_at"] >= done["created_at"]
    listed = api.client.get("/api/submissions?mine=true&problem=1", headers=alice).json()["items"]
    assert listed[0]["id"] == created["id"] and listed[0]["verdict"] == "AC" and "source" not in listed[0]

    ce = api.wait(alice, api.submit(alice, CE_SOURCE, problem="problem1")["id"])
    assert ce["verdict"] == "CE" and ce["result"]["compile"]["diagnostics"] and not ce["tests"]
    assert api.client.get("/api/health").json()["queued"] == 0


def test_submit_events_stream_per_test(tmp_path, database_url, catalog, live_server):
    """mode=submit on a live server: every test streams as it finishes, before the submission is done."""
    server = live_server(make_settings(tmp_path / "data", database_url, catalog))
    with httpx.Client(base_url=server.url, timeout=60) as c:
        c.post("/api/auth/register", json={"username": "alice", "password": "password123"})
        token = c.post("/api/auth/login", json={"username": "alice", "password": "password123"}).json()["token"]
        h = {"Authorization": f"Bearer {token}"}
        sid = c.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "submit"}, headers=h).json()["id"]
        statuses_at_first_test: list[str] = []

        def peek():   # the submission's status when the first test event arrives
            statuses_at_first_test.append(c.get(f"/api/submissions/{sid}", headers=h).json()["status"])

        events = []
        with c.stream("GET", f"/api/submissions/{sid}/events", headers=h) as r:
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
            event, eid, data = "message", None, []
            for line in r.iter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("id:"):
                    eid = line[3:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif line == "" and data:
                    events.append((event, eid, json.loads("".join(data))))
                    if event == "test" and not statuses_at_first_test:
                        peek()
                    event, eid, data = "message", None, []
        kinds = [e[0] for e in events]
        planned = plan.test_cases(parse_problem(RELU))
        expected = [c.name for c in planned]
        tests = [e for e in events if e[0] == "test"]
        assert [t[2]["result"]["name"] for t in tests] == expected      # every planned test, in order, once
        assert [t[2]["result"]["verdict"] == "NR" for t in tests] == [c.gpu_only for c in planned]   # GPU-only: not run
        assert [t[2]["index"] for t in tests] == list(range(len(expected)))
        assert tests[-1][1] == f"1:{len(expected)}"
        assert kinds[0] == "status" and "compile" in kinds and kinds[-2:] == ["status", "done"]
        assert events[-1][2]["verdict"] == "AC"
        assert statuses_at_first_test == ["judging"], "tests must stream while the submission is being judged"
        done = c.get(f"/api/submissions/{sid}", headers=h).json()
        assert done["verdict"] == "AC" and len(done["result"]["tests"]) == len(expected)
        assert done["mode"] == "submit" and done["result"]["timing"] is None   # timing needs a GPU

        # resume after the 60th test with Last-Event-ID: only the rest, then done
        with c.stream("GET", f"/api/submissions/{sid}/events", headers={**h, "Last-Event-ID": "1:60"}) as r:
            rest = read_sse(r)
        assert [e[2]["index"] for e in rest if e[0] == "test"] == list(range(60, len(expected)))
        assert rest[-1][0] == "done"


def test_bad_requests(make_api, settings):
    api = make_api(settings.with_(max_body_bytes=100 * 1024), judge=FakeJudge())
    alice = api.account("alice")
    c = api.client

    def post(**body):
        return c.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "run", **body}, headers=alice)

    r = post(problem="no-such-problem")
    assert r.status_code == 404 and "no problem named 'no-such-problem'" in r.json()["detail"]
    assert post(problem=999).status_code == 404
    r = post(mode="check")
    assert r.status_code == 422 and "run" in r.text and "submit" in r.text
    r = post(source="x" * (64 * 1024 + 1))
    assert r.status_code == 413 and "65537 bytes; the limit is 65536" in r.json()["detail"]
    r = post(source="é" * 40000)   # 80000 bytes of UTF-8
    assert r.status_code == 413
    assert post(source="   \n").status_code == 422
    assert post(source="int x;\x00").status_code == 422
    r = post(problem="relu-nosample")
    assert r.status_code == 422 and "no sample tests" in r.json()["detail"]
    assert post(problem="relu-nosample", mode="submit").status_code == 201
    r = post(filename="../../etc/passwd")
    assert r.status_code == 422
    r = c.post("/api/submissions", content=b'{"problem": 1, "source": "' + b"y" * 200_000 + b'", "mode": "run"}',
               headers={**alice, "content-type": "application/json"})
    assert r.status_code == 413 and "limit" in r.json()["detail"]
    assert c.post("/api/submissions", content=b"{not json", headers={**alice, "content-type": "application/json"}
                  ).status_code == 422
    assert c.post("/api/submissions", json={"problem": 1, "mode": "run"}, headers=alice).status_code == 422
    assert c.post("/api/submissions", json={"problem": 1, "source": "x", "mode": "run", "extra": 1},
                  headers=alice).status_code == 422
    assert c.get("/api/submissions/123456", headers=alice).status_code == 404
    assert c.get("/api/submissions/0", headers=alice).status_code == 422
    assert c.get("/api/submissions?mine=perhaps", headers=alice).status_code == 422
    assert c.get("/api/problems/nope").status_code == 404
    assert c.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "run"}).status_code == 401


def test_problem_views_hide_hidden_data(api):
    problems = api.client.get("/api/problems").json()
    assert [p["slug"] for p in problems] == ["relu", "relu-nosample"]
    detail = api.client.get("/api/problems/problem1").json()
    assert detail == api.client.get("/api/problems/relu").json() == api.client.get("/api/problems/001-relu").json()
    assert detail["signature"] == 'extern "C" void solve(const float* input, float* output, int N)'
    assert detail["tolerance"]["policy"] == "exact"
    groups = {g["name"]: g for g in detail["tests"]}
    assert groups["sample"]["sample"] and groups["large"]["gpu_only"] and {"N": 33} in groups["edge"]["sizes"]
    assert "single-hotspot" in groups["shape"]["distributions"] and "edge/N=33/uniform" in groups["edge"]["cases"]
    assert detail["statement"]["en"] and detail["statement"]["zh"] and "solve" in detail["starter"]
    text = json.dumps(detail)
    reference = (RELU / "reference.py").read_text()
    for secret in ("def reference", reference[:80], "naive.cu", "grid_stride", "solutions/", "fixed_grid_no_loop"):
        assert secret not in text


def test_leaderboard_best_median_per_user_per_gpu(make_api, settings):
    judge = FakeJudge()
    api = make_api(settings, judge=judge)
    a, b, c = api.account("alice"), api.account("bob"), api.account("carol")
    plan = [(a, "device=H100 median=20"), (a, "device=H100 median=12"), (a, "device=H100 median=15"),
            (b, "device=H100 median=14"), (b, "device=L4 median=50"), (c, "device=H100 median=9 verdict=WA"),
            (c, "device=L4 median=40"), (c, "device=L4 median=30 mode=run")]
    for headers, marks in plan:
        mode = "run" if "mode=run" in marks else "submit"
        sid = api.submit(headers, f"{RELU_OK}// fake {marks}\n", mode=mode)["id"]
        api.wait(headers, sid)
    board = api.client.get("/api/problems/1/leaderboard").json()
    got = {d["device"]: [(e["rank"], e["user"]["username"], e["median_us"]) for e in d["entries"]] for d in board["devices"]}
    assert got == {"H100": [(1, "alice", 12.0), (2, "bob", 14.0)], "L4": [(1, "carol", 40.0), (2, "bob", 50.0)]}
    assert [(e["user"]["username"], e["submissions"], e["backend"]) for e in board["accepted"]] == \
        [("alice", 1, "gpu"), ("bob", 1, "gpu"), ("carol", 2, "gpu")]          # first accepts, in order; runs do not count
    assert api.client.get("/api/problems/2/leaderboard").json() == {"problem_id": 2, "devices": [], "accepted": []}
    with api.state.db.read() as s:   # timing is stored as rows too, one per benchmark case
        cases = s.execute(select(TimingCase.submission_id, TimingCase.median_us, TimingCase.gbps)).all()
    assert sorted(m for _, m, _ in cases) == [9.0, 12.0, 14.0, 15.0, 20.0, 40.0, 50.0] and {g for *_, g in cases} == {100.0}
    assert api.client.get("/api/problems/77/leaderboard").status_code == 404


def test_leaderboard_ties_entries_whose_median_intervals_overlap(make_api, settings):
    judge = FakeJudge()
    api = make_api(settings, judge=judge)
    # 50 samples: a median's interval is ± 1.57 · IQR / √50 = ± 0.222 · IQR.
    plan = [("alice", "median=10.0 iqr=2"), ("bob", "median=10.6 iqr=2"), ("carol", "median=12.0 iqr=1"),
            ("dave", "median=30.0 iqr=0.5")]
    for name, marks in plan:
        headers = api.account(name)
        api.wait(headers, api.submit(headers, f"{RELU_OK}// fake device=H100 {marks}\n", mode="submit")["id"])
    entries = api.client.get("/api/problems/1/leaderboard").json()["devices"][0]["entries"]
    got = [(e["user"]["username"], e["rank"], e["tied"]) for e in entries]
    # alice [9.56, 10.44] and bob [10.16, 11.04] overlap: tied, both first; carol [11.78, 12.22] and dave are
    # told apart from everyone before them.
    assert got == [("alice", 1, True), ("bob", 1, True), ("carol", 3, False), ("dave", 4, False)]
    alice = entries[0]
    assert alice["low_us"] == pytest.approx(10.0 - 1.57 * 2 / 50 ** 0.5) and alice["high_us"] > alice["median_us"]


def test_solved_state_for_the_signed_in_user(make_api, settings):
    api = make_api(settings, judge=FakeJudge())
    alice, bob = api.account("alice"), api.account("bob")
    api.wait(alice, api.submit(alice, RELU_OK, mode="run")["id"])                    # a run solves nothing
    api.wait(alice, api.submit(alice, RELU_OK + "// fake verdict=WA\n", problem="2", mode="submit")["id"])
    assert {p["id"]: p["solved"] for p in api.client.get("/api/problems", headers=alice).json()} == {1: False, 2: False}
    api.wait(alice, api.submit(alice, RELU_OK, mode="submit")["id"])
    assert {p["id"]: p["solved"] for p in api.client.get("/api/problems", headers=alice).json()} == {1: True, 2: False}
    assert api.client.get("/api/problems/relu", headers=alice).json()["solved"] is True
    assert {p["id"]: p["solved"] for p in api.client.get("/api/problems", headers=bob).json()} == {1: False, 2: False}
    assert [p["solved"] for p in api.client.get("/api/problems").json()] == [None, None]   # signed out


def test_each_user_is_judged_in_their_own_account(make_api, settings):
    judge = FakeJudge()
    api = make_api(settings, judge=judge)
    alice, bob = api.account("alice"), api.account("bob")
    api.wait(alice, api.submit(alice)["id"])
    api.wait(bob, api.submit(bob)["id"])
    ids = [api.client.get("/api/auth/me", headers=h).json()["id"] for h in (alice, bob)]
    assert judge.accounts == [f"user-{i}" for i in ids] and ids[0] != ids[1]


def test_rejudge(make_api, settings):
    judge = FakeJudge()
    api = make_api(settings, judge=judge)
    alice, teacher = api.account("alice"), api.account("teacher", "instructor")
    first = api.wait(alice, api.submit(alice, RELU_OK + "// fake one\n")["id"])
    second = api.wait(alice, api.submit(alice, RELU_OK + "// fake two\n")["id"])
    assert judge.count("one") == judge.count("two") == 1
    assert api.client.post(f"/api/submissions/{first['id']}/rejudge", headers=teacher).json() == {"queued": 1}
    again = api.wait(alice, first["id"])
    assert again["verdict"] == "AC" and again["attempts"] == 1 and judge.count("one") == 2
    assert api.client.post("/api/problems/relu/rejudge", headers=teacher).json() == {"queued": 2}
    api.wait(alice, first["id"]), api.wait(alice, second["id"])
    assert judge.count("one") == 3 and judge.count("two") == 2


def test_server_process_never_imports_cuda():
    """Creating the app and judging on the CPU backend loads no CUDA module in the server process."""
    import subprocess
    import sys

    code = ("import sys, tempfile, pathlib\n"
            "from server.app import create_app\nfrom server.config import Settings\n"
            "d = pathlib.Path(tempfile.mkdtemp())\n"
            "create_app(Settings(data_dir=d, backend='cpu'))\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('cupy', 'cuda', 'pycuda', 'numba')]\n"
            "print(bad); sys.exit(1 if bad else 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr

