"""The build pipeline end to end: every corpus source builds, or fails where and how it should.

Each file in tests/data/compilation/corpus/ starts with `// expect: ok` or `// expect: error "phrase"`;
for errors, the line marked `// <- error` (or named by a trailing `at line N`) is where an error
with that phrase must be.
"""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

from judge.compilation import build
from judge.compilation import builder as builder_module
from judge.compilation.cache import BuildCache
from judge.compilation.host import exports_entry

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "compilation"))
from problem import scan_problem  # noqa: E402

CORPUS = sorted((Path(__file__).parents[2] / "data" / "compilation" / "corpus").glob("*.cu"))
_EXPECT = re.compile(r'^// expect: (ok|error "(.*)"(?: at line (\d+))?)\s*$')


@pytest.fixture(scope="session")
def cache(tmp_path_factory) -> BuildCache:
    return BuildCache(tmp_path_factory.mktemp("builds"))


@pytest.fixture(scope="session", autouse=True)
def isolated_pch(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CUDAJUDGE_PCH_DIR", str(tmp_path_factory.mktemp("pch")))
        yield


def _expectation(text: str) -> tuple[str | None, int | None]:
    """(phrase or None for success, the marked line or None)."""
    match = _EXPECT.match(text.splitlines()[0])
    assert match, "a corpus file must start with an expectation line"
    phrase = match.group(2).replace('\\"', '"') if match.group(2) is not None else None
    marked = next((n for n, line in enumerate(text.splitlines(), start=1) if "// <- error" in line), None)
    return phrase, int(match.group(3)) if match.group(3) else marked


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 25


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus(path: Path, cache: BuildCache):
    text = path.read_text()
    phrase, marked = _expectation(text)
    result = build(scan_problem(), text, arch="sm_90", cache=cache)
    if phrase is None:
        assert result.ok, result.compile.log
        assert result.cubin.stat().st_size > 0
        assert exports_entry(result.library)
        assert result.kernels and all(k.lowered for k in result.kernels)
        return
    assert not result.ok
    errors = [d for d in result.compile.diagnostics if d.severity == "error"]
    matching = [d for d in errors if phrase in d.message]
    assert matching, f"no error says {phrase!r}:\n{result.compile.log}"
    if marked is not None:
        assert any(d.line == marked for d in matching), f"expected at line {marked}:\n{result.compile.log}"
        assert all(d.source_line is not None for d in matching if d.line)


def test_messages_do_not_show_the_judge_internals(cache: BuildCache):
    for path in CORPUS:
        result = build(scan_problem(), path.read_text(), arch="sm_90", cache=cache)
        log = result.compile.log
        assert "cudajudge" not in log and str(cache.root) not in log and "site-packages" not in log, (path.name, log)


def test_include_of_an_outside_file_is_refused_unread(tmp_path: Path, cache: BuildCache):
    secret = tmp_path / "secret.h"
    marker = "SECRET-MARKER-4f1c2a"
    secret.write_text(f"{marker}\nint {marker.replace('-', '_')};\n")
    for include in (f'#include "{secret}"', f"#include <{secret}>", '#include "../secret.h"',
                    f'#\\\ninclude "{secret}"', f'%:include "{secret}"', f'/* c */ #include "{secret}"'):
        source = f"{include}\nextern \"C\" void solve(const int* input, int* output, int n) {{}}\n"
        result = build(scan_problem(), source, arch="sm_90", cache=cache)
        dumped = result.model_dump_json()
        assert not result.ok and result.nvrtc_s is None and result.host_s is None, include
        assert marker not in dumped and marker.replace("-", "_") not in dumped
        assert result.compile.diagnostics[0].stage == "policy"


def test_a_second_build_comes_from_the_cache(cache: BuildCache):
    text = (Path(__file__).parents[2] / "data" / "compilation" / "corpus" / "template_int_kernel.cu").read_text() + "\n// variant\n"
    first = build(scan_problem(), text, arch="sm_90", cache=cache)
    started = time.perf_counter()
    second = build(scan_problem(), text, arch="sm_90", cache=cache)
    elapsed = time.perf_counter() - started
    assert first.ok and not first.cached
    assert second.cached and second.compile.cached and second.library == first.library
    assert elapsed < 0.05
    assert not build(scan_problem(), text + "\n", arch="sm_90", cache=cache).cached


def test_failures_are_cached_too(cache: BuildCache):
    text = "extern \"C\" void solve(const int* input, int* output, int n) { undefined_name; }\n"
    assert not build(scan_problem(), text, arch="sm_90", cache=cache).ok
    again = build(scan_problem(), text, arch="sm_90", cache=cache)
    assert again.cached and not again.ok and again.compile.diagnostics[0].line == 1


def test_a_compile_past_the_deadline_is_a_compile_error_and_not_cached(cache: BuildCache, monkeypatch):
    monkeypatch.setattr(builder_module, "COMPILE_DEADLINE_S", 0.05)
    text = (Path(__file__).parents[2] / "data" / "compilation" / "corpus" / "cub_block_reduce.cu").read_text() + "\n// slow\n"
    result = build(scan_problem(), text, arch="sm_90", cache=cache)
    assert not result.ok
    assert "exceeded its time limit" in result.compile.diagnostics[0].message
    monkeypatch.undo()
    assert build(scan_problem(), text, arch="sm_90", cache=cache).ok


def test_oversized_binary_and_non_utf8_sources_are_refused(cache: BuildCache):
    cases = {b"x" * (64 * 1024 + 1): "at most", b"int a;\0\n": "NUL", b"int \xff;\n": "UTF-8"}
    for data, phrase in cases.items():
        result = build(scan_problem(), data, arch="sm_90", cache=cache)
        assert not result.ok and phrase in result.compile.diagnostics[0].message


def test_kernel_table_names_template_instantiations(cache: BuildCache):
    text = (Path(__file__).parents[2] / "data" / "compilation" / "corpus" / "template_int_kernel.cu").read_text()
    result = build(scan_problem(), text, arch="sm_90", cache=cache)
    by_expression = {k.expression: k for k in result.kernels}
    assert set(by_expression) == {"scale<256>", "scale<TILE>", "scale<(2 * TILE)>"}
    assert by_expression["scale<256>"].lowered == "_Z5scaleILi256EEvPKiPii"
    assert by_expression["scale<(2 * TILE)>"].lowered == by_expression["scale<256>"].lowered
    assert by_expression["scale<TILE>"].line == 16


def test_build_command_prints_json_and_returns_the_outcome(capsys, monkeypatch, tmp_path: Path):
    from judge.compilation.cli import build_command
    monkeypatch.setenv("CUDAJUDGE_CACHE_DIR", str(tmp_path))
    corpus = Path(__file__).parents[2] / "data" / "compilation" / "corpus"
    assert build_command("83", corpus / "macros.cu", "sm_90", True) == 0
    built = json.loads(capsys.readouterr().out)
    assert built["compile"]["ok"] and built["kernels"][0]["name"] == "copy_kernel"
    assert build_command("83", corpus / "undefined_in_host.cu", "sm_90", False) == 1
    shown = capsys.readouterr().out
    assert "undefined_in_host.cu:10:13: error: 'grid_size' was not declared in this scope" in shown
    assert "^" in shown


def test_concurrent_builds_in_one_process_share_a_fresh_cache(tmp_path: Path):
    """validate --jobs builds in threads: the shared runtime object must not be raced over."""
    from concurrent.futures import ThreadPoolExecutor

    fresh = BuildCache(tmp_path / "builds")
    template = (Path(__file__).resolve().parents[3] / "problems/083-multi-block-scan/starter.cu").read_text()
    sources = [template + f"\n// variant {i}\n" for i in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda s: build(scan_problem(), s, cache=fresh), sources))
    assert all(r.ok for r in results), [r.compile.diagnostics for r in results]
    assert len({r.library for r in results}) == 4 and all(exports_entry(r.library) for r in results)
