"""A run child that is up before its submission exists, so that `cudajudge judge` does not wait for
an interpreter, the judge's imports and (on the GPU) CuPy and a CUDA context.

A standby host is a small background process that the judge command starts the first time. It
keeps one fresh run child waiting, gives it to the first judge that connects to its socket, relays
that child's events under ChildRun's deadlines, and starts the next child as the job begins (as it
ends, for a timed job: a context coming up could disturb the timing).
Every submission still runs in a process of its own that ran nothing before; only the start-up
leaves the learner's wait. A child that never got a job (the build failed) waits for the next one.
After a timed job the next child is also told the same problem and a fresh seed, and makes that
benchmark's data while it waits (judge.harness.ahead); a judge of that problem takes the seed.

A host serves the one launch configuration it was started for (its key: the child's view, its
environment, this interpreter and the judge's code), takes one judge at a time, and exits after
`idle_seconds()` without a job or once its folder is gone. The parent side needs no host: with
none ready, or busy, a judge starts its own child as before.

    python -m sandbox.standby FOLDER     # the host; its configuration and arch come on stdin
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterator

from sandbox.gpus import Gpu
from sandbox.runner import FINAL_EVENTS, ChildOutcome, ChildRun, child_environment, repository_root, run_child

DEFAULT_IDLE_S = 600.0         # a host's CUDA context holds GPU memory: give it back after ten quiet minutes
HELLO_TIMEOUT_S = 5.0          # a host that does not answer this fast is stuck: judge without it
REQUEST_TIMEOUT_S = 1800.0     # the judge builds between adopting a child and sending its job
POLL_S = 2.0                   # how often an idle host looks whether its folder still exists
SOCKET_PATH_MAX = 100          # sun_path holds 108 bytes


def idle_seconds() -> float:
    text = os.environ.get("CUDAJUDGE_STANDBY_IDLE_S", str(DEFAULT_IDLE_S))
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise ValueError(f"CUDAJUDGE_STANDBY_IDLE_S={text!r}: give the seconds a standby host waits for a judge, "
                         f"e.g. {DEFAULT_IDLE_S:g}")
    return seconds


def launch_config(module: str, *, gpu: bool, hidden: list[Path], device: Gpu | None,
                  kernel_cache_folder: Path | None) -> dict:
    """What fixes a run child before its job: what it runs, what it sees, its environment."""
    return {"module": module, "gpu": gpu, "hidden": sorted(str(p) for p in hidden),
            "device": asdict(device) if device else None,
            "kernel_cache_folder": str(kernel_cache_folder) if kernel_cache_folder else None,
            "env": child_environment()}


def _code_fingerprint() -> str:
    """Changes whenever a module a host or its children run changes, so no host serves stale code."""
    digest = hashlib.sha256(sys.executable.encode())
    root = repository_root()
    for package in ("judge", "sandbox"):
        for path in sorted((root / package).rglob("*.py")):
            stat = path.stat()
            digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}\n".encode())
    return digest.hexdigest()


def host_folder(root: Path, config: dict) -> Path:
    key = hashlib.sha256((json.dumps(config, sort_keys=True) + _code_fingerprint()).encode()).hexdigest()[:16]
    return root / key


def _spawn_child(config: dict, inbox: Path) -> ChildRun:
    device = Gpu(**config["device"]) if config["device"] else None
    cache = Path(config["kernel_cache_folder"]) if config["kernel_cache_folder"] else None
    child = run_child(config["module"], job={}, deadline_s=0.0, gpu=config["gpu"], build_dir=inbox,
                      hidden=[Path(p) for p in config["hidden"]], device=device, kernel_cache_folder=cache,
                      env=config["env"])
    child.start()
    return child


def files_digest(files: dict[str, str]) -> str:
    """Names a problem by its files' content: a judge takes a prepared seed only for the same problem."""
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()


def _next_benchmark(job: dict) -> dict:
    """What the child after a timed job prepares: the same problem's benchmark at a fresh seed."""
    return {"problem_files": job["problem_files"], "problem_folder_name": job["problem_folder_name"],
            "seed": secrets.randbits(31)}


