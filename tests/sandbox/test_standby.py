"""Standby run children: a judge runs in a child that a background host started before it, every
submission still gets a process of its own, and a host never outlives its use."""
import fcntl
import io
import json
import os
import sys
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

from judge.cache_paths import standby_root
from judge.problems.loader import load_problem
from judge.protocol import RunnerStarted
from judge.submission import ORACLE, RUNNER, folders_hidden, judge_source
from sandbox import standby

ROOT = Path(__file__).resolve().parents[2]
ACCEPTED = (ROOT / "problems/001-relu/solutions/accepted/vectorized.cu").read_text()
ENDLESS = (ROOT / "tests/data/gpu_cases/relu_endless.cu").read_text()
CACHES_RESULT = (ROOT / "tests/data/gpu_cases/relu_caches_result.cu").read_text()
SKIPS_LARGE = (ROOT / "tests/data/gpu_cases/relu_skips_large_inputs.cu").read_text()
BACKENDS = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]


@pytest.fixture(scope="module")
def build_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")   # shared: each solution is built once for the whole module


@pytest.fixture
def hosts(build_cache, monkeypatch):
    """The standby folder of a private build cache; every host started there is ended afterwards."""
    monkeypatch.setenv("CUDAJUDGE_CACHE_DIR", str(build_cache))
    root = standby_root()
    yield root
    for folder in root.iterdir() if root.is_dir() else ():
        standby.stop_host(folder)
    shutil.rmtree(root, ignore_errors=True)


def judged(source: str, backend: str, tests=("sample",), timing=False, events=None, problem=1):
    """(result, the RunnerStarted event) of one judge with standby on; `events` collects all its events."""
    events = [] if events is None else events
    result = judge_source(load_problem(problem), source, backend=backend, timing=timing, patterns=list(tests),
                          standby=True, on_event=events.append)
    return result, next(e for e in events if isinstance(e, RunnerStarted))


def wait_for_host(root: Path) -> Path:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        sockets = list(root.glob("*/socket"))
        if sockets:
            return sockets[0].parent
        time.sleep(0.1)
    raise AssertionError(f"no standby host came up under {root}")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except (FileNotFoundError, ProcessLookupError):   # reaped between the two looks
        return False


@pytest.mark.parametrize("backend", BACKENDS)
def test_next_judge_runs_in_a_fresh_standby_child(hosts, backend):
    first, started = judged(ACCEPTED, backend)
    assert first.verdict == "AC" and not started.standby   # no host yet: its own child, and a host for later
    wait_for_host(hosts)
    second, adopted = judged(ACCEPTED, backend)
    assert second.verdict == "AC", second.message
    assert adopted.standby and adopted.pid
    third, next_one = judged(ACCEPTED, backend)
    assert third.verdict == "AC" and next_one.standby
    assert next_one.pid != adopted.pid   # one process per submission
    assert not alive(adopted.pid)


def test_runner_with_weaker_isolation_is_not_adopted(hosts, monkeypatch):
    """A host started without bubblewrap (CUDAJUDGE_SANDBOX=off) keeps a runner that no judge with
    bubblewrap adopts: isolation is part of a host's identity, and adopt() compares what the runner says."""
    from sandbox import bubblewrap
    if not bubblewrap.available():
        pytest.skip("bubblewrap cannot run here")
    config = standby.launch_config(RUNNER, ORACLE, gpu=False, hidden=folders_hidden(load_problem(1)), device=None,
                                   kernel_cache_folder=None)
    weaker = {**config, "isolation": ["rlimits(fsize,data,cpu,nofile,nproc,core=0)"]}
    assert standby.host_folder(hosts, weaker) != standby.host_folder(hosts, config)
    folder = standby.host_folder(hosts, config)   # a weaker host squatting on the judge's own folder
    monkeypatch.setenv("CUDAJUDGE_SANDBOX", "off")
    bubblewrap.available.cache_clear()
    try:
        standby.ensure_host(folder, {**config, "env": {**config["env"]}}, None)
        wait_for_host(hosts)
    finally:
        monkeypatch.delenv("CUDAJUDGE_SANDBOX")
        bubblewrap.available.cache_clear()
    assert standby.adopt(folder, config["isolation"]) is None
    result, started = judged(ACCEPTED, "cpu")
    assert result.verdict == "AC" and not started.standby
    assert any("bubblewrap" in i for i in result.isolation)


