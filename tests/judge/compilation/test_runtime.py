"""The built host library and its runtime shim, loaded the way the harness loads it (ctypes, own process).

Without a GPU the library still loads (the driver is opened only by cudajudge_init), and the
launch plumbing can be watched: a launch before init is refused, and recorded with its kernel,
configuration and line. The `gpu` tests run solutions for real.
"""
from __future__ import annotations

import ctypes.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from judge.compilation import build
from judge.compilation.cache import BuildCache

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "compilation"))
from problem import scan_problem  # noqa: E402

CORPUS = Path(__file__).parents[2] / "data" / "compilation" / "corpus"

# Run in a child process: loads the library, calls solve, prints what the shim recorded.
_PROBE = r"""
import ctypes, json, sys
lib = ctypes.CDLL(sys.argv[1])
class LaunchInfo(ctypes.Structure):
    _fields_ = [("kernel", ctypes.c_char_p), ("lowered", ctypes.c_char_p), ("grid", ctypes.c_uint * 3),
                ("block", ctypes.c_uint * 3), ("shared_bytes", ctypes.c_size_t), ("line", ctypes.c_int),
                ("status", ctypes.c_int), ("elapsed_ms", ctypes.c_float)]
out = {}
if sys.argv[2] == "init":
    cubin = open(sys.argv[3], "rb").read()
    out["init"] = lib.cudajudge_init(cubin, len(cubin), ctypes.c_ulonglong(0), ctypes.c_size_t(0), None)
else:
    lib.solve.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    lib.solve(None, None, 1000)
    records = []
    for i in range(lib.cudajudge_launch_count()):
        info = LaunchInfo()
        assert lib.cudajudge_launch_record(i, ctypes.byref(info)) == 0
        records.append({"kernel": info.kernel.decode(), "lowered": info.lowered.decode(), "grid": list(info.grid),
                        "block": list(info.block), "shared": info.shared_bytes, "line": info.line, "status": info.status,
                        "elapsed_ms": info.elapsed_ms})
    out["launches"] = records
buffer = ctypes.create_string_buffer(1024)
out["error"] = lib.cudajudge_last_error_message(buffer, len(buffer))
out["message"] = buffer.value.decode()
print(json.dumps(out))
"""


def _probe(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> BuildCache:
    return BuildCache(tmp_path_factory.mktemp("builds"))


def _built(name: str, cache: BuildCache):
    result = build(scan_problem(), (CORPUS / name).read_text(), arch="sm_90", cache=cache)
    assert result.ok, result.compile.log
    return result


def test_library_exports_the_harness_abi(cache: BuildCache):
    result = _built("template_int_kernel.cu", cache)
    symbols = subprocess.run(["nm", "-D", "--defined-only", str(result.library)], capture_output=True, text=True).stdout
    for name in ("solve", "cudajudge_init", "cudajudge_set_stream", "cudajudge_set_checked_launches",
                 "cudajudge_set_profiled_launches", "cudajudge_last_error_message", "cudajudge_memory_exceeded", "cudajudge_arena_in_use",
                 "cudajudge_launch_count", "cudajudge_launch_record", "cudajudge_reset", "cudajudge_shutdown"):
        assert f" T {name}\n" in symbols, name


def test_launches_before_init_are_refused_and_recorded(cache: BuildCache):
    result = _built("dim3_smem_stream.cu", cache)
    seen = _probe(str(result.library), "solve")
    launches = seen["launches"]
    assert [(l["kernel"], l["grid"], l["block"], l["shared"], l["line"]) for l in launches] == [
        ("tile_copy", [32, 1, 1], [32, 8, 1], 1024, 18),
        ("tile_copy", [32, 1, 1], [32, 8, 1], 1024, 19),
    ]
    assert all(l["status"] == 3 and l["lowered"] == "_Z9tile_copyPKiPiii" and l["elapsed_ms"] == -1 for l in launches)
    assert seen["error"] == 3
    assert seen["message"].startswith("launch of tile_copy<<<32, (32, 8, 1), 1024>>> at line 18 was not made")


def test_each_template_instantiation_is_its_own_kernel_and_equal_ones_are_one(cache: BuildCache):
    result = _built("template_int_kernel.cu", cache)
    launches = _probe(str(result.library), "solve")["launches"]
    assert [(l["kernel"], l["block"][0], l["line"]) for l in launches] == [
        ("scale<256>", 256, 15), ("scale<TILE>", 128, 16), ("scale<256>", 256, 17)]


@pytest.mark.skipif(ctypes.util.find_library("cuda") is not None, reason="a CUDA driver is installed here")
def test_init_without_a_driver_says_so(cache: BuildCache):
    result = _built("template_int_kernel.cu", cache)
    seen = _probe(str(result.library), "init", str(result.cubin))
    assert seen["init"] == 100 and "libcuda.so.1" in seen["message"]
