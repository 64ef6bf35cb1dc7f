"""The GPU architecture to compile for: the local GPU's, asked of NVML without a CUDA context.

The build process must never create a CUDA context (the sandboxed run child holds the only
one), so the compute capability comes from NVML, then nvidia-smi, else the default.
"""
from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
from functools import lru_cache

DEFAULT_ARCH = "sm_90"
_ARCH = re.compile(r"^(sm|compute)_\d+[a-z]?$")


def valid_arch(arch: str) -> bool:
    return bool(_ARCH.match(arch))


def _first_visible_index() -> int:
    first = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0].strip()
    return int(first) if first.isdigit() else 0


def _nvml_capability() -> tuple[int, int] | None:
    try:
        nvml = ctypes.CDLL("libnvidia-ml.so.1")
    except OSError:
        return None
    if nvml.nvmlInit_v2() != 0:
        return None
    try:
        handle = ctypes.c_void_p()
        major, minor = ctypes.c_int(), ctypes.c_int()
        if nvml.nvmlDeviceGetHandleByIndex_v2(_first_visible_index(), ctypes.byref(handle)) != 0:
            return None
        if nvml.nvmlDeviceGetCudaComputeCapability(handle, ctypes.byref(major), ctypes.byref(minor)) != 0:
            return None
        return major.value, minor.value
    finally:
        nvml.nvmlShutdown()


def _smi_capability() -> tuple[int, int] | None:
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        out = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=10).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return None
    index = _first_visible_index()
    if len(out) <= index or not re.match(r"^\d+\.\d+$", out[index]):
        return None
    major, minor = out[index].split(".")
    return int(major), int(minor)


@lru_cache(maxsize=1)
def default_arch() -> str:
    capability = _nvml_capability() or _smi_capability()
    return f"sm_{capability[0]}{capability[1]}" if capability else DEFAULT_ARCH