def test_child_of_a_failed_build_waits_for_the_next_judge(hosts):
    judged(ACCEPTED, "cpu")
    wait_for_host(hosts)
    broken, offered = judged(ACCEPTED.replace("solve(", "solve_typo(", 1), "cpu")
    assert broken.verdict == "CE" and offered.standby
    after, adopted = judged(ACCEPTED, "cpu")
    assert after.verdict == "AC" and adopted.pid == offered.pid   # it ran no user code: still fresh


def test_the_oracle_a_failed_build_used_is_not_the_next_judges(hosts):
    """Each failed judge gave its oracle problem 1, a seed and data requests: the next judge, of problem 7
    (softmax, ReLU's signature), adopts the waiting runner beside a new oracle and judges ReLU as wrong."""
    judged(ACCEPTED, "cpu")
    wait_for_host(hosts)
    for _ in range(2):
        broken, offered = judged(ACCEPTED.replace("solve(", "solve_typo(", 1), "cpu")
        assert broken.verdict == "CE" and offered.standby
    relu_as_softmax, adopted = judged(ACCEPTED, "cpu", problem=7)
    assert adopted.pid == offered.pid
    assert relu_as_softmax.verdict == "WA", relu_as_softmax.message


@pytest.mark.parametrize("backend", BACKENDS)
def test_endless_solution_in_a_standby_child_is_tle_and_the_next_is_accepted(hosts, backend, monkeypatch):
    judged(ACCEPTED, backend)
    wait_for_host(hosts)
    statuses = []   # each exit status the judge got from the host, and whether it still held the host then
    reap = standby.HostLink.reap

    def recorded_reap(link, timeout):
        code = reap(link, timeout)
        statuses.append((code, link.closed))
        return code

    monkeypatch.setattr(standby.HostLink, "reap", recorded_reap)
    endless, adopted = judged(ENDLESS, backend, tests=("sample/N=8/uniform",))
    assert adopted.standby and endless.verdict == "TLE" and "did not finish" in endless.message
    assert any(code is not None and not closed for code, closed in statuses), statuses   # its end was awaited
    assert not alive(adopted.pid)
    after, next_one = judged(ACCEPTED, backend)
    assert after.verdict == "AC" and next_one.standby, after.message


def test_busy_host_leaves_the_judge_its_own_child(hosts):
    judged(ACCEPTED, "cpu")
    folder = wait_for_host(hosts)
    config = standby.launch_config(RUNNER, ORACLE, gpu=False, hidden=folders_hidden(load_problem(1)), device=None,
                                   kernel_cache_folder=None)
    assert standby.host_folder(hosts, config) == folder
    held = standby.adopt(folder, config["isolation"])
    assert held is not None
    try:
        result, started = judged(ACCEPTED, "cpu")
        assert result.verdict == "AC" and not started.standby
    finally:
        for child in held:
            child.close()


