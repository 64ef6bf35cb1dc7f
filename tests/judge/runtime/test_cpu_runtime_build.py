"""Building submissions for the CPU backend: rewrites, diagnostics, cache, sanitizer builds, and
what happens in a process that loads one."""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from cpu.cpu_solution import HERE, build
from judge.compilation.cpu_build import build_cpu
from judge.compilation.cpu_runtime import PREBUILT_DIR, built_runtime, sanitizer_environment
from judge.source.cpu_rewrites import cpu_source

REPO = Path(__file__).resolve().parents[3]

RACY = """\
#include <cuda_runtime.h>
#define LAUNCH(kernel, n, ...) kernel<<<((n) + 127) / 128, 128>>>(__VA_ARGS__)

__global__ void square(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = in[i] * in[i];
}

extern "C" void solve(const float* in, float* out, int n) {
    LAUNCH(square, n, in, out, n);
    cudaDeviceSynchronize();
}
"""


def run_child(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Runs Python code in a fresh process, as the harness does with a submission."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": f"{REPO}:{REPO / 'tests/judge/runtime'}", **(env or {})})


def test_rewrites_keep_every_line_in_place():
    source = (HERE / "correct_kernels.cu").read_text()
    prepared = cpu_source(source)
    original, rewritten = source.splitlines(), prepared.text.splitlines()
    assert len(original) == len(rewritten)
    changed = [(a, b) for a, b in zip(original, rewritten) if a != b]
    assert all("<<<" in a or "__shared__" in a or "return" in a or a.strip().startswith("}") for a, _ in changed)
    assert 'auto* const raw = cudajudge::dynamic_shared<unsigned char>("raw");' in prepared.text
    assert 'thread_local auto* const file_scope_shared = cudajudge::dynamic_shared<float>("file_scope_shared");' in prepared.text
    assert 'cudajudge::launch_deduced("fill", ' in prepared.text
    assert 'auto& s = cudajudge::static_shared<int[BLOCK], 0>("s", "int[BLOCK]");' in prepared.text
    assert 'auto& carry = cudajudge::static_shared<int, 4>("carry", "int");' in prepared.text


def test_launch_in_a_macro_and_kernel_exit_lines():
    prepared = cpu_source(RACY)
    assert "return cudajudge::kernel_return(__LINE__);" in prepared.text.splitlines()[6]
    built = build_cpu(RACY)
    info, library = built.compile, built.library
    assert info.ok and library is not None, info.log


def test_compile_error_is_reported_on_the_users_line():
    source = RACY.replace("out[i] = in[i] * in[i];", "out[i] = in[i] * undefined_name;")
    built = build_cpu(source, filename="mine.cu")
    info, library = built.compile, built.library
    assert not info.ok and library is None
    error = next(d for d in info.diagnostics if d.severity == "error")
    assert (error.file, error.line, error.stage) == ("mine.cu", 8, "host")
    assert "undefined_name" in error.message and error.source_line.strip() == "out[i] = in[i] * undefined_name;"
    assert error.column == error.source_line.index("undefined_name") + 1
    assert "mine.cu:8:" in info.log and "cudajudge/cpu" not in info.log


def test_error_inside_the_runtime_is_anchored_at_the_users_call():
    source = RACY.replace("out[i] = in[i] * in[i];", "double4 d{}; d = __shfl_sync(0xffffffff, d, 0);")
    info = build_cpu(source).compile
    error = next(d for d in info.diagnostics if d.severity == "error")
    assert error.line == 8
    assert "at most 8 bytes" in error.message


def test_cub_umbrella_header_brings_block_primitives_and_device_wide_algorithms():
    source = ("#include <cub/cub.cuh>\n" + RACY).replace(
        "out[i] = in[i] * in[i];", "out[i] = in[i] * in[i]; (void)sizeof(cub::BlockReduce<float, 128>);").replace(
        "LAUNCH(square, n, in, out, n);", "LAUNCH(square, n, in, out, n); size_t bytes = 0; "
                                         "cub::DeviceReduce::Sum(nullptr, bytes, in, out, n);")
    info = build_cpu(source).compile
    assert info.ok, [d.message for d in info.diagnostics]


def test_builds_are_cached_per_source_and_flags(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAJUDGE_CACHE_DIR", str(tmp_path))
    built = build_cpu(RACY)
    first, library = built.compile, built.library
    built = build_cpu(RACY)
    again, same = built.compile, built.library
    built = build_cpu(RACY, filename="other.cu")
    other, different = built.compile, built.library
    assert first.ok and not first.cached and again.cached and not other.cached
    assert same == library != different
    assert library.is_relative_to(tmp_path / "cpu")
    in_package = built_runtime(False).archive.is_relative_to(PREBUILT_DIR)   # built by the install
    assert len(list((tmp_path / "cpu").glob("runtime-*/libcudajudge_cpu.a"))) == (0 if in_package else 1)


def test_a_fault_in_host_code_kills_the_process():
    source = RACY.replace("    cudaDeviceSynchronize();", "    *(volatile int*)nullptr = n;")
    built = build_cpu(source)
    info, library = built.compile, built.library
    assert info.ok, info.log
    child = run_child(f"import ctypes; ctypes.CDLL({str(library)!r}).solve(None, None, 1)")
    assert child.returncode == -signal.SIGSEGV


def test_thread_count_comes_from_the_environment():
    library = build("correct_kernels.cu")
    child = run_child(f"import ctypes; print(ctypes.CDLL({str(library)!r}).cudajudge_cpu_threads())",
                      env={"CUDAJUDGE_CPU_THREADS": "3"})
    assert child.stdout.strip() == "3", child.stderr


def test_sanitizer_build_reports_out_of_bounds_accesses_with_their_line():
    library = build("sanitized_kernels.cu", asan=True)
    code = f"""
import ctypes, json, numpy as np
from cpu.cpu_solution import CpuSolution
s = CpuSolution({str(library)!r})
results = [s.lib.cudajudge_cpu_sanitized()]
x = np.ones(1000, np.float32)
s.call("solve_shift", x, x.size)
results.append([s.error_kind(), s.error_message()])
s.reset()
s.call("solve_copy", x, np.zeros(999, np.float32), x.size)
results.append([s.error_kind(), s.error_message()])
s.reset()
s.call("solve_copy", x, np.zeros(1000, np.float32), x.size)
results.append([s.error_kind(), s.error_message()])
s.reset()
s.lib.cudajudge_cpu_poison(ctypes.c_void_p(x.ctypes.data + 3996), ctypes.c_uint64(4))
s.call("solve_copy", x, np.zeros(1000, np.float32), x.size)
s.lib.cudajudge_cpu_unpoison(ctypes.c_void_p(x.ctypes.data + 3996), ctypes.c_uint64(4))
results.append([s.error_kind(), s.error_message()])
print(json.dumps(results))
"""
    child = run_child(code, env=sanitizer_environment())
    assert child.returncode == 0, child.stderr[-3000:]
    sanitized, shift, copy, clean, poisoned = json.loads(child.stdout.splitlines()[-1])
    assert sanitized == 1
    assert shift[0] == "sanitizer"
    assert shift[1].startswith("invalid memory access in shift_right block (7,0,0) thread (103,0,0): write of 4 bytes on line 7")
    assert copy[0] == "sanitizer" and "heap-buffer-overflow" in copy[1] and "on line 19" in copy[1]
    assert clean == ["", ""]
    assert poisoned[0] == "sanitizer"
    assert poisoned[1].startswith("invalid memory access in copy block (7,0,0) thread (103,0,0): read of 4 bytes on line 19")
