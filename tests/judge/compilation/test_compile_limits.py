"""The compilers' caps on the CPU backend: a compile bomb ends within the caps as a compile error
that names the cap it hit, and is not cached; a normal solution still builds under them.

Each source gets a unique comment, so that no earlier build in the cache answers for it.
"""
import shutil
import time
import uuid
from pathlib import Path

import pytest

from judge.compilation.cpu_build import build_cpu
from judge.compilation.process import COMPILER_TIME_S

ROOT = Path(__file__).resolve().parents[3]
MACRO_BOMB = (ROOT / "tests/data/hostile/macro_bomb.cu").read_text()
INTEGER_PACK_BOMB = (ROOT / "tests/data/hostile/integer_pack_bomb.cu").read_text()
NORMAL = (ROOT / "problems/001-relu/solutions/accepted/naive.cu").read_text()
MEMORY = "compilation exceeded its memory limit (2 GiB)"
SLACK_S = 10   # parsing, rewriting and process start-up around the compiler


def unique(text: str) -> str:
    return f"{text}\n// {uuid.uuid4()}\n"


@pytest.fixture(scope="module", autouse=True)
def runtime():
    """The CPU runtime is built once, before any build is timed."""
    info = build_cpu(NORMAL).compile
    assert info.ok, info.log


def timed_build(text: str, **options):
    started = time.perf_counter()
    built = build_cpu(text, **options)
    info, library = built.compile, built.library
    return info, library, time.perf_counter() - started


def test_a_macro_bomb_hits_the_memory_cap():
    # A loaded machine (the suite runs on every core) compiles slower: the time cap is set wide, so
    # that the memory cap is what ends the bomb wherever it runs.
    time_cap_s = 6 * COMPILER_TIME_S
    info, library, seconds = timed_build(unique(MACRO_BOMB), filename="macro_bomb.cu", timeout_s=time_cap_s)
    assert not info.ok and library is None
    assert [d.message for d in info.diagnostics] == [MEMORY]
    assert seconds < time_cap_s


def test_an_integer_pack_bomb_hits_the_time_cap_and_is_not_cached():
    source = unique(INTEGER_PACK_BOMB)
    for _ in range(2):
        info, library, seconds = timed_build(source, timeout_s=3)
        assert not info.ok and library is None and not info.cached
        assert [d.message for d in info.diagnostics] == ["compilation exceeded its time limit (3 s)"]
        assert seconds < 3 + SLACK_S


def test_an_integer_pack_bomb_ends_within_the_default_caps():
    info, library, seconds = timed_build(unique(INTEGER_PACK_BOMB))
    assert not info.ok and library is None
    assert [d.message for d in info.diagnostics] in (
        [MEMORY], [f"compilation exceeded its time limit ({COMPILER_TIME_S:g} s)"])
    assert seconds < COMPILER_TIME_S + SLACK_S


def test_a_catalog_solution_still_builds_under_the_caps():
    info, library, _ = timed_build(unique(NORMAL))
    assert info.ok and not info.cached, info.log
    assert library is not None and library.stat().st_size > 0
    shutil.rmtree(library.parent)   # a one-off source: keep it out of the cache
