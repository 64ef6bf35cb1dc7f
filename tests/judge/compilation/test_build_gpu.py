"""Built submissions running on a real GPU, driven the way the harness drives them (needs a GPU)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from judge.compilation import build
from judge.compilation.cache import BuildCache

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "compilation"))
from problem import scan_problem  # noqa: E402

HERE = Path(__file__).parents[2] / "data" / "compilation"


pytestmark = pytest.mark.gpu   # tests/conftest.py skips these without a GPU

_BODY = "extern \"C\" void solve(const int* input, int* output, int n) {{\n{}\n}}\n"
_COPY = ("__global__ void copy(const int* in, int* out, int n) {\n"
         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) out[i] = in[i];\n}\n")


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> BuildCache:
    return BuildCache(tmp_path_factory.mktemp("builds"))


def _run(source: str, cache: BuildCache, n: int, *extra: str) -> dict:
    result = build(scan_problem(), source, cache=cache)
    assert result.ok, result.compile.log
    done = subprocess.run([sys.executable, str(HERE / "gpu_probe.py"), str(result.library), str(result.cubin), str(n),
                           *extra], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["init"] == 0, report["message"]
    return report


@pytest.mark.parametrize("name, expected", [
    ("template_int_kernel.cu", lambda x: x * 256),
    ("cooperative_groups.cu", lambda x: np.concatenate([np.cumsum(w) for w in np.split(x, len(x) // 32)])),
    ("macros.cu", lambda x: x),
    ("runtime_queries.cu", lambda x: x),
    ("namespaced_kernels.cu", lambda x: x + 6),
])
def test_corpus_solutions_compute_what_they_should(name: str, expected, cache: BuildCache):
    n = 4096
    report = _run((HERE / "corpus" / name).read_text(), cache, n)
    assert report["error"] == 0, report["message"]
    assert np.array_equal(np.array(report["output"]), expected(np.arange(n, dtype=np.int64)))


def test_block_reduce_sums_each_block(cache: BuildCache):
    report = _run((HERE / "corpus" / "cub_block_reduce.cu").read_text(), cache, 1024)
    assert report["output"][:4] == [sum(range(b * 256, (b + 1) * 256)) for b in range(4)]


def test_an_invalid_block_is_refused_with_kernel_config_and_line(cache: BuildCache):
    report = _run(_COPY + _BODY.format("    copy<<<1, 2048>>>(input, output, n);"), cache, 64)
    assert report["launches"][0]["status"] == 9 and report["error"] == 9
    assert report["message"] == ("launch of copy<<<1, 2048>>> at line 6 was not made: "
                                 "block dimension x is 2048; the maximum is 1024")


def test_large_dynamic_shared_memory_needs_the_attribute(cache: BuildCache):
    kernel = ("__global__ void big(const int* in, int* out, int n) {\n    extern __shared__ int tile[];\n"
              "    tile[threadIdx.x] = in[threadIdx.x];\n    __syncthreads();\n    out[threadIdx.x] = tile[threadIdx.x];\n}\n")
    report = _run(kernel + _BODY.format("    big<<<1, 64, 96 * 1024>>>(input, output, n);"), cache, 64)
    assert report["error"] == 9 and "need cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize" \
        in report["message"]
    allowed = _BODY.format("    cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);\n"
                           "    big<<<1, 64, 96 * 1024>>>(input, output, n);")
    report = _run(kernel + allowed, cache, 64)
    assert report["error"] == 0 and report["output"] == list(range(64))


def test_cudamalloc_beyond_the_arena_is_refused_and_flagged(cache: BuildCache):
    body = ("    int* scratch = nullptr;\n    cudaError_t e = cudaMalloc(&scratch, 1 << 20);\n"
            "    if (e == cudaSuccess) cudaFree(scratch);\n    cudaMalloc(&scratch, 1 << 30);")
    report = _run(_BODY.format(body), cache, 64, "--arena-bytes", str(64 << 20))
    assert report["memory_exceeded"] == 1 and report["error"] == 2
    assert report["message"].startswith("cudaMalloc of 1073741824 bytes at line 5 does not fit")
    assert report["arena_in_use"] == 0


def test_a_fault_is_attributed_to_its_launch_when_launches_are_checked(cache: BuildCache):
    kernel = "__global__ void wild(int* out) { out[(1 << 30) + threadIdx.x] = 1; }\n"
    report = _run(kernel + _BODY.format("    wild<<<1, 32>>>(output);\n    cudaDeviceSynchronize();"), cache, 64,
                  "--checked")
    assert 700 <= report["error"] < 800   # the driver's word for the fault: illegal address or address space
    assert "in wild<<<1, 32>>> at line 3" in report["message"]


def test_profiled_launches_carry_their_kernel_time(cache: BuildCache):
    source = (HERE / "corpus" / "template_int_kernel.cu").read_text()
    profiled = _run(source, cache, 1 << 20, "--profiled")["launches"]
    assert len(profiled) == 3 and all(launch["elapsed_ms"] > 0 for launch in profiled)
    assert all(launch["elapsed_ms"] == -1 for launch in _run(source, cache, 1 << 20)["launches"])
