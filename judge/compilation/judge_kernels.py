"""The judge's own kernels a build instantiated for the user's functors (cudajudge/functor_kernels.h).

Host code that calls thrust::transform, copy_if, ... instantiates map_kernel / zip_kernel with the
functor's type; the build reads those instantiations from the compiled object's symbols, checks that
device code can name every type in them, and gives the GPU build NVRTC name expressions. A lambda, a
type declared inside a function or in an anonymous namespace cannot be named elsewhere, so NVRTC
cannot instantiate the kernel for it; such a type gives the instantiation internal linkage, which
is how the check sees it.
Both backends run the same check, so a functor is refused on both or on neither.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from judge.result import Diagnostic
from judge.source.diagnostics import SourceFile

KERNEL_TEMPLATES = ("cudajudge::algorithms::map_kernel", "cudajudge::algorithms::zip_kernel")
SHOWN_AS = "cudajudge::shown_as::"
_MANGLED_MARKS = ("10map_kernel", "10zip_kernel")
# libstdc++'s function objects (thrust::plus is std::plus on the host) are libcu++'s on the device.
_HOST_STD = re.compile(r"(?<![\w:])std::")


@dataclass(frozen=True)
class JudgeKernel:
    symbol: str        # its mangled name in the host object
    expression: str    # what NVRTC instantiates, e.g. cudajudge::algorithms::map_kernel<..., square, float, float>
    shown_as: str      # the algorithm its launches are shown under, e.g. thrust::transform


def _template_arguments(demangled: str, template: str) -> list[str] | None:
    start = demangled.find(template + "<")
    if start < 0:
        return None
    depth, current, arguments = 0, "", []
    for char in demangled[start + len(template):]:
        if char in "<({":
            depth += 1
            if depth == 1:
                continue
        elif char in ">)}":
            depth -= 1
            if depth == 0:
                arguments.append(current.strip())
                return arguments
        elif char == "," and depth == 1:
            arguments.append(current.strip())
            current = ""
            continue
        current += char
    return None


def _instantiations(binary: Path) -> list[tuple[str, str, bool]]:
    """(mangled, demangled, internal linkage) of each judge kernel defined in the object or library."""
    listed = subprocess.run(["nm", "--defined-only", "-P", str(binary)], capture_output=True, text=True, timeout=60,
                            check=True).stdout
    symbols = {}
    for line in listed.splitlines():
        fields = line.split()
        if len(fields) >= 2 and any(mark in fields[0] for mark in _MANGLED_MARKS):
            symbols[fields[0]] = fields[1].islower()
    if not symbols:
        return []
    mangled = sorted(symbols)
    demangled = subprocess.run(["c++filt"], input="\n".join(mangled) + "\n", capture_output=True, text=True,
                               timeout=60, check=True).stdout.splitlines()
    return [(m, d, symbols[m]) for m, d in zip(mangled, demangled)]


def judge_kernels(binary: Path, calls: list[tuple[str, int]],
                  file: SourceFile) -> tuple[list[JudgeKernel], list[Diagnostic]]:
    """The kernels to instantiate, or a diagnostic for each functor device code cannot name.
    `calls`: (algorithm, line) of the file's functor-algorithm calls, for the diagnostics' lines."""
    kernels, refused = [], []
    for symbol, demangled, internal in _instantiations(binary):
        template = next((t for t in KERNEL_TEMPLATES if t + "<" in demangled), None)
        arguments = _template_arguments(demangled, template) if template else None
        if not arguments or not arguments[0].startswith(SHOWN_AS):
            continue
        shown_as = arguments[0][len(SHOWN_AS):]
        types = arguments[1:]
        if internal:
            line = next((l for name, l in calls if name == shown_as), None)
            refused.append(file.diagnostic(
                line, None,
                f"{shown_as} is given a lambda or a type declared inside a function ({types[0]}): the judge "
                f"compiles device code apart from solve(), where that type cannot be named. Declare the functor "
                f"at file scope, e.g. struct Square {{ __device__ float operator()(float x) const "
                f"{{ return x * x; }} }};", stage="policy"))
            continue
        device_types = [_HOST_STD.sub("cuda::std::", t) for t in types]
        expression = f"{template}<{', '.join([arguments[0], *device_types])}>"
        kernels.append(JudgeKernel(symbol, expression, shown_as))
    return kernels, list({d.message: d for d in refused}.values())
