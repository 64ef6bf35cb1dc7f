"""The source pipeline's parts: launch rewriting, directives, signatures, the device/host split."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from judge.source import SourceRejected, prepare, rewrite_launches
from judge.source.directives import directives, logical_lines
from judge.source.signature import normalize_type

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "compilation"))
from problem import scan_problem  # noqa: E402


@pytest.mark.parametrize("source, expected", [
    ("k<<<g, b>>>(x);", "cudajudge::launch(k, g, b, 0, 0, 1)(x);"),
    ("k<<<g, b, smem>>>(x, y);", "cudajudge::launch(k, g, b, smem, 0, 1)(x, y);"),
    ("k<<<dim3(1, 2), dim3(3), 4 * sizeof(float), s>>>();", "cudajudge::launch(k, dim3(1, 2), dim3(3), 4 * sizeof(float), s, 1)();"),
    ("scan<256><<<g, 256>>>(a);", "cudajudge::launch(scan<256>, g, 256, 0, 0, 1)(a);"),
    ("ns::k<float, 4><<<g, b>>>(a);", "cudajudge::launch(ns::k<float, 4>, g, b, 0, 0, 1)(a);"),
])
def test_rewrite_launches_single_line(source: str, expected: str):
    assert rewrite_launches(f"void f() {{ {source} }}") == f"void f() {{ {expected} }}"


def test_rewrite_launches_keeps_lines_comments_and_strings():
    source = ("void f() {\n"
              "  // k<<<1, 1>>>(x);\n"
              "  const char* s = \"k<<<1, 1>>>(x)\";\n"
              "  k<<<grid,\n"
              "      block>>>(a,\n"
              "               b);\n"
              "}\n")
    out = rewrite_launches(source)
    assert out.count("\n") == source.count("\n")
    assert out.splitlines()[1:3] == source.splitlines()[1:3]
    assert out.splitlines()[3] == "  cudajudge::launch(k, grid,"
    assert out.splitlines()[4] == "      block, 0, 0, 4)(a,"


def test_rewrite_launches_inside_macros_uses_the_line_of_use():
    source = "#define LAUNCH(n) \\\n  fill<<<(n + 255) / 256, 256>>>(out, n)\n"
    assert rewrite_launches(source) == "#define LAUNCH(n) \\\n  cudajudge::launch(fill, (n + 255) / 256, 256, 0, 0, __LINE__)(out, n)\n"


def test_directives_are_read_as_the_preprocessor_reads_them():
    source = b'#include <cstdio>\n/* a */ #inc\\\nlude "x.h"\n%:include <y.h>\nconst char* s = "#include <z.h>";\nauto r = R"(\n#include <w.h>\n)";\n'
    found = [(d.line, d.end_line, d.name, d.rest) for d in directives(logical_lines(source))]
    assert found == [(1, 1, "include", "<cstdio>"), (2, 3, "include", '"x.h"'), (4, 4, "include", "<y.h>")]


@pytest.mark.parametrize("source, expected", [
    (b'/* a comment *\\\n/\n#include "x.h"\n', [(3, "include", '"x.h"')]),     # closed across a splice
    (b'/\\\n* a comment */\n#include "x.h"\n', [(3, "include", '"x.h"')]),     # opened across a splice
    (b'/\\\n/ a comment \\\n#include "x.h"\n#include "y.h"\n', [(4, "include", '"y.h"')]),
    (b'/* *\\\r\n/ #define A\n', [(1, "define", "A")]),   # a comment is white space before the #
    (b'const char* s = "\\\\\n";\n#include "x.h"\n', [(3, "include", '"x.h"')]),
])
def test_comments_open_and_close_after_line_splicing(source: bytes, expected: list):
    assert [(d.line, d.name, d.rest) for d in directives(logical_lines(source))] == expected


@pytest.mark.parametrize("spelling, canonical", [
    ("int const * __restrict__", "const int*"),
    ("const int* const", "const int*"),
    ("const int", "int"),
    ("unsigned", "unsigned int"),
    ("uint32_t", "unsigned int"),
    ("long int", "long long"),
    ("std::int64_t", "long long"),
    ("float[]", "float*"),
    ("int * const *", "int* const*"),
])
def test_signature_types_are_normalized(spelling: str, canonical: str):
    assert normalize_type(spelling) == canonical


SPLIT_SOURCE = """#include <cstdio>
#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <vector>
constexpr int BLOCK = 256;
__device__ int twice(int v) { return 2 * v; }
__host__ __device__ int half(int v) { return v / 2; }
static int host_only(std::vector<int>& v) { return (int)v.size(); }
template <int B> __global__ void k(const int* in, int* out, int n) { out[0] = twice(in[0]) + half(B); }
extern "C" void solve(const int* input, int* output, int n) {
  k<BLOCK><<<1, BLOCK>>>(input, output, n);
}
"""


def test_split_keeps_lines_and_puts_each_piece_where_it_runs():
    prepared = prepare(scan_problem(), SPLIT_SOURCE)
    device = prepared.units.device.text.decode().splitlines()
    host = prepared.units.host.text.decode().splitlines()
    source = SPLIT_SOURCE.splitlines()
    assert len(device) == len(source) and host[:len(source)] != source
    assert device[0].strip() == "" and device[1].startswith("#include <cuda/std/cstdint>")
    assert device[2] == source[2] and device[3].strip() == ""
    assert device[5] == source[5] and device[6] == source[6] and device[7].strip() == ""
    assert device[9].strip() == "" and device[10].strip() == ""
    assert host[2].strip() == "" and host[3] == source[3]
    assert host[5].strip() == "" and host[6] == source[6] and host[7] == source[7]
    assert host[8].startswith("template <int B> __global__ void k(const int* in, int* out, int n) { cudajudge::launch_pending(")
    assert host[10] == "  cudajudge::launch(k<BLOCK>, 1, BLOCK, 0, 0, 11)(input, output, n);"
    assert prepared.units.pch_headers == ("cuda/std/cstdint", "cub/block/block_reduce.cuh")
    assert [k.expression for k in prepared.kernels] == ["k<BLOCK>"]


def test_refusals_carry_every_finding():
    source = "#include </etc/passwd>\n#include <thrust/for_each.h>\n"
    with pytest.raises(SourceRejected) as refused:
        prepare(scan_problem(), source)
    assert [d.line for d in refused.value.diagnostics] == [1, 2]
    assert "the judge provides <thrust/copy.h>" in refused.value.diagnostics[1].message


def test_own_functions_named_like_runtime_calls_are_not_refused():
    source = ("static void cudaCheck(int e) {}\n#define cudaTry(x) (x)\n"
              "extern \"C\" void solve(const int* input, int* output, int n) { cudaCheck(0); cudaTry(1); }\n")
    assert prepare(scan_problem(), source).kernels == []
