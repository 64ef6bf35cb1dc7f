"""A test's buffers in the runner's exchange file (judge.checking.tests.lay_out): guard bytes around every
buffer, and the inputs copied in, or, for a GPU runner, read from the oracle's data file linked into the
runner's folder."""
from __future__ import annotations

import os
import random
import time

import numpy as np
import pytest

from judge import exchange as X
from judge.checking.data import CaseData
from judge.checking.oracle import DataFile
from judge.checking.tests import lay_out
from judge.problems.loader import load_problem

SAXPY = load_problem(20)   # x in, y in/out
N = 1000


@pytest.fixture
def folders(tmp_path):
    oracle, runner = tmp_path / "oracle", tmp_path / "runner"
    oracle.mkdir()
    runner.mkdir()
    return oracle, runner


def case_data(folder, request: int = 0) -> CaseData:
    """A data file as the oracle writes one, open as the judge side opens it."""
    rng = np.random.default_rng(request)
    arrays = {"x": rng.random(N, dtype=np.float32), "y": rng.random(N, dtype=np.float32)}
    out = DataFile(folder / f"data-{request}.bin")
    slots = {name: out.put(a) for name, a in arrays.items()}
    out.close()
    return CaseData(request, {"n": N, "a": 2.0}, X.open_written(out.path), slots, None, out.path)


def payload(fd: int, slot) -> bytes:
    return bytes(X.read_bytes(fd, slot.offset + slot.payload_offset, slot.nbytes))


def data_bytes(data: CaseData, name: str) -> bytes:
    slot = data.arrays[name]
    return bytes(X.read_bytes(data.fd, slot.offset, slot.count * 4))


def gone(*paths, within_s: float = 5.0) -> bool:
    """Whether the paths are removed within `within_s` (files are released on a thread of their own)."""
    ends = time.monotonic() + within_s
    while any(p.exists() for p in paths) and time.monotonic() < ends:
        time.sleep(0.01)
    return not any(p.exists() for p in paths)


def test_for_a_cpu_runner_every_input_is_copied_between_its_guard_bytes(folders, tmp_path):
    oracle, _ = folders
    data, fd = case_data(oracle), X.create(tmp_path / "exchange", 0)
    buffers = lay_out(SAXPY, data, fd, random.Random(1))
    for name in ("x", "y"):
        slot = buffers.slots[name]
        assert slot.source is None and payload(fd, slot) == data_bytes(data, name)
        before, after = buffers.guards[name]
        assert bytes(X.read_bytes(fd, slot.offset, len(before))) == before and any(before) and any(after)
    data.close()


def test_for_a_gpu_runner_an_input_is_read_from_the_oracle_file_linked_into_its_folder(folders, tmp_path):
    oracle, runner = folders
    data, fd = case_data(oracle), X.create(tmp_path / "exchange", 0)
    buffers = lay_out(SAXPY, data, fd, random.Random(1), link_folder=runner)
    x, y = buffers.slots["x"], buffers.slots["y"]
    assert x.source is not None and x.source.offset == data.arrays["x"].offset
    assert os.path.samefile(runner / x.source.file, data.path)
    assert payload(fd, x) == bytes(x.nbytes)                  # not copied: the runner reads the link
    assert y.source is None and payload(fd, y) == data_bytes(data, "y")   # in/out: put back between calls
    before, after = buffers.guards["x"]
    assert bytes(X.read_bytes(fd, x.offset, len(before))) == before
    assert bytes(X.read_bytes(fd, x.offset + x.payload_offset + x.nbytes, len(after))) == after
    data.close()
    assert gone(runner / x.source.file, data.path)


def test_a_file_planted_where_the_link_goes_is_replaced_and_what_it_points_to_left_alone(folders, tmp_path):
    oracle, runner = folders
    target = tmp_path / "elsewhere"
    target.write_bytes(b"keep")
    (runner / "inputs-0.bin").symlink_to(target)
    data, fd = case_data(oracle), X.create(tmp_path / "exchange", 0)
    buffers = lay_out(SAXPY, data, fd, random.Random(1), link_folder=runner)
    assert os.path.samefile(runner / buffers.slots["x"].source.file, data.path)
    assert target.read_bytes() == b"keep"
    data.close()


def test_where_the_folders_cannot_share_a_file_the_input_is_copied(folders, tmp_path, monkeypatch):
    oracle, runner = folders

    def cross_device(src, dst):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cross_device)
    data, fd = case_data(oracle), X.create(tmp_path / "exchange", 0)
    buffers = lay_out(SAXPY, data, fd, random.Random(1), link_folder=runner)
    x = buffers.slots["x"]
    assert x.source is None and payload(fd, x) == data_bytes(data, "x")
    data.close()


def test_a_file_for_outputs_is_used_again_once_its_check_is_done_and_let_go_at_the_end(folders):
    from judge.checking.data import Oracle

    oracle_folder, _ = folders
    oracle = Oracle(link=None, problem=SAXPY, folder=oracle_folder)
    first = oracle.got_file()
    os.pwrite(first.fd, b"x" * 4096, 0)
    beside = oracle.got_file()   # open while the first is: a file of its own
    assert beside.path != first.path
    first.close()
    again = oracle.got_file()
    assert (again.path, again.fd, again.slots, again.nbytes) == (first.path, first.fd, {}, 0)
    again.close()
    beside.close()
    oracle.close()
    ends = time.monotonic() + 10
    while list(oracle_folder.glob("got-*")) and time.monotonic() < ends:
        time.sleep(0.01)
    assert list(oracle_folder.glob("got-*")) == []
