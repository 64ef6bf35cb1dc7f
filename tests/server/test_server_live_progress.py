"""The live view's server side: the judge reports each test as it starts, the worker stores the phase and
the current test, the events stream sends them as `progress` (again after a reconnect), and the list
filters by several statuses (what is still queued or judging)."""
from __future__ import annotations

import json
import threading
import time

import httpx

from judge.problems.loader import parse_problem
from judge import protocol, result   # as modules: pytest would try to collect their Test* classes
from judge.submission import judge_source
from server_helpers import PASSWORD, RELU, RELU_OK, FakeJudge, make_settings

TESTS = ["sample/N=8/uniform", "sample/N=1000/uniform"]
# wrong for every input whatever the seed: a copy of the input is right where no element is negative
WRONG = ('extern "C" void solve(const float* input, float* output, int N) {\n'
         '    cudaMemset(output, 0x7f, N * sizeof(float));\n}\n')


class SteppedJudge:
    """Reports the judge's own progress events, pausing `step_s` in each phase, and answers AC. The last
    test ends only once `last_test_gate` is set (or 30 s passed), so a client can watch it running."""

    def __init__(self, step_s: float, last_test_gate: threading.Event | None = None):
        self.step_s = step_s
        self.last_test_gate = last_test_gate

    def __call__(self, problem, source, *, mode, filename, on_event, account) -> result.Result:
        on_event(protocol.BuildStarted(backend="cpu"))
        time.sleep(self.step_s)
        on_event(protocol.BuildDone(compile=result.CompileInfo(ok=True)))
        tests = []
        for i, name in enumerate(TESTS):
            on_event(protocol.TestStarted(index=i, name=name))
            time.sleep(self.step_s)
            if i == len(TESTS) - 1 and self.last_test_gate is not None:
                self.last_test_gate.wait(30)
            tests.append(result.TestResult(name=name, size={"N": 8}, distribution="uniform", verdict=result.Verdict.AC))
            on_event(protocol.TestDone(result=tests[-1]))
        return result.Result(problem=problem.key, backend="cpu", seed=1, verdict=result.Verdict.AC, message="ok",
                             compile=result.CompileInfo(ok=True), tests=tests)


def iter_events(response):
    """(event, data) of a text/event-stream, each as it arrives."""
    event, data = "message", []
    for line in response.iter_lines():
        if line == "":
            if data:
                yield event, json.loads("\n".join(data))
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def _login(c: httpx.Client, name: str) -> dict:
    c.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    return {"Authorization": f"Bearer {c.post('/api/auth/login', json={'username': name, 'password': PASSWORD}).json()['token']}"}


def test_judge_reports_each_test_as_it_starts_and_the_shrinking():
    events = []
    judge_source(parse_problem(RELU), WRONG, backend="cpu", samples_only=True, fail_fast=True, shrink=True,
                 standby=False, on_event=events.append)
    steps = [(type(e).__name__, getattr(e, "name", None) or getattr(e, "test", None)) for e in events
             if isinstance(e, (protocol.BuildStarted, protocol.TestStarted, protocol.TestDone, protocol.ShrinkStarted))]
    # the first sample fails, so the second is not run; the judge then looks for a smaller failing input
    assert steps == [("BuildStarted", None), ("TestStarted", TESTS[0]), ("TestDone", None),
                     ("ShrinkStarted", TESTS[0])]
    assert [e.index for e in events if isinstance(e, protocol.TestStarted)] == [0]


def test_stream_sends_the_phase_and_the_test_running_now(tmp_path, database_url, catalog, live_server):
    resumed_progress = threading.Event()   # the last test runs until the resumed stream has seen its phase
    server = live_server(make_settings(tmp_path / "data", database_url, catalog),
                         judge=SteppedJudge(0.6, last_test_gate=resumed_progress))
    with httpx.Client(base_url=server.url, timeout=60) as c:
        h = _login(c, "alice")
        sid = c.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "run"}, headers=h).json()["id"]
        resumed: list = []

        def reconnect_after_first_test() -> None:   # a second connection resumes after test 0
            with c.stream("GET", f"/api/submissions/{sid}/events", headers={**h, "Last-Event-ID": "1:1"}) as r:
                for event, data in iter_events(r):
                    resumed.append((event, data))
                    if event == "progress":
                        resumed_progress.set()

        reconnect = threading.Thread(target=reconnect_after_first_test)
        events = []
        with c.stream("GET", f"/api/submissions/{sid}/events", headers=h) as r:
            for event, data in iter_events(r):
                events.append((event, data))
                if event == "test" and data["index"] == 0:
                    reconnect.start()
        reconnect.join(30)

    progress = [data for event, data in events if event == "progress"]
    phases = [(p["phase"], p["test"], p["index"]) for p in progress]
    assert ("compiling", None, None) in phases
    assert phases[-2:] == [("testing", TESTS[0], 0), ("testing", TESTS[1], 1)]
    # each test is announced before its result
    kinds = [(event, data["index"]) for event, data in events
             if event in ("progress", "test") and data.get("index") is not None]
    assert kinds == [("progress", 0), ("test", 0), ("progress", 1), ("test", 1)]
    elapsed = [p["elapsed_s"] for p in progress]
    assert elapsed == sorted(elapsed) and elapsed[-1] >= 1.0 and all(0 <= p["phase_s"] <= p["elapsed_s"] for p in progress)
    assert [event for event, _ in events][-2:] == ["status", "done"]

    # the resumed stream: no test 0 again, the current phase at once, then the rest
    assert [data["index"] for event, data in resumed if event == "test"] == [1]
    current = next(data for event, data in resumed if event == "progress")
    assert (current["phase"], current["test"]) == ("testing", TESTS[1])
    assert resumed[-1][0] == "done"


def test_active_submissions_are_listed_and_shown_as_queued(tmp_path, database_url, catalog, live_server):
    judge = FakeJudge()
    judge.gate = threading.Event()
    server = live_server(make_settings(tmp_path / "data", database_url, catalog, workers=1), judge=judge)
    with httpx.Client(base_url=server.url, timeout=60) as c:
        h = _login(c, "alice")
        first, second = (c.post("/api/submissions", json={"problem": 1, "source": RELU_OK, "mode": "run"},
                                headers=h).json()["id"] for _ in range(2))
        active = "/api/submissions?mine&problem=1&status=queued&status=judging"
        deadline = time.monotonic() + 30
        while judge.count("") < 1 and time.monotonic() < deadline:   # the one worker holds the first
            time.sleep(0.05)
        listed = c.get(active, headers=h).json()["items"]
        assert [(s["id"], s["status"]) for s in listed] == [(second, "queued"), (first, "judging")]
        assert c.get("/api/submissions?problem=1&status=done", headers=h).json()["items"] == []

        def first_progress(sid: int) -> dict:
            with c.stream("GET", f"/api/submissions/{sid}/events", headers=h) as r:
                return next(data for event, data in iter_events(r) if event == "progress")
        assert first_progress(second)["phase"] == "queued"
        assert first_progress(first)["phase"] == "starting"    # claimed; the judge has not reported yet

        judge.gate.set()
        deadline = time.monotonic() + 30
        while c.get(active, headers=h).json()["items"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert c.get(active, headers=h).json()["items"] == []
        assert c.get("/api/submissions?status=waiting", headers=h).status_code == 422
