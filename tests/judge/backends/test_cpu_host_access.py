"""Device memory is closed to solve()'s host code on the CPU backend, as on a GPU (where the process
ends with a segmentation fault): a host access is RE naming the buffer, the element and the line,
and host code that touches only host memory, with the runtime's copies in between, is judged as usual."""
import pytest

from judge.problems.loader import load_problem
from judge.submission import judge_source

KERNEL = ("#include <cuda_runtime.h>\n"
          "#include <cstring>\n"
          "__global__ void relu(const float* in, float* out, int n) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n) out[i] = in[i] > 0 ? in[i] : 0;\n"
          "}\n")


def judged(body: str, backend: str = "cpu"):
    source = KERNEL + 'extern "C" void solve(const float* input, float* output, int N) {\n' + body + "}\n"
    return judge_source(load_problem(1), source, backend=backend, timing=False, patterns=["sample"], seed=5)


@pytest.mark.parametrize("body, line, said", [
    ("    for (int i = 0; i < N; ++i) output[i] = input[i] > 0 ? input[i] : 0;\n", 8, "read `input[0]`"),
    ("    if (input[N - 1] > 1e30f) return;\n    relu<<<(N + 255) / 256, 256>>>(input, output, N);\n", 8,
     "read `input[7]`"),
    ("    relu<<<(N + 255) / 256, 256>>>(input, output, N);\n    std::memset(output, 0, sizeof(float));\n", None,
     "wrote `output[0]`"),
    ("    float* copy;\n    cudaMalloc(&copy, N * sizeof(float));\n"
     "    cudaMemcpy(copy, input, N * sizeof(float), cudaMemcpyDeviceToDevice);\n"
     "    relu<<<(N + 255) / 256, 256>>>(copy, output, N);\n    output[0] = copy[0];\n    cudaFree(copy);\n", 12,
     "read byte 0 of the 32-byte cudaMalloc buffer from line 9"),
])
def test_host_code_that_dereferences_a_device_pointer_is_re_naming_buffer_element_and_line(body, line, said):
    r = judged(body)
    assert r.verdict == "RE", r.message
    assert said in r.message and "which is device memory" in r.message, r.message
    if line is not None:   # libc's memset has no line of the submission
        assert f"solve() (host code) on line {line}" in r.message, r.message


def test_host_code_on_host_memory_between_the_runtimes_copies_is_judged_as_usual():
    r = judged("    float* host = new float[N];\n"
               "    cudaMemcpy(host, input, N * sizeof(float), cudaMemcpyDeviceToHost);\n"
               "    for (int i = 0; i < N; ++i) host[i] = host[i] > 0 ? host[i] : 0;\n"
               "    float* scratch;\n    cudaMalloc(&scratch, N * sizeof(float));\n"
               "    cudaMemcpy(scratch, host, N * sizeof(float), cudaMemcpyHostToDevice);\n"
               "    relu<<<(N + 255) / 256, 256>>>(scratch, output, N);\n"
               "    cudaMemset(scratch, 0, N * sizeof(float));\n    cudaFree(scratch);\n    delete[] host;\n")
    assert r.verdict == "AC", r.message


def test_the_next_test_closes_device_memory_again_after_a_host_access():
    r = judge_source(load_problem(1), KERNEL + 'extern "C" void solve(const float* input, float* output, int N) {\n'
                     "    relu<<<(N + 255) / 256, 256>>>(input, output, N);\n"
                     "    if (N == 8) return;\n    output[0] = 0;\n}\n",
                     backend="cpu", timing=False, patterns=["sample", "edge/N=1025/uniform"], seed=5, fail_fast=False)
    verdicts = {t.name: t.verdict.value for t in r.tests}
    assert verdicts["sample/N=8/uniform"] == "AC" and verdicts["sample/N=1000/uniform"] == "RE", verdicts
    assert verdicts["edge/N=1025/uniform"] == "RE", verdicts


@pytest.mark.parametrize("loop, element", [("for (int i = 0; i < N; ++i)", 0), ("for (int i = N - 1; i >= 0; --i)", 262146)])
def test_a_host_loop_over_a_large_buffer_is_found_at_either_end(loop, element):
    """A large buffer has only its first and last 64 KiB closed (a page's protection costs a page-table update)."""
    source = (KERNEL + 'extern "C" void solve(const float* input, float* output, int N) {\n'
              "    relu<<<(N + 255) / 256, 256>>>(input, output, N);\n"
              f"    {loop} output[i] = output[i] < 0 ? 0 : output[i] + 0.0f * i;\n}}\n")
    r = judge_source(load_problem(1), source, backend="cpu", timing=False, patterns=["shape/N=262147/normal"], seed=5)
    assert r.verdict == "RE" and f"on line 9 read `output[{element}]`" in r.message, r.message


@pytest.mark.gpu
def test_a_gpu_ends_host_code_that_dereferences_a_device_pointer_with_the_same_verdict():
    r = judged("    for (int i = 0; i < N; ++i) output[i] = input[i] > 0 ? input[i] : 0;\n", backend="gpu")
    assert r.verdict == "RE", r.message   # the process ends with a segmentation fault