def test_an_adopted_oracle_serves_after_its_runner_has_ended_until_the_judge_lets_go(hosts):
    """A timed judge ends its runner before the oracle times the baseline: the host tells the runner's
    exit and keeps the oracle until the judge lets go of the pair, then retires both."""
    from judge.protocol import Finish, OracleJob, OracleReady, decode, encode, ORACLE_EVENTS
    from judge.submission import problem_files

    judged(ACCEPTED, "cpu")
    folder = wait_for_host(hosts)
    config = standby.launch_config(RUNNER, ORACLE, gpu=False, hidden=folders_hidden(load_problem(1)), device=None,
                                   kernel_cache_folder=None)
    runner, oracle = standby.adopt(folder, config["isolation"])
    runner.on_take()
    runner.send(encode(Finish()))   # before its job: it exits at once
    assert runner.finish(wait_s=10).returncode is not None   # as the host reports it
    time.sleep(0.5)   # what the host would have done on the runner's exit, it has done by now
    oracle_pid = oracle.pid()
    assert alive(oracle_pid)
    problem = load_problem(1)
    oracle.send(encode(OracleJob(problem_files=problem_files(problem), problem_folder_name=problem.folder.name,
                                 exchange=str(oracle.exchange), gpu=False)))
    assert isinstance(decode(ORACLE_EVENTS, oracle.receive(30)), OracleReady)
    oracle.close()
    runner.close()
    deadline = time.monotonic() + 10
    while alive(oracle_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(oracle_pid)   # retired once the judge let go


def test_host_tells_its_judges_the_arch_its_starter_found(hosts):
    config = standby.launch_config(RUNNER, ORACLE, gpu=False, hidden=folders_hidden(load_problem(1)), device=None,
                                   kernel_cache_folder=None)
    folder = standby.host_folder(hosts, config)
    standby.ensure_host(folder, config, "sm_90a")
    wait_for_host(hosts)
    for _ in range(2):   # the next child too: the host tells every judge
        adopted = standby.adopt(folder, config["isolation"])
        assert adopted is not None and adopted[0].arch == "sm_90a"
        for child in adopted:
            child.close()


@pytest.mark.gpu
def test_judge_in_a_standby_child_builds_without_asking_the_driver(hosts, monkeypatch):
    from judge.compilation import arch

    judged(ACCEPTED, "gpu")
    wait_for_host(hosts)
    arch.default_arch.cache_clear()

    def asked():
        raise AssertionError("the build asked the driver for the arch although the standby host told it")
    monkeypatch.setattr(arch, "_nvml_capability", asked)
    monkeypatch.setattr(arch, "_smi_capability", asked)
    result, adopted = judged(ACCEPTED.replace("void solve", "\nvoid solve", 1), "gpu")   # a new build
    assert adopted.standby and result.verdict == "AC" and not result.compile.cached, result.message
    arch.default_arch.cache_clear()


def test_idle_host_ends_with_its_child(hosts, monkeypatch):
    judge_source(load_problem(1), ACCEPTED, backend="cpu", timing=False, patterns=["sample"])   # built: no wait below
    monkeypatch.setenv("CUDAJUDGE_STANDBY_IDLE_S", "3")
    judged(ACCEPTED, "cpu")
    folder = wait_for_host(hosts)
    _, adopted = judged(ACCEPTED, "cpu")   # the host's first child serves this judge; it then starts another
    assert adopted.standby
    deadline = time.monotonic() + 30
    with open(folder / "host.lock", "w") as probe:
        while True:
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break   # the host's lock went with its process
            except BlockingIOError:
                assert time.monotonic() < deadline, "the idle host did not exit"
                time.sleep(0.2)
    waiting = int((folder / "child.pid").read_text())
    assert waiting != adopted.pid and not alive(waiting)
    assert not (folder / "socket").exists()


def test_each_launch_configuration_has_its_own_host(tmp_path, monkeypatch):
    def folder(**changes):
        launch = dict(gpu=False, hidden=[tmp_path / "catalog"], device=None, kernel_cache_folder=None) | changes
        return standby.host_folder(tmp_path, standby.launch_config(RUNNER, ORACLE, **launch))

    plain = folder()
    assert folder() == plain
    assert folder(gpu=True) != plain
    assert folder(hidden=[tmp_path / "other"]) != plain
    assert folder(kernel_cache_folder=tmp_path / "user-2") != plain
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")   # passed to the child: a different child
    assert folder() != plain


@pytest.mark.parametrize("setting", ["ten", "0", "-5"])
def test_bad_idle_setting_is_a_clear_error(hosts, monkeypatch, setting):
    monkeypatch.setenv("CUDAJUDGE_STANDBY_IDLE_S", setting)
    with pytest.raises(ValueError, match="CUDAJUDGE_STANDBY_IDLE_S"):
        judged(ACCEPTED, "cpu")
    assert not list(hosts.glob("*/socket"))


def test_the_runners_status_reaches_a_judge_that_first_asked_before_the_host_had_it(tmp_path):
    """A judge that asks for an adopted runner's exit status before the host has it (a look without
    waiting, as when it closes the runner) still gets it from a later, waiting look."""
    judge_end, host_end = socket.socketpair()
    link = standby.HostLink(judge_end, open(tmp_path / "judge.lock", "w"))
    link.take()
    assert json.loads(host_end.makefile("rb").readline()) == {"taken": True}
    assert link.reap(0) is None
    threading.Timer(0.3, lambda: host_end.sendall(b'{"returncode": -9}\n')).start()
    began = time.monotonic()
    assert link.reap(10.0) == -9
    assert 0.2 < time.monotonic() - began < 5
    link.release()
    host_end.close()
