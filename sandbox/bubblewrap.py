"""Command lines that run a program inside bubblewrap: no network, a read-only view, a private /tmp.

Two views: a build view (the whole filesystem read-only, no device nodes at all, the build's own
folders writable) and a run view (only the interpreter, the judge's code and the built
submission, plus the GPU's device nodes when the run uses it).
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

DISABLE_ENV = "CUDAJUDGE_SANDBOX"    # "off" turns bubblewrap off (for debugging the judge itself)
COMMON = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
SYSTEM_DIRS = ["/usr", "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"]
GPU_NODES = ["/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset"]
GPU_READ_ONLY = ["/sys", "/proc/driver/nvidia", "/usr/local/nvidia", "/usr/local/cuda", "/etc/OpenCL"]


@lru_cache(maxsize=1)
def available() -> bool:
    """bubblewrap is installed and can make namespaces here (it cannot in every container)."""
    if os.environ.get(DISABLE_ENV) == "off" or shutil.which("bwrap") is None:
        return False
    try:
        probe = subprocess.run(["bwrap", *COMMON, "--ro-bind", "/", "/", "--", "true"], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def executable() -> str:
    """bubblewrap's path, found on this process's PATH: a child's own environment has a clean one."""
    return shutil.which("bwrap") or "bwrap"


def _outermost(paths: list[str]) -> list[str]:
    """Drop paths that an earlier bind already shows: binding one again inside a read-only bind
    fails when it is a symbolic link there (`/usr/local/cuda` -> `cuda-13.0` under `/usr`)."""
    keep: list[Path] = []
    for path in map(Path, paths):
        if not any(k == path or k in path.parents for k in keep):
            keep.append(path)
    return [str(k) for k in keep]


def _binds(flag: str, paths) -> list[str]:
    out: list[str] = []
    for path in dict.fromkeys(str(p) for p in paths):
        if os.path.exists(path):
            out += [flag, path, path]
    return out


def build_command(args: list[str], writable: list[Path]) -> list[str]:
    """A compiler run: everything readable, nothing writable but its own folders (the first one
    also takes the compilers' temporary files), no devices."""
    return [executable(), *COMMON, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            *_binds("--bind", writable), "--setenv", "TMPDIR", str(writable[0]), "--", *args]


def _python_paths(hidden: list[Path]) -> list[str]:
    """What the interpreter needs to start and import the judge's dependencies; never a folder that
    holds one of `hidden` or the host's temporary folder (other runs' folders lie there, and a script
    run from it puts it on sys.path), nor another folder of the repository (tests/ when pytest runs
    the judge; the root when judge.py runs as a script) unless it holds the interpreter (a virtual
    environment): the judge's own code is bound as `code_dirs`."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    interpreter = [Path(p).resolve() for p in prefixes]
    repository = Path(__file__).resolve().parents[1]

    def of_repository(real: Path) -> bool:
        inside = real == repository or repository in real.parents
        return inside and not any(i == real or i in real.parents for i in interpreter)

    paths = set(prefixes)
    paths.update(p for p in sys.path if p and os.path.isdir(p) and not of_repository(Path(p).resolve()))
    keep = []
    kept_out = [h.resolve() for h in [*hidden, Path(tempfile.gettempdir())]]
    for p in paths:
        real = Path(p).resolve()
        if not any(h == real or real in h.parents for h in kept_out):
            keep.append(p)
    return sorted(keep)


def run_command(args: list[str], *, code_dirs: list[Path], read_only: list[Path], hidden: list[Path], gpu: bool,
                env: dict[str, str], gpu_node: str | None = None, writable: list[Path] = ()) -> list[str]:
    """A run child: a minimal read-only view holding the interpreter, the judge's code (code_dirs)
    and the submission's build (read_only); a private /tmp; GPU device nodes only when asked, and
    of the GPUs only `gpu_node` (e.g. /dev/nvidia3) when given; `writable` folders (a kernel cache)
    bound read-write. Nothing under `hidden` (the catalog, the data folder) is in the view."""
    view = ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--dir", "/etc"]
    for link, target in (("/bin", "usr/bin"), ("/lib", "usr/lib"), ("/lib64", "usr/lib64"), ("/sbin", "usr/sbin")):
        if os.path.islink(link):
            view += ["--symlink", target, link]
        elif os.path.isdir(link):
            view += ["--ro-bind", link, link]
    read_only_paths = SYSTEM_DIRS + _python_paths(hidden) + [str(p) for p in code_dirs + read_only]
    if gpu:
        gpu_nodes = [gpu_node] if gpu_node else sorted(glob.glob("/dev/nvidia[0-9]*"))
        view += _binds("--dev-bind", gpu_nodes + GPU_NODES)
        read_only_paths += GPU_READ_ONLY
    view += _binds("--ro-bind", _outermost(read_only_paths)) + _binds("--bind", writable)
    environment = [item for key, value in env.items() for item in ("--setenv", key, value)]
    return [executable(), *COMMON, "--clearenv", *environment, *view, "--chdir", "/tmp", "--", *args]
