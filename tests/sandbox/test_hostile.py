"""Hostile submissions on each backend: each gets its expected verdict and message, nothing
escapes the sandbox, and the next normal submission is still accepted.

A case file says what it expects in its first lines: `// expect: VERDICT`, optionally
`// message: phrase` and `// problem: N`, and `// what: ...`; `// expect-gpu:` and
`// message-gpu:` say where the GPU backend differs; `// machine: x86_64` runs a case only on that
architecture (`platform.machine()`). Most attacks are written so that their
success would change the answer: a blocked attack is AC, an escape WA.
"""
from __future__ import annotations

import os
import platform
import re
import socket
import threading
from pathlib import Path

import pytest

from judge.cache_paths import cpu_build_root
from judge.problems.loader import load_problem
from judge.submission import judge_source
from sandbox import bubblewrap

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((Path(__file__).parents[1] / "data" / "hostile").glob("*.cu"))
NORMAL = ROOT / "problems/001-relu/solutions/accepted/naive.cu"
ONE_TEST = ["sample/N=8/uniform"]
HEADER = re.compile(r"^// (expect(?:-gpu)?|message(?:-gpu)?|problem|machine|what): ?(.*)$")
BACKENDS = [pytest.param("cpu"), pytest.param("gpu", marks=pytest.mark.gpu)]


def header(text: str) -> dict[str, str]:
    fields = {}
    for line in text.splitlines():
        m = HEADER.match(line)
        if not m:
            break
        fields[m.group(1)] = m.group(2).strip()
    return fields


class Listener:
    """A loopback TCP server standing in for the judge server: did anything connect?"""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
                self.connections += 1
                conn.close()
            except OSError:
                pass

    def close(self):
        self.stop = True
        self.thread.join()
        self.sock.close()


@pytest.fixture
def secret_env(monkeypatch):
    monkeypatch.setenv("CUDAJUDGE_TEST_SECRET", "hunter2")


def other_submission_path() -> Path:
    """Another learner's build, where the build cache keeps it (one per test process: xdist workers share the cache)."""
    return cpu_build_root() / "builds" / f"zz-other-submission-{os.getpid()}" / "solution.cu"


@pytest.fixture(autouse=True)
def other_submission():
    path = other_submission_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("// someone else's solution\n")
    yield path
    path.unlink()
    path.parent.rmdir()


def render(text: str, outside: Path, port: int) -> str:
    return (text.replace("@REPO@", str(ROOT)).replace("@OTHER_SUBMISSION@", str(other_submission_path()))
            .replace("@OUTSIDE@", str(outside)).replace("@PORT@", str(port)))


def judge(problem: int, source: str | bytes, backend: str = "cpu", tests=ONE_TEST):
    return judge_source(load_problem(problem), source, backend=backend, timing=False, patterns=tests, seed=3)


def test_corpus_is_large_enough():
    assert len(CASES) >= 40


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_hostile_case(path: Path, backend: str, tmp_path: Path, secret_env):
    fields = header(path.read_text())
    if fields.get("machine", platform.machine()) != platform.machine():
        pytest.skip(f"{fields['what']}: only on {fields['machine']}")
    suffix = "-gpu" if backend == "gpu" else ""
    expect = fields.get("expect" + suffix, fields["expect"])
    message = fields.get("message" + suffix, fields.get("message", "") if expect == fields["expect"] else "")
    listener = Listener()
    try:
        result = judge(int(fields.get("problem", 1)), render(path.read_text(), tmp_path, listener.port), backend)
    finally:
        listener.close()
    assert result.verdict == expect, f"{fields['what']}: {result.verdict.value}: {result.message}"
    assert message in result.message
    assert listener.connections == 0, "the submission reached the listener"
    assert not (tmp_path / "escaped").exists(), "the submission wrote outside its sandbox"
    after = judge(1, NORMAL.read_text(), backend)
    assert after.verdict == "AC", f"the next normal submission after {path.stem}: {after.message}"


@pytest.mark.parametrize("name,source,phrase", [
    ("huge", "// " + "x" * 70_000 + "\n", "64 KiB"),
    ("binary", bytes(range(256)) * 8, ""),
    ("not_utf8", "// caf\xe9\n".encode("latin-1") + NORMAL.read_bytes(), "UTF-8"),
    ("nul_byte", NORMAL.read_bytes().replace(b"\n", b"\n\0", 1), "NUL"),
])
def test_hostile_bytes_are_refused_before_compiling(name, source, phrase):
    result = judge(1, source)
    assert result.verdict == "CE" and phrase in result.message, result.message


@pytest.mark.skipif(not bubblewrap.available(), reason="bubblewrap cannot run here")
@pytest.mark.parametrize("backend", BACKENDS)
def test_nothing_outside_the_view_is_readable(backend, tmp_path, monkeypatch):
    """The same probe is AC in the sandbox and WA without it: the check can fail."""
    probe = (Path(__file__).parent / "hostile_probe" / "read_everything.cu").read_text()
    source = render(probe, tmp_path, 0)
    (tmp_path / "visible").write_text("outside")
    inside = judge(1, source, backend)
    assert inside.verdict == "AC", inside.message
    monkeypatch.setenv(bubblewrap.DISABLE_ENV, "off")
    bubblewrap.available.cache_clear()
    try:
        outside = judge(1, source, backend)
    finally:
        bubblewrap.available.cache_clear()
    assert outside.verdict == "WA"
