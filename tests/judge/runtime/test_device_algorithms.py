"""Host-side device-wide algorithms, CUB's Device* and Thrust's, judged on both backends.

tests/judge/runtime/device_algorithms/p<N>_*.cu solves problem N; its first line says the verdict it must get
(`// verdict: AC.`, `WA` for a wrong use of the algorithm, `RE` for a call CUB refuses, `CE "text"` for
a call the judge does not support, with what the diagnostic says).
"""
import re
from pathlib import Path

import pytest

from judge.problems.loader import load_problem
from judge.submission import judge_source

SOLUTIONS = sorted((Path(__file__).resolve().parent / "device_algorithms").glob("p*_*.cu"))


def _expected(path: Path) -> tuple[str, str | None]:
    match = re.match(r'// verdict: (AC|WA|RE|CE)(?: "([^"]+)")?\.', path.read_text())
    return match.group(1), match.group(2)


def _judge(path: Path, backend: str):
    problem = int(path.name[1:].split("_", 1)[0])
    return judge_source(load_problem(problem), path.read_text(), backend=backend, timing=False,
                        patterns=["sample", "edge"], filename=path.name, seed=5)


def _check(path: Path, backend: str) -> None:
    result = _judge(path, backend)
    expected, said = _expected(path)
    messages = [d.message for d in result.compile.diagnostics]
    assert result.verdict == expected, (result.message, messages)
    if expected == "CE":
        assert any(said in m for m in messages), messages
    if expected == "AC":
        assert len(result.tests) >= 5 and all(t.verdict == "AC" for t in result.tests)
    if expected == "RE":
        assert "temp_storage_bytes" in result.message and "line 10" in result.message, result.message


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_verdict_on_the_cpu_backend(path):
    _check(path, "cpu")


@pytest.mark.gpu
@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_verdict_on_the_gpu_backend(path):
    _check(path, "gpu")


SHORT_OUTPUT = """\
#include <cub/device/device_radix_sort.cuh>

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    unsigned int* sorted;
    cudaMalloc(&sorted, (N - 1) * sizeof(unsigned int));
    size_t temp_bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, input, sorted, N);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, input, sorted, N);
    cudaMemcpy(output, sorted, N * sizeof(unsigned int), cudaMemcpyDeviceToDevice);
}
"""


def test_the_cpu_backend_refuses_a_call_that_writes_past_its_buffer():
    """A GPU would write the last key past the buffer unseen; the CPU backend says where, before writing."""
    result = judge_source(load_problem(17), SHORT_OUTPUT, backend="cpu", timing=False, patterns=["sample"],
                          filename="short.cu", seed=5)
    assert result.verdict == "RE"
    assert "cub::DeviceRadixSort::SortKeys on line 10: its output keys touches" in result.message, result.message


@pytest.mark.parametrize("body, said", [
    ("cub::DeviceReduce::Sum(temp, bytes, input, output, N + 4096);", "its input runs 16384 bytes past the end of `input`"),
    ("static float host[16]; cub::DeviceReduce::Sum(temp, bytes, host, output, 16);", "its input is not device memory"),
])
def test_the_cpu_backend_refuses_arrays_that_are_not_the_calls_device_memory(body, said):
    source = ("#include <cub/device/device_reduce.cuh>\n"
              "extern \"C\" void solve(const float* input, float* output, int N) {\n"
              "    void* temp; size_t bytes = 1 << 20; cudaMalloc(&temp, bytes);\n"
              f"    {body}\n}}\n")
    result = judge_source(load_problem(3), source, backend="cpu", timing=False, patterns=["sample"],
                          filename="arrays.cu", seed=5)
    assert result.verdict == "RE" and f"cub::DeviceReduce::Sum on line 4: {said}" in result.message, result.message


DEVICE_VECTOR_PAST_END = """\
#include <thrust/copy.h>
#include <thrust/device_vector.h>

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    thrust::device_vector<unsigned int> keys(input, input + N);
    unsigned int past = keys[N];
    thrust::copy(keys.begin(), keys.end(), output);
    if (past == 12345u) output[0] = 0;
}
"""


def test_the_cpu_backend_refuses_a_device_vector_element_past_its_end():
    """A GPU would read the element past the vector's memory unseen; the CPU backend names the vector's buffer."""
    result = judge_source(load_problem(17), DEVICE_VECTOR_PAST_END, backend="cpu", timing=False, patterns=["sample"],
                          filename="past_end.cu", seed=5)
    assert result.verdict == "RE"
    assert "cudaMemcpy touches 4 bytes past the end of the 32-byte cudaMalloc buffer allocated on line 5" in result.message, \
        result.message
