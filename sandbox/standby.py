"""A runner that is up before its submission exists, so that `cudajudge judge` does not wait for an
interpreter, the runner's imports and (on the GPU) CuPy and a CUDA context.

A standby host is a small background process that the judge command starts the first time. It keeps
one fresh runner waiting and hands it to the first judge that connects to its socket: the runner's
pid and its channel (stdin, events, output file) pass to the judge as file descriptors, and from then
on the judge drives the runner itself, deadlines included, exactly as one it started; the host only
reaps it, tells the judge its exit status, and retires the pair once the judge lets go of it (the
oracle may outlive the runner: a timed judge's baseline is timed after it). The next pair starts
once the job has ended: two interpreters coming up beside a judge slow it on a small machine, and on
the GPU a context coming up could disturb the timing. Every submission still runs in a process of
its own that ran nothing before. A runner that never got a job (the build failed) waits for the
next judge beside a new oracle: the old one got that judge's problem, seed and data requests.

A host serves the one launch configuration it was started for (its key: the runner's view, its
isolation, its environment, this interpreter and the judge's code), takes one judge at a time, and
exits after `idle_seconds()` without a job or once its folder is gone. A judge adopts a runner only
when the isolation it reports equals what the judge would start itself; with no host ready, or busy,
a judge starts its own runner.

    python -m sandbox.standby FOLDER     # the host; its configuration and arch come on stdin
"""
from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

from judge.digest import digest
from sandbox.gpus import Gpu
from sandbox.runner import ORACLE_FILE_BYTES, Child, Started, child_environment, isolation_of, repository_root, run_child

DEFAULT_IDLE_S = 600.0         # a host's CUDA context holds GPU memory: give it back after ten quiet minutes
HELLO_TIMEOUT_S = 5.0          # a host that does not answer this fast is stuck: judge without it
REQUEST_TIMEOUT_S = 1800.0     # the judge builds between adopting a runner and taking it
FOLDER_POLL_S = 2.0            # how often an idle host looks whether its folder still exists
REAP_POLL_S = 0.05
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


def launch_config(module: str, oracle: str, *, gpu: bool, hidden: list[Path], device: Gpu | None,
                  kernel_cache_folder: Path | None) -> dict:
    """What fixes a runner (and the oracle beside it) before its job: what it runs, what it sees, how it
    is isolated, its environment."""
    return {"module": module, "oracle": oracle, "gpu": gpu, "hidden": sorted(str(p) for p in hidden),
            "device": asdict(device) if device else None,
            "kernel_cache_folder": str(kernel_cache_folder) if kernel_cache_folder else None,
            "isolation": isolation_of(gpu), "env": child_environment()}


def _code_fingerprint() -> str:
    """Changes whenever a module a host or its children run changes, so no host serves stale code."""
    root = repository_root()
    stamps = []
    for package in ("judge", "sandbox"):
        for path in sorted((root / package).rglob("*.py")):
            stat = path.stat()
            stamps.append(f"{path}:{stat.st_mtime_ns}:{stat.st_size}")
    return digest(sys.executable, *stamps)


def host_folder(root: Path, config: dict) -> Path:
    key = digest(json.dumps(config, sort_keys=True), _code_fingerprint(), hex_digits=16)
    return root / key


def _spawn(config: dict, folder: Path, role: str) -> Child:
    """The runner (role "runner") or the oracle ("oracle"), started, with `folder` (made here) as its
    inbox; the oracle sees no kernel cache."""
    folder.mkdir(mode=0o700)
    if role == "runner":
        module, extra = config["module"], {"kernel_cache_folder": Path(config["kernel_cache_folder"])
                                           if config["kernel_cache_folder"] else None}
    else:
        module, extra = config["oracle"], {"file_bytes": ORACLE_FILE_BYTES}
    child = run_child(module, gpu=config["gpu"], build_dir=folder, hidden=[Path(p) for p in config["hidden"]],
                      device=Gpu(**config["device"]) if config["device"] else None, env=config["env"], **extra)
    child.start()
    return child


def _send(stream, message: dict) -> None:
    stream.write(json.dumps(message).encode() + b"\n")
    stream.flush()


# --- the host -------------------------------------------------------------------------------------

