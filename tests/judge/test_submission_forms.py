"""The forms real solutions come in (judge templates, loose signatures, nvcc's dialect, workspaces
kept across calls, inline PTX, CUB's block primitives), judged the same on both backends:
tests/data/forms/*.cu and the compile-agreement files (tests/data/compile_agreement/) that must also run."""
from pathlib import Path

import pytest

from judge.problems.loader import load_problem
from judge.submission import judge_source

TESTS = Path(__file__).resolve().parents[1] / "data"

# file -> (verdict, line of the first diagnostic or None, words the message or a note must hold)
EXPECTED = {
    "forms/relu_solve_header.cu": ("AC", None, ()),
    "forms/relu_solve_header_extern_c.cu": ("AC", None, ()),
    "forms/relu_loose_signature.cu": ("AC", 9, ("'float*'", "'const float*'", "differs only in const",
                                          "'unsigned int'", "other signedness")),
    "forms/relu_long_length.cu": ("CE", 8, ("parameter 3 ('N') has type 'long', expected 'int'",)),
    "forms/relu_nvcc_spellings.cu": ("AC", None, ()),
    "forms/relu_shadowed_dim3.cu": ("AC", None, ()),
    "forms/relu_shadowed_dim3_from_variables.cu": ("AC", None, ()),
    "forms/relu_static_workspace.cu": ("AC", None, ()),
    "forms/relu_undefined_device_function.cu": ("CE", 3, ("'activate' is declared on line 3 but never defined",)),
    "forms/relu_undefined_host_function.cu": ("CE", 3, ("'blocks_for' is declared on line 3 but never defined",)),
    "forms/relu_inline_ptx_bits.cu": ("AC", None, ()),
    "compile_agreement/inline_ptx.cu": ("AC", None, ()),
    "compile_agreement/cub_block_and_warp_primitives.cu": ("AC", None, ()),
    "compile_agreement/cub_block_exchange_discontinuity_histogram.cu": ("AC", None, ()),
    "forms/relu_cub_block_merge_sort.cu": ("AC", None, ()),
    "forms/relu_launch_from_a_thread.cu": ("AC", None, ()),
}


def _judge(name: str, backend: str):
    return judge_source(load_problem(1), (TESTS / name).read_text(), backend=backend, timing=False,
                        patterns=["sample", "edge"], filename=Path(name).name, seed=5)


def _check(result, name: str) -> None:
    verdict, line, words = EXPECTED[name]
    assert result.verdict == verdict, (result.verdict, result.message, result.compile.diagnostics)
    said = result.message + "\n".join(d.message for d in result.compile.diagnostics)
    for word in words:
        assert word in said, (word, said)
    if line is not None:
        assert result.compile.diagnostics and result.compile.diagnostics[0].line == line, result.compile.diagnostics
    if verdict == "AC":
        assert len(result.tests) > 5 and all(t.verdict == "AC" for t in result.tests)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_form_on_the_cpu_backend(name):
    _check(_judge(name, "cpu"), name)


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_form_on_the_gpu_backend(name):
    _check(_judge(name, "gpu"), name)


def test_every_form_file_has_an_expectation():
    assert sorted(f"forms/{p.name}" for p in (TESTS / "forms").glob("*.cu")) == sorted(n for n in EXPECTED if n.startswith("forms/"))
