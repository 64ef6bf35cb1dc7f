"""Which backend judges: the GPU when this machine has one and CuPy, else the CPU; asked without
creating a CUDA context in this process."""
from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from importlib.util import find_spec

from sandbox.gpus import DRIVER_GPUS


@lru_cache(maxsize=1)
def gpu_available() -> bool:
    """A GPU and CuPy are present; asked without creating a CUDA context in this process: the
    driver's list of GPUs in /proc when it has one (no process to start), else nvidia-smi."""
    if find_spec("cupy") is None:
        return False
    try:
        if any(DRIVER_GPUS.iterdir()):
            return True
    except OSError:
        pass
    if shutil.which("nvidia-smi") is None:
        return False
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


def resolve_backend(name: str) -> str:
    if name == "auto":
        return "gpu" if gpu_available() else "cpu"
    if name not in ("gpu", "cpu"):
        raise ValueError(f"unknown backend {name!r}: choose auto, gpu or cpu")
    if name == "gpu" and not gpu_available():
        raise ValueError("--backend gpu needs an NVIDIA GPU and CuPy (pip install 'cudajudge[cuda13]'); "
                         "use --backend cpu to judge correctness without one")
    return name
