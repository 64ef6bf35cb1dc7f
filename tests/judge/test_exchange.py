"""Exchange files as the judge side handles them: bytes moved and compared exactly, and nothing a
child plants in a folder it can write (a link to the host's files, a FIFO) is followed or opened."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge import exchange as X


def test_create_removes_a_planted_link_instead_of_writing_through_it(tmp_path):
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    planted = tmp_path / "got-0.bin"
    planted.symlink_to(victim)
    fd = X.create(planted, 16)
    try:
        X.write_bytes(fd, 0, b"outputs")
    finally:
        os.close(fd)
    assert victim.read_bytes() == b"precious"
    assert not planted.is_symlink() and planted.read_bytes()[:7] == b"outputs"


@pytest.mark.parametrize("kind", ["link", "fifo"])
def test_a_written_file_must_be_a_regular_file(tmp_path, kind):
    path = tmp_path / "data-0.bin"
    if kind == "link":
        (tmp_path / "secret").write_bytes(b"host file")
        path.symlink_to(tmp_path / "secret")
    else:
        os.mkfifo(path)   # opening it for reading would block until a writer came
    with pytest.raises(OSError):
        X.open_written(path)


def test_copy_and_compare_ranges_between_files(tmp_path, monkeypatch):
    monkeypatch.setattr(X, "SPAN", 1 << 12)   # several spans on several threads, the last one partial
    data = bytes(range(256)) * 70
    src, dst = X.create(tmp_path / "a", 0), X.create(tmp_path / "b", 0)
    try:
        X.write_bytes(src, 100, data)
        X.copy_range(src, 100, dst, 7, len(data))
        assert X.read_bytes(dst, 7, len(data)) == data
        assert X.first_difference(src, 100, dst, 7, len(data)) is None
        X.write_bytes(dst, 7 + 17000, b"\xff")   # two spans differ: the first difference is the one found
        X.write_bytes(dst, 7 + 9000, b"\xff")
        assert X.first_difference(src, 100, dst, 7, len(data)) == 9000
        with pytest.raises(X.ShortRead) as short:
            X.copy_range(src, 100, dst, 0, len(data) + 1000)
        assert short.value.fd == src
    finally:
        os.close(src)
        os.close(dst)


def test_files_released_just_before_the_process_exits_are_deleted_all_the_same(tmp_path):
    script = f"""
import os
from pathlib import Path
from judge import exchange as X
for i in range(40):
    path = Path({str(tmp_path)!r}) / f"data-{{i}}.bin"
    fd = X.create(path, 8 << 20)
    os.link(path, path.with_suffix(".link"))
    X.write_bytes(fd, (8 << 20) - 4, b"last")
    X.release(fd, path, path.with_suffix(".link"))
"""
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60, cwd=Path(__file__).resolve().parents[2])
    deadline = time.monotonic() + 10
    while any(tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(tmp_path.iterdir()), sorted(p.name for p in tmp_path.iterdir())
