"""Which headers a submission may include, and what each becomes in the device and host TUs.

NVRTC has no C++ standard library: in the device TU a standard header is replaced by its
libcu++ twin where one exists, or by the judge's small stand-in for <cmath>'s macros (so
`uint32_t`, `INT_MAX`, `FLT_MAX`, `INFINITY`, `assert` keep working in
device code) and blanked otherwise. The host TU is compiled against the judge's own CUDA
runtime headers, so CUDA's device-only headers are blanked there.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# The <cuda/std/...> (and <cuda/functional>) headers host code may include too: the host standard
# library as cuda::std. The host TU and the CPU backend's TU search this folder.
HOST_STD_DIR = Path(__file__).resolve().parent.parent / "runtime" / "host_std"

# Flat CUDA headers. Value: (kept in the device TU, the host TU has a shim for it).
_CUDA_FLAT: dict[str, tuple[bool, bool]] = {
    "cuda_runtime.h": (True, True),
    "cuda_runtime_api.h": (True, True),
    "cuda.h": (False, True),                 # the driver API header does not compile under NVRTC
    "device_launch_parameters.h": (True, True),
    "vector_types.h": (True, True),
    "cuda_fp16.h": (True, True),
    "cuda_bf16.h": (True, True),
    "math_constants.h": (True, False),
    "cooperative_groups.h": (True, False),
    "mma.h": (True, False),
    "cuda_pipeline.h": (True, False),
    "cuda_awbarrier.h": (True, False),
}

_CCCL_CUDA = {"atomic", "barrier", "pipeline", "annotated_ptr", "cmath", "functional", "latch", "semaphore", "ptx"}

# Standard headers learners reach for; value: the device TU's libcu++ replacement, if any.
_STANDARD: dict[str, str | None] = {
    "cstdint": "cuda/std/cstdint", "stdint.h": "cuda/std/cstdint",
    "climits": "cuda/std/climits", "limits.h": "cuda/std/climits",
    "cfloat": "cudajudge_cfloat.h", "float.h": "cudajudge_cfloat.h",
    "cstddef": "cuda/std/cstddef", "stddef.h": "cuda/std/cstddef",
    "cassert": "cuda/std/cassert", "assert.h": "cuda/std/cassert",
    "cstdio": None, "stdio.h": None, "cstdlib": None, "stdlib.h": None, "cstring": None, "string.h": None,
    "cmath": "cudajudge_cmath.h", "math.h": "cudajudge_cmath.h", "algorithm": None, "numeric": None, "utility": None,
    "type_traits": None, "limits": None, "array": None, "vector": None,
}

# The header of the judges' common template (`#include "solve.h"`, then solve() in the file): the
# file defines solve itself and the judge calls it with the problem's parameters, so the header
# adds nothing (the CPU runtime ships an empty one for the same reason).
SOLVE_HEADER = "solve.h"

# What <cub/cub.cuh> becomes: the block and warp primitives in the device TU (the judge's device
# header), the device-wide algorithms in the host TU.
CUB_COLLECTIVES_HEADER = "cudajudge_cub_collectives.cuh"
DEVICE_WIDE_CUB_HEADER = "cub/cudajudge_device.cuh"

_PATH = re.compile(r"^[A-Za-z0-9_]+(/[A-Za-z0-9_]+)*(\.[A-Za-z0-9]+)?$")


@dataclass(frozen=True)
class HeaderUse:
    """What one allowed #include turns into."""
    device: str | None      # header the device TU includes on that line; None blanks the line
    host: str | None        # header the host TU includes on that line; None blanks the line
    heavy: bool             # slow to parse: worth a precompiled header


class HeaderRefused(ValueError):
    """An #include the judge does not allow; the message says why and what to do."""


def _supported_summary() -> str:
    return ("CUDA headers (cuda_runtime.h, cuda_fp16.h, cooperative_groups.h, cub/cub.cuh, cub/block/..., "
            "cub/warp/..., cub/device/..., thrust/..., cuda/std/..., ...) and the standard headers " + ", ".join(sorted(k for k in _STANDARD if "." not in k)))


def header_use(path: str, quoted: bool) -> HeaderUse:
    """The TU mapping of an `#include <path>` (or `"path"` when quoted); raises HeaderRefused."""
    shown = f'#include "{path}"' if quoted else f"#include <{path}>"
    if ".." in path or path.startswith("/") or not _PATH.match(path):
        raise HeaderRefused(f"{shown} is not allowed: a submission may include only "
                            f"{_supported_summary()}, named plainly (no '..', no absolute paths)")
    if quoted and "/" in path:
        raise HeaderRefused(f"{shown} is not allowed: quoted includes may not contain '/'; "
                            f"write #include <{path}> for a CUDA library header")
    if path == SOLVE_HEADER:
        return HeaderUse(None, None, heavy=False)
    if path in _CUDA_FLAT:
        device, host = _CUDA_FLAT[path]
        return HeaderUse(path if device else None, path if host else None, heavy=path == "cooperative_groups.h")
    if path in _STANDARD:
        return HeaderUse(_STANDARD[path], path, heavy=False)
    top, _, below = path.partition("/")
    if top in ("cub", "thrust") and below:
        return _cccl_use(path, shown, top, below)
    if top == "cooperative_groups" and below:
        return HeaderUse(path, None, heavy=True)
    if top == "cuda" and (below.startswith("std/") or below in _CCCL_CUDA):
        return HeaderUse(path, path if (HOST_STD_DIR / path).is_file() else None, heavy=True)
    raise HeaderRefused(f"{shown} is not allowed: a submission may include only {_supported_summary()}")


def _cccl_use(path: str, shown: str, top: str, below: str) -> HeaderUse:
    """CUB and Thrust: block and warp primitives are device code; device-wide algorithms and Thrust are
    host code, which both backends take from the judge's host library (HOST_STD_DIR)."""
    if path == "cub/cub.cuh":
        return HeaderUse(CUB_COLLECTIVES_HEADER, DEVICE_WIDE_CUB_HEADER, heavy=True)
    if top == "cub" and not below.startswith("device/"):
        return HeaderUse(path, None, heavy=True)
    if (HOST_STD_DIR / path).is_file():
        return HeaderUse(None, path, heavy=False)
    folder = HOST_STD_DIR / ("cub/device" if top == "cub" else "thrust")
    offered = sorted(f"<{p.relative_to(HOST_STD_DIR)}>" for p in folder.glob("*.*"))
    raise HeaderRefused(f"{shown} is not supported: the judge provides " + ", ".join(offered))
