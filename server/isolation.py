"""Isolation the server depends on: the start-up check, and running instructor code sandboxed.

`require_isolation()` refuses to start `cudajudge serve` or `cudajudge worker` on a host where
bubblewrap or the seccomp filter does not work: every submission would then run unconfined.
`run_instructor_code()` is the one way the server runs an uploaded problem's code (reference.py):
in bubblewrap, with a clean environment, rlimits and a deadline, seeing that problem's folder
read-only and nothing of the server's data, database or other problems.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sandbox import bubblewrap
from sandbox.limits import Limits

REPOSITORY = Path(__file__).resolve().parents[1]
INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install bubblewrap libseccomp2)"
INSTRUCTOR_MEMORY = 4 << 30        # the reference on CPU-size tests needs far less
INSTRUCTOR_OUTPUT = 8 << 20        # stdout/stderr go to files: past this, writes fail
# One thread each: CPU seconds then track the wall clock, and thread pools stay small under the memory cap.
THREADS_ENV = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}


class IsolationMissing(ValueError):
    """The host cannot isolate untrusted code; the message says what is missing and what to install."""


# --- the start-up check ---------------------------------------------------------------------------

def bubblewrap_problem() -> str | None:
    if os.environ.get(bubblewrap.DISABLE_ENV) == "off":
        return f"the filesystem sandbox is turned off ({bubblewrap.DISABLE_ENV}=off): unset it"
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed or not on PATH: " + INSTALL_HINT
    if not bubblewrap.available():
        return ("bubblewrap (bwrap) cannot create namespaces on this host (unprivileged user namespaces "
                "may be disabled, e.g. in a container): allow them, or run on a host where bwrap works")
    return None


def seccomp_works() -> bool:
    """The run child's seccomp filter installs: checked in a throwaway process (a filter stays for life)."""
    probe = "import sys\nfrom sandbox import seccomp_filter\nsys.exit(0 if seccomp_filter.install() else 1)"
    try:
        out = subprocess.run([sys.executable, "-c", probe], cwd=REPOSITORY, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0


def require_isolation(what: str) -> None:
    """Raise IsolationMissing unless bubblewrap and seccomp both work here; `what`: the refusing command."""
    problems = [bubblewrap_problem(),
                None if seccomp_works() else "the seccomp filter cannot be installed (pyseccomp and the system's "
                                             "libseccomp are needed): " + INSTALL_HINT + ", and pip install pyseccomp"]
    problems = [p for p in problems if p]
    if problems:
        raise IsolationMissing(f"{what} refuses to start: submissions would run without isolation.\n"
                               + "\n".join(f"- {p}" for p in problems))


# --- instructor code --------------------------------------------------------------------------------

SANDBOX_REQUIRED = ("bubblewrap is required to run instructor code (reference.py) and it does not work on this "
                    "server: " + INSTALL_HINT + " and make sure it can create namespaces here")


class SandboxUnavailable(Exception):
    """Instructor code was not run: bubblewrap does not work here."""


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str


def _environment() -> dict[str, str]:
    """What the child gets: nothing of the server's environment (no secrets, no database URL)."""
    return {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(REPOSITORY), **THREADS_ENV}


def server_folders(settings) -> list[Path]:
    hidden = [settings.data_dir, settings.catalog_dir]
    if settings.url.startswith("sqlite:///"):
        hidden.append(Path(settings.url.removeprefix("sqlite:///")).parent)
    return [p.resolve() for p in hidden]


def run_instructor_code(module: str, folder: Path, settings, timeout_s: float) -> Finished:
    """`python -m module FOLDER` sandboxed. Raises SandboxUnavailable (never runs it unconfined) and
    subprocess.TimeoutExpired past `timeout_s`."""
    if not bubblewrap.available():
        raise SandboxUnavailable(f"{SANDBOX_REQUIRED} (here: {bubblewrap_problem() or 'bwrap fails'})")
    folder = folder.resolve()
    env = _environment()
    # The judge's code and the one entry module: not the rest of the server (its config, migrations).
    package = REPOSITORY / module.split(".")[0]
    code = [REPOSITORY / "judge", REPOSITORY / "sandbox", package / "__init__.py",
            package.joinpath(*module.split(".")[1:]).with_suffix(".py")]
    command = bubblewrap.run_command([sys.executable, "-m", module, str(folder)], code_dirs=code, read_only=[folder],
                                     hidden=server_folders(settings), gpu=False, env=env)
    limits = Limits(output_bytes=INSTRUCTOR_OUTPUT, data_bytes=INSTRUCTOR_MEMORY, cpu_seconds=int(timeout_s) + 5)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                                start_new_session=True, preexec_fn=limits.apply)
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)     # bwrap's child dies with it (--die-with-parent)
            proc.wait()
            raise
        out.seek(0)
        err.seek(0)
        return Finished(proc.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"))