def serve(folder: Path, config: dict, arch: str | None = None) -> None:
    """Keep one runner waiting and hand it to the judges that connect, one at a time, until idle.
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
    listener.settimeout(FOLDER_POLL_S)
    (folder / "host.pid").write_text(str(os.getpid()))
    spawned = 0

    def fresh_child() -> tuple[Child, Child]:
        nonlocal spawned
        spawned += 1
        inbox = folder / f"inbox-{spawned}"
        inbox.mkdir(mode=0o700)
        pair = (_spawn(config, inbox / "runner", "runner"), _spawn(config, inbox / "oracle", "oracle"))
        (folder / "child.pid").write_text(str(pair[0].pid()))
        return pair

    def fresh_oracle(pair: tuple[Child, Child]) -> tuple[Child, Child]:
        """The runner of `pair` beside a new oracle: the old one may hold a judge's job. The new one gets a
        folder of its own, since a sandboxed oracle may still write a last file as it dies."""
        nonlocal spawned
        spawned += 1
        runner, oracle = pair
        oracle.close()
        shutil.rmtree(oracle.inbox, ignore_errors=True)   # what is left goes with the pair's folder
        return runner, _spawn(config, runner.inbox.parent / f"oracle-{spawned}", "oracle")

    def retire(pair: tuple[Child, Child]) -> None:
        for child in pair:
            child.close()
        shutil.rmtree(pair[0].inbox.parent, ignore_errors=True)

    waiting: tuple[Child, Child] | None = fresh_child()
    try:
        while (connection := _accept(listener, folder)) is not None:
            if any(c.started.reap(0) is not None for c in waiting):   # one died waiting: a new pair
                retire(waiting)
                waiting = fresh_child()
            with connection:
                if not _offer(connection, waiting, arch):
                    # The judge left before taking the runner (its build failed): the runner ran nothing and
                    # waits for the next judge, but the oracle got this judge's problem, seed and requests.
                    waiting = fresh_oracle(waiting)
                    continue
                running, waiting = waiting, None
                try:
                    _reap_for(connection, running)
                finally:
                    retire(running)
                waiting = fresh_child()
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


def _offer(connection: socket.socket, pair: tuple[Child, Child], arch: str | None) -> bool:
    """Hand the runner and oracle of `pair` to the judge on `connection`: their inboxes, isolation and
    pids, and their channels' file descriptors. Whether the judge took them for a job (it leaves
    without when its build failed)."""
    hello = {"children": [{"inbox": str(c.inbox), "isolation": c.isolation, "pid": c.started.pid} for c in pair],
             "arch": arch}
    try:
        socket.send_fds(connection, [json.dumps(hello).encode() + b"\n"],
                        [fd for c in pair for fd in (c.started.commands, c.started.events, c.started.output)])
        line = connection.makefile("rb").readline()
        return bool(line) and json.loads(line)["taken"] is True
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _reap_for(connection: socket.socket, pair: tuple[Child, Child]) -> None:
    """Wait for the judge's runner to exit and tell the judge its status, then for the judge to let go of
    the pair: it may still use the oracle (a timed judge's baseline is timed once the runner has ended).
    The pair is retired when the judge goes away, which ends a runner that still runs."""
    connection.setblocking(False)
    while (code := pair[0].started.reap(REAP_POLL_S)) is None:
        try:
            if connection.recv(1) == b"":
                return   # the judge went away: retiring the runner ends it
        except BlockingIOError:
            pass
        except OSError:
            return
    connection.setblocking(True)
    try:
        connection.sendall(json.dumps({"returncode": code}).encode() + b"\n")
        while connection.recv(1) != b"":
            pass
    except OSError:
        pass


# --- the judge's side -----------------------------------------------------------------------------

def adopt(folder: Path, isolation: list[str]) -> tuple[Child, Child] | None:
    """The waiting runner and oracle of the host serving `folder` (see host_folder), when they are up,
    free and isolated exactly as `isolation` says children this judge starts would be; else None."""
    path = folder / "socket"
    if len(str(path)) > SOCKET_PATH_MAX or not path.exists():
        return None
    lock = open(folder / "judge.lock", "w")
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    fds: list[int] = []
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)   # held while this judge uses the host
        connection.settimeout(HELLO_TIMEOUT_S)
        connection.connect(str(path))
        data, fds, _, _ = socket.recv_fds(connection, 1 << 16, 6)
        hello = json.loads(data)
        if len(fds) != 6 or any(c.get("isolation") != isolation for c in hello["children"]):
            raise ValueError("not the runner this judge would start")
    except (OSError, ValueError, KeyError, TypeError):
        for fd in fds:
            os.close(fd)
        connection.close()
        lock.close()
        return None
    link = HostLink(connection, lock)
    (runner, oracle) = pair = tuple(Child([], inbox=Path(c["inbox"]), isolation=c["isolation"], arch=hello.get("arch"))
                                    for c in hello["children"])
    runner.on_take = link.take
    runner.started = Started(int(hello["children"][0]["pid"]), *fds[0:3], link.reap)
    # The host ends the oracle when the judge lets go of it (link.release): the judge neither waits for it
    # nor kills it.
    oracle.started = Started(int(hello["children"][1]["pid"]), *fds[3:6], link.release)
    return pair


class HostLink:
    """The judge's connection to the host of an adopted runner."""

    def __init__(self, connection: socket.socket, lock):
        self.connection, self.lock = connection, lock
        self.stream = connection.makefile("rwb")
        self.taken = self.closed = False
        self.code: int | None = None

    def take(self) -> None:
        """Tell the host this judge runs a job in its runner (before the first command)."""
        self.taken = True
        _send(self.stream, {"taken": True})

    def reap(self, timeout: float) -> int | None:
        """The runner's exit status as the host reports it within `timeout` seconds; 0 for a runner
        never taken: it stays the host's, waiting for the next judge."""
        if not self.taken:
            return 0
        if self.code is None and not self.closed:
            # Waited for by select, not by a socket timeout: a read that times out leaves the stream
            # unreadable, and every later look would find no status at once instead of waiting for it.
            if not select.select([self.connection], [], [], max(timeout, 0.0))[0]:
                return None
            self.connection.settimeout(HELLO_TIMEOUT_S)   # the rest of a line the host has begun
            try:
                line = self.stream.readline()
            except OSError:
                line = b""
            try:
                self.code = int(json.loads(line)["returncode"])
            except (ValueError, KeyError, TypeError):
                self.code = -signal.SIGKILL   # the host went away: it ended the runner with itself
        return self.code

    def release(self, timeout: float = 0.0) -> int:
        """The judge is done with the pair (it closes the oracle's channel): the host retires both, and a
        runner never taken stays the host's for the next judge."""
        if not self.closed:
            self._close()
        return 0

    def _close(self) -> None:
        self.closed = True
        self.stream.close()
        self.connection.close()
        self.lock.close()
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
