"""The CUDA runtime subset a submission may call, and the check that it calls nothing else."""
from __future__ import annotations

import re

from judge.result import Diagnostic
from judge.source.diagnostics import SourceFile
from judge.source.program import Program
from judge.source.syntax import text, walk

SUPPORTED_RUNTIME_CALLS = (
    "cudaMalloc", "cudaFree", "cudaMemset", "cudaMemsetAsync", "cudaMemcpy", "cudaMemcpyAsync",
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaGetLastError", "cudaPeekAtLastError",
    "cudaGetErrorString", "cudaGetErrorName", "cudaFuncSetAttribute", "cudaGetDevice",
    "cudaGetDeviceProperties", "cudaDeviceGetAttribute",
    "cudaOccupancyMaxPotentialBlockSize", "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
)

_RUNTIME_NAME = re.compile(r"^(?:::)?(cuda[A-Z]\w*)$")


def _macro_names(program: Program) -> set[str]:
    return {text(n.child_by_field_name("name")) for n in walk(program.tree.root_node)
            if n.type in ("preproc_def", "preproc_function_def") and n.child_by_field_name("name") is not None}


def check_runtime_calls(program: Program, source: SourceFile) -> list[Diagnostic]:
    """A diagnostic for every call of a cuda* function outside the supported subset."""
    own = {f.name for f in program.functions} | _macro_names(program)
    supported = set(SUPPORTED_RUNTIME_CALLS)
    found = []
    for fragment in program.fragments:
        for node in walk(fragment.root):
            if node.type != "call_expression":
                continue
            function = node.child_by_field_name("function")
            if function is None:
                continue
            if function.type == "template_function":
                function = function.child_by_field_name("name")
            match = _RUNTIME_NAME.match(text(function))
            if not match or match.group(1) in supported or match.group(1) in own:
                continue
            name = match.group(1)
            column = None if fragment.in_macro else function.start_point.column + 1
            found.append(source.diagnostic(
                fragment.file_line(node), column,
                f"{name} is not supported by the judge. Supported CUDA runtime calls: "
                f"{', '.join(SUPPORTED_RUNTIME_CALLS)}", stage="policy"))
    return found
