"""What a submission prints reaches the Result: the kernels' printf under its test, the run process's
stdout and stderr in the Result's output, cut with a marker when it floods, kept when the process dies."""
import re

import pytest
from rich.console import Console

from judge.checking.console import PART_BYTES
from judge.problems.loader import load_problem
from judge.report import CONSOLE_LINES, render
from judge.result import Verdict
from judge.submission import judge_source

SMALL = "sample/N=8/uniform"
RELU = """#include <cuda_runtime.h>
#include <cstdio>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        KERNEL_PRINT
        out[i] = fmaxf(in[i], 0.0f);
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    HOST_PRINT
    relu<<<(N + 255) / 256, 256>>>(input, output, N);
    AFTER_LAUNCH
}
"""


def relu(kernel_print: str = "", host_print: str = "", after_launch: str = "") -> str:
    return (RELU.replace("KERNEL_PRINT", kernel_print).replace("HOST_PRINT", host_print)
            .replace("AFTER_LAUNCH", after_launch))


def judge(source: str, tests=(SMALL,), backend: str = "cpu"):
    return judge_source(load_problem(1), source, backend=backend, timing=False, patterns=list(tests), seed=5)


def test_kernel_printf_shows_under_its_test():
    r = judge(relu(kernel_print='printf("thread %d\\n", i);'))
    assert r.verdict == Verdict.AC, r.message
    (test,) = r.tests
    assert test.name == SMALL
    assert test.printf == "".join(f"thread {i}\n" for i in range(8))


def test_host_output_shows_in_the_process_output_under_the_running_test():
    r = judge(relu(host_print='printf("host sees N=%d\\n", N); fprintf(stderr, "to stderr\\n");'))
    assert r.verdict == Verdict.AC, r.message
    assert r.tests[0].printf == ""
    (part,) = [p for p in r.output if p.test == SMALL]
    assert part.text.startswith("host sees N=8\nto stderr\n")
    assert not [p for p in r.output if p.test is None and "host sees" in p.text]


def test_output_before_any_test_has_no_test():
    source = relu() + 'struct Loud { Loud() { printf("library loaded\\n"); } } loud;\n'
    r = judge(source)
    assert r.verdict == Verdict.AC, r.message
    assert any(p.test is None and p.text.startswith("library loaded\n") for p in r.output)


def test_a_printf_flood_under_the_cap_is_cut_with_a_marker_and_accepted():
    r = judge(relu(kernel_print='printf("thread %d of a long flood\\n", i);'), tests=("sample/N=1000/uniform",))
    assert r.verdict == Verdict.AC, r.message
    printed = "".join(f"thread {i} of a long flood\n" for i in range(1000))
    text = r.tests[0].printf
    kept, marker = text.rsplit("\n", 1)
    kept += "\n"
    assert printed.startswith(kept) and len(kept) <= PART_BYTES and kept.endswith(" flood\n")
    assert marker == f"… {len(printed) - len(kept)} bytes more"


def test_the_cli_shows_the_first_lines_of_each_text_after_the_tests_and_nothing_when_quiet():
    r = judge(relu(kernel_print='printf("thread %d of a long flood\\n", i);', host_print='printf("host line\\n");'),
              tests=("sample/N=1000/uniform",))
    console = Console(record=True, width=120)
    render(r, console)
    shown = console.export_text()
    tests_at, output_at = shown.index("problem1 tests"), shown.index("\noutput\n")
    assert tests_at < output_at
    section = shown[output_at:]
    assert "sample/N=1000/uniform · printf\n  thread 0 of a long flood\n" in section
    assert f"  thread {CONSOLE_LINES - 1} of a long flood\n  … " in section and f"thread {CONSOLE_LINES} of" not in section
    assert re.search(r"more lines \(--json has them\)\n  … \d+ bytes more\n", section)
    assert "sample/N=1000/uniform · stdout/stderr\n  host line\n" in section
    quiet = Console(record=True, width=120)
    render(r, quiet, quiet=True)
    assert "host line" not in quiet.export_text() and "thread 0" not in quiet.export_text()


def test_a_printf_flood_past_the_cap_is_ole_and_still_shows_its_head():
    r = judge(relu(kernel_print='for (int k = 0; k < 200; ++k) printf("thread %d line %d of a flood\\n", i, k);'),
              tests=("sample/N=1000/uniform",))
    assert r.verdict == Verdict.OLE, r.message
    text = r.tests[0].printf
    assert text.startswith("thread 0 line 0 of a flood\n")
    more = re.search(r"\n… (\d+) bytes more$", text)
    assert more and int(more.group(1)) > 1_000_000


def test_a_stdout_flood_is_ole_and_its_output_is_cut():
    r = judge(relu(host_print='for (int k = 0; k < 2000000; ++k) printf("flooding stdout, line %d\\n", k);'))
    assert r.verdict == Verdict.OLE, r.message
    (part,) = [p for p in r.output if p.test == SMALL]
    assert part.text.startswith("flooding stdout, line 0\nflooding stdout, line 1\n")
    more = re.search(r"\n… (\d+) bytes more$", part.text)
    assert more and int(more.group(1)) > 1_000_000 - PART_BYTES


def test_what_was_printed_before_a_crash_is_shown():
    r = judge(relu(host_print='printf("about to crash at N=%d\\n", N); fprintf(stderr, "no newline here");',
                   after_launch="*(volatile int*)16 = N;"))
    assert r.verdict == Verdict.RE and "SIGSEGV" in r.message, r.message
    (part,) = [p for p in r.output if p.test == SMALL]
    assert part.text == "about to crash at N=8\nno newline here"
    assert "Output tail: about to crash at N=8" in r.tests[0].message


def test_an_endless_solve_that_printed_is_tle_and_shows_what_it_printed():
    r = judge(relu(host_print='printf("entering the loop\\n"); for (volatile int k = 0; k >= 0; k = k < 0 ? k : 1) {}'))
    assert r.verdict == Verdict.TLE, r.message
    (part,) = [p for p in r.output if p.test == SMALL]
    assert part.text == "entering the loop\n"


@pytest.mark.gpu
def test_gpu_kernel_printf_arrives_in_the_tests_printf():
    r = judge(relu(kernel_print='printf("thread %d\\n", i);'), backend="gpu")
    assert r.verdict == Verdict.AC, r.message
    lines = r.tests[0].printf.splitlines()   # every call's (the small test is also run twice), in any thread order
    assert set(lines) == {f"thread {i}" for i in range(8)} and len(lines) % 8 == 0
    assert not [p for p in r.output if p.test == SMALL]
