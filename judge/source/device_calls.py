"""Device code that calls host code: refused before either compiler runs, so both backends agree.

NVRTC sees only device code and rejects such a call; the CPU backend compiles everything as host
code and would accept it. The check covers the functions compiled for the device (`__global__`,
`__device__`, `__host__ __device__`, and what the split keeps in the device TU) calling a function
this file defines for the host only, anything in `std::` (the C++ library is host code), or Thrust's and
CUB's device-wide algorithms (host-side libraries here).
"""
from __future__ import annotations

import re

from judge.result import Diagnostic
from judge.source.diagnostics import SourceFile
from judge.source.program import Program, Space, calls
from judge.source.syntax import line_of, text, walk


def _local_names(function) -> set[str]:
    """Names the function declares itself (parameters, locals, lambdas): a call of one is no host call."""
    names = set()
    for node in walk(function.node):
        if node.type in ("init_declarator", "parameter_declaration", "declaration"):
            declarator = node.child_by_field_name("declarator")
            while declarator is not None and declarator.type != "identifier":
                declarator = declarator.child_by_field_name("declarator")
            if declarator is not None:
                names.add(text(declarator))
    return names


def check_device_calls(program: Program, source: SourceFile) -> list[Diagnostic]:
    host_only = program.host_only(members=False)   # device code cannot call a member unqualified
    found = []
    for function in program.functions:
        if function.space not in (Space.KERNEL, Space.DEVICE, Space.BOTH) or function.body is None:
            continue
        kind = {Space.KERNEL: "a kernel", Space.DEVICE: "a __device__ function"}.get(function.space, "device code too")
        local = _local_names(function)
        for node, callee in calls(function.body):
            name = text(callee)
            if callee.type == "identifier" and name in host_only and name not in local:
                found.append(source.diagnostic(line_of(node), callee.start_point.column + 1,
                    f"{function.name} is {kind} and calls {name}, a host function (line {host_only[name].line}): "
                    f"mark {name} __device__ (or __host__ __device__) to call it from device code", stage="policy"))
            elif callee.type == "qualified_identifier" and re.match(r"(thrust|cub::Device\w+)::", name.lstrip(":")):
                found.append(source.diagnostic(line_of(node), callee.start_point.column + 1,
                    f"{function.name} is {kind} and calls {name}: Thrust's algorithms and CUB's device-wide ones "
                    f"are called from host code (solve()); device code has CUB's block and warp primitives",
                    stage="policy"))
            elif callee.type == "qualified_identifier" and name.lstrip(":").startswith("std::"):
                found.append(source.diagnostic(line_of(node), callee.start_point.column + 1,
                    f"{function.name} is {kind} and calls {name}: the C++ standard library is host code; device code "
                    f"has CUDA's own functions (min, max, sqrtf, ...) and libcu++'s cuda::std", stage="policy"))
    return found