def _send(stream, message: dict) -> None:
    stream.write(json.dumps(message).encode() + b"\n")
    stream.flush()


# --- the host -------------------------------------------------------------------------------------

def serve(folder: Path, config: dict, arch: str | None = None) -> None:
    """Keep one child waiting and hand it to the judges that connect, one at a time, until idle.
    `arch`: what the judge that started the host builds for, told to every judge it serves."""
    host_lock = open(folder / "host.lock", "w")
    try:
        fcntl.flock(host_lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return   # another host serves this folder
    path = folder / "socket"
    path.unlink(missing_ok=True)
    for stale in folder.glob("inbox-*"):
        shutil.rmtree(stale, ignore_errors=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    os.chmod(path, 0o600)
    listener.listen(8)
    listener.settimeout(POLL_S)
    (folder / "host.pid").write_text(str(os.getpid()))
    spawned = 0

    def fresh_child(benchmark: dict | None = None) -> ChildRun:
        nonlocal spawned
        spawned += 1
        inbox = folder / f"inbox-{spawned}"
        inbox.mkdir(mode=0o700)
        child = _spawn_child(config, inbox)
        if benchmark is not None:
            child.tell({"prepare": benchmark})
        (folder / "child.pid").write_text(str(child.pid()))
        return child

    def retire(child: ChildRun) -> None:
        child.close()
        shutil.rmtree(child.inbox, ignore_errors=True)

    waiting, benchmark = fresh_child(), None
    try:
        while (connection := _accept(listener, folder)) is not None:
            if waiting.exited():   # it died waiting (killed, the driver failed): this judge gets another
                retire(waiting)
                waiting, benchmark = fresh_child(), None
            with connection:
                stream = connection.makefile("rwb")
                request = _offer(stream, waiting, benchmark, arch)
                if request is None:
                    continue   # the judge left before a job (its build failed): the child stays fresh
                # The next child comes up while this one runs, ready for a judge that follows at once;
                # after a timed run instead, so that its start (a CUDA context) cannot disturb the timing,
                # and it then prepares the benchmark that the learner's next submission will likely need.
                timed = bool(request["job"].get("timing"))
                running, waiting = waiting, (None if timed else fresh_child())
                benchmark = _next_benchmark(request["job"]) if timed and config["gpu"] else None
                try:
                    _run(stream, running, request)
                finally:
                    retire(running)
                waiting = waiting or fresh_child(benchmark)
    finally:
        if waiting is not None:
            retire(waiting)
        listener.close()
        path.unlink(missing_ok=True)


def _accept(listener: socket.socket, folder: Path) -> socket.socket | None:
    """The next judge's connection; None once the host has been idle too long or its folder is gone."""
    idle_until = time.monotonic() + idle_seconds()
    while time.monotonic() < idle_until and folder.is_dir():
        try:
            connection, _ = listener.accept()
        except socket.timeout:
            continue
        connection.settimeout(REQUEST_TIMEOUT_S)
        return connection
    return None


def _offer(stream, child: ChildRun, benchmark: dict | None, arch: str | None) -> dict | None:
    """Tell the judge on `stream` where `child` takes its build, for which arch, and which benchmark
    it prepares; the job it sends back, or None."""
    prepared = {"problem": files_digest(benchmark["problem_files"]), "seed": benchmark["seed"]} if benchmark else None
    try:
        _send(stream, {"inbox": str(child.inbox), "isolation": child.job["isolation"], "pid": child.pid(),
                       "prepared": prepared, "arch": arch})
        line = stream.readline()
        return json.loads(line) if line else None
    except (OSError, ValueError):
        return None


def _run(stream, child: ChildRun, request: dict) -> None:
    """Run the judge's job in `child` and relay its events, then how it ended. After its last event
    the judge is answered at once; the host waits for the child's exit (and tidies its kernel cache)."""
    child.job.update(request["job"])
    child.deadline_s = float(request["deadline_s"])
    answered = False
    try:
        for event in child.events():
            if answered:
                continue
            _send(stream, event)
            if event["event"] in FINAL_EVENTS:
                _send(stream, {"outcome": asdict(child.outcome_so_far())})
                answered = True
        if not answered:
            _send(stream, {"outcome": asdict(child.outcome)})
    except OSError:
        pass   # the judge went away mid-run: retiring the child ends it


# --- the judge's side -----------------------------------------------------------------------------

@dataclass
class StandbyChild:
    """A host's waiting child, adopted for one submission; used like a ChildRun."""
    connection: socket.socket
    lock: object
    inbox: Path
    pid: int
    deadline_s: float
    job: dict
    prepared: dict | None = None   # {"problem": files_digest, "seed"}: the benchmark the child made while waiting
    arch: str | None = None        # the GPU architecture to build for, as the host's starter found it
    outcome: ChildOutcome = field(default_factory=ChildOutcome)

    def start(self) -> None:
        pass   # it is up already

    def events(self) -> Iterator[dict]:
        self.connection.settimeout(None)   # the host enforces the deadlines
        stream = self.connection.makefile("rwb")
        try:
            _send(stream, {"job": self.job, "deadline_s": self.deadline_s})
            for line in stream:
                message = json.loads(line)
                if "outcome" in message:
                    self.outcome = ChildOutcome(**message["outcome"])
                    return
                yield message
        except OSError:
            pass
        finally:
            self.close()
        yield {"event": "internal_error", "message": "the standby process that ran this submission ended early"}

    def close(self) -> None:
        self.connection.close()
        self.lock.close()


def adopt(folder: Path, deadline_s: float) -> StandbyChild | None:
    """The waiting child of the host serving `folder` (see host_folder), when one is up and free; else None."""
    path = folder / "socket"
    if len(str(path)) > SOCKET_PATH_MAX or not path.exists():
        return None
    lock = open(folder / "judge.lock", "w")
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)   # held while this judge uses the host
        connection.settimeout(HELLO_TIMEOUT_S)
        connection.connect(str(path))
        hello = json.loads(connection.makefile("rb").readline())
    except (OSError, ValueError):
        connection.close()
        lock.close()
        return None
    return StandbyChild(connection, lock, Path(hello["inbox"]), hello["pid"], deadline_s,
                        {"isolation": hello["isolation"]}, hello.get("prepared"), hello.get("arch"))


def ensure_host(folder: Path, config: dict, arch: str | None = None) -> None:
    """Start the host for `config` in `folder` (its host_folder) in the background unless one runs;
    it is ready for the next judge. `arch`: the GPU architecture the host's children are built for,
    told to the judges it serves so that they need not ask the driver (NVML takes about 80 ms)."""
    idle_seconds()   # a bad setting is the user's to fix, not a host that dies at its start
    if len(str(folder / "socket")) > SOCKET_PATH_MAX:
        return
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(folder / "host.lock", "w") as probe:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return   # a host holds it
    with open(folder / "host.log", "wb") as log:
        host = subprocess.Popen([sys.executable, "-m", "sandbox.standby", str(folder)], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=log, cwd=repository_root(), start_new_session=True,
                                env={**os.environ, "PYTHONPATH": config["env"]["PYTHONPATH"]})
    host.stdin.write(json.dumps({"config": config, "arch": arch}).encode())
    host.stdin.close()


def stop_host(folder: Path) -> None:
    """End the host serving `folder`, if one does (by the id it wrote), and wait until it is gone."""
    try:
        pid = int((folder / "host.pid").read_text())
    except (OSError, ValueError):
        return
    with open(folder / "host.lock", "w") as probe:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return   # nobody holds the lock: that pid is no host of ours any more
        except BlockingIOError:
            pass
        os.kill(pid, signal.SIGTERM)
        fcntl.flock(probe, fcntl.LOCK_EX)   # the host's lock goes with its process


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))   # so that its waiting child is ended too
    told = json.loads(sys.stdin.read())
    serve(Path(sys.argv[1]), told["config"], told["arch"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
