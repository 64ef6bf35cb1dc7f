"""The CUDA runtime subset and the device-wide algorithms (CUB's Device*, Thrust's) a submission may
call, and the check that it calls nothing else of either."""
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

# What judge/runtime/host_std provides for host code, on both backends.
SUPPORTED_ALGORITHMS: dict[str, tuple[str, ...]] = {
    "cub::DeviceReduce": ("Sum", "Min", "Max", "ArgMin", "ArgMax", "Reduce"),
    "cub::DeviceScan": ("InclusiveSum", "ExclusiveSum", "InclusiveScan", "ExclusiveScan"),
    "cub::DeviceRadixSort": ("SortKeys", "SortKeysDescending", "SortPairs", "SortPairsDescending"),
    "cub::DeviceSelect": ("Flagged", "Unique", "If"),
    "cub::DeviceHistogram": ("HistogramEven",),
    "cub::DeviceSegmentedReduce": ("Sum", "Min", "Max", "Reduce"),
    "cub::DeviceRunLengthEncode": ("Encode",),
    "thrust": ("sort", "stable_sort", "sort_by_key", "stable_sort_by_key", "reduce", "inclusive_scan",
               "exclusive_scan", "max_element", "min_element", "fill", "fill_n", "sequence", "count", "unique", "copy",
               "copy_n",
               "transform", "transform_reduce", "inner_product", "copy_if", "count_if"),
}
_THRUST_HELPERS = ("device_pointer_cast", "raw_pointer_cast", "device_ptr", "device_reference", "device_vector",
                   "host_vector", "plus", "minus", "multiplies", "divides",
                   "modulus", "negate", "less", "greater", "less_equal", "greater_equal", "equal_to", "not_equal_to",
                   "logical_and", "logical_or", "logical_not", "bit_and", "bit_or", "bit_xor", "maximum", "minimum")
# Of those, the calls that run a functor of the user's in one of the judge's kernels.
FUNCTOR_ALGORITHMS = ("thrust::transform", "thrust::transform_reduce", "thrust::inner_product", "thrust::copy_if",
                      "thrust::count_if", "cub::DeviceSelect::If")

# Thrust and CUB calls that would run a functor of the user's on the device, but are not supported.
_FUNCTOR_CALLS = {"thrust::for_each", "thrust::for_each_n", "thrust::remove_if", "thrust::replace_if",
                  "thrust::partition", "thrust::generate", "thrust::tabulate", "thrust::transform_inclusive_scan",
                  "thrust::transform_exclusive_scan", "cub::DevicePartition::If",
                  "cub::DeviceTransform::Transform", "cub::DeviceFor::ForEach", "cub::DeviceFor::Bulk"}

_ALGORITHM_NAME = re.compile(r"^(?:::)?((thrust|cub::Device\w+)::(\w+))")


def _algorithm_refusal(called: str) -> str | None:
    """Why a qualified call into Thrust or CUB's device-wide algorithms is refused, or None."""
    match = _ALGORITHM_NAME.match(called)
    if not match:
        return None
    name, owner, member = match.groups()
    if member in SUPPORTED_ALGORITHMS.get(owner, ()) or (owner == "thrust" and member in _THRUST_HELPERS):
        return None
    supported = "; ".join(f"{o}::{{{', '.join(members)}}}" for o, members in SUPPORTED_ALGORITHMS.items())
    why = ("it runs a functor of yours on the device, and the judge runs yours only for "
           f"{', '.join(FUNCTOR_ALGORITHMS)}; write that step as a kernel" if name in _FUNCTOR_CALLS
           else "the judge does not provide it")
    return f"{name} is not supported: {why}. Device-wide algorithms the judge runs: {supported}"


def _macro_names(program: Program) -> set[str]:
    return {text(n.child_by_field_name("name")) for n in walk(program.tree.root_node)
            if n.type in ("preproc_def", "preproc_function_def") and n.child_by_field_name("name") is not None}


def _calls(program: Program):
    """(fragment, call node, called name node) for every call in the file and its macro bodies."""
    for fragment in program.fragments:
        for node in walk(fragment.root):
            if node.type != "call_expression":
                continue
            function = node.child_by_field_name("function")
            if function is None:
                continue
            if function.type == "template_function":
                function = function.child_by_field_name("name")
            yield fragment, node, function


def functor_algorithm_calls(program: Program) -> list[tuple[str, int]]:
    """(algorithm, line) of each call of an algorithm that runs a functor of the user's, in file order."""
    found = []
    for fragment, node, function in _calls(program):
        match = _ALGORITHM_NAME.match(text(function))
        if match and match.group(1) in FUNCTOR_ALGORITHMS:
            found.append((match.group(1), fragment.file_line(node)))
    return sorted(found, key=lambda call: call[1])


def check_runtime_calls(program: Program, source: SourceFile) -> list[Diagnostic]:
    """A diagnostic for every call of a cuda* function, a Thrust function or a CUB device-wide algorithm
    outside what the judge supports."""
    own = {f.name for f in program.functions} | _macro_names(program)
    supported = set(SUPPORTED_RUNTIME_CALLS)
    found = []
    for fragment, node, function in _calls(program):
        column = None if fragment.in_macro else function.start_point.column + 1
        refusal = _algorithm_refusal(text(function))
        if refusal is not None:
            found.append(source.diagnostic(fragment.file_line(node), column, refusal, stage="policy"))
            continue
        match = _RUNTIME_NAME.match(text(function))
        if not match or match.group(1) in supported or match.group(1) in own:
            continue
        name = match.group(1)
        found.append(source.diagnostic(
            fragment.file_line(node), column,
            f"{name} is not supported by the judge. Supported CUDA runtime calls: "
            f"{', '.join(SUPPORTED_RUNTIME_CALLS)}", stage="policy"))
    return found
