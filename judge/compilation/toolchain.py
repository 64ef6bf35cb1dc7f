"""Where the compilers and headers are, and what identifies them for the build cache.

Found once per process and cheaply (a cached build must stay fast): the CUDA headers and NVRTC
come from the nvidia-* wheels when installed, else from a CUDA toolkit; the host compiler is g++.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

from judge.digest import digest
from judge.source.headers import HOST_STD_DIR

RUNTIME_DIR = Path(__file__).resolve().parent.parent / "runtime"   # both backends' runtimes: gpu/, cpu/, host_std/
RUNTIME_INCLUDE_DIRS = (RUNTIME_DIR / "gpu" / "include", RUNTIME_DIR, HOST_STD_DIR)
RUNTIME_SOURCE = RUNTIME_DIR / "gpu" / "runtime.cpp"
DEVICE_INCLUDE_DIR = RUNTIME_DIR / "gpu" / "device"    # the judge's headers for the device TU
NVCC_NAMES_HEADER = RUNTIME_DIR / "cudajudge_nvcc_names.h"   # pre-included in the device TU
_RUNTIME_FILES = (*sorted(RUNTIME_DIR.glob("*.h")), *sorted((RUNTIME_DIR / "gpu").rglob("*.[ch]*")),
                  *sorted(p for p in HOST_STD_DIR.rglob("*") if p.is_file()))

# The GPU build's own logic: a change to it must not reuse artifacts built by the old one.
_GPU_PIPELINE_FILES = (sorted(p for p in Path(__file__).resolve().parent.glob("*.py") if not p.name.startswith("cpu_"))
                       + sorted((Path(__file__).resolve().parent.parent / "source").glob("*.py")))


class ToolchainError(RuntimeError):
    """A compiler or the CUDA headers are missing: the judge's fault, not the submission's."""


@dataclass(frozen=True)
class Toolchain:
    cuda_include: Path           # cuda_runtime.h, cooperative_groups.h, ...
    cccl_include: Path           # cub/, cuda/std/
    nvrtc_library: Path
    cxx: str
    cxx_version: str

    @property
    def include_dirs(self) -> tuple[Path, ...]:
        return (self.cuda_include, self.cccl_include)

    @property
    def cxx_major(self) -> int:
        return int(self.cxx_version.split(".")[0])


def _wheel_cuda_roots() -> list[Path]:
    spec = find_spec("nvidia")
    roots = []
    for base in (spec.submodule_search_locations or []) if spec else []:
        roots += sorted(Path(base).glob("cu*"), reverse=True)
    return roots


def _find_cuda() -> tuple[Path, Path, Path]:
    candidates = [(r / "include", r / "lib") for r in _wheel_cuda_roots()]
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    candidates.append((Path(home) / "include", Path(home) / "lib64"))
    for include, lib in candidates:
        cccl = include / "cccl" if (include / "cccl" / "cub").is_dir() else include
        libraries = sorted(lib.glob("libnvrtc.so*"))
        if (include / "cuda_runtime.h").is_file() and (cccl / "cub").is_dir() and libraries:
            return include, cccl, libraries[0]
    raise ToolchainError("CUDA headers and NVRTC were not found: install the judge's CUDA extra "
                         "(nvidia-cuda-nvrtc, nvidia-cuda-runtime, nvidia-cuda-cccl) or set CUDA_HOME")


@lru_cache(maxsize=1)
def toolchain() -> Toolchain:
    include, cccl, nvrtc = _find_cuda()
    cxx = os.environ.get("CXX") or shutil.which("g++")
    if not cxx:
        raise ToolchainError("no host C++ compiler: install g++")
    version = subprocess.run([cxx, "-dumpfullversion", "-dumpversion"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
    return Toolchain(include, cccl, nvrtc, cxx, version or "0")


@lru_cache(maxsize=1)
def runtime_digest() -> str:
    """Hash of the runtime shim's sources: the host libraries link what they compile to."""
    return digest(*_RUNTIME_FILES)


@lru_cache(maxsize=1)
def pipeline_digest() -> str:
    return digest(*_GPU_PIPELINE_FILES)


def nvrtc_identity(chain: Toolchain) -> str:
    stat = chain.nvrtc_library.resolve().stat()
    return f"{chain.nvrtc_library.resolve()}:{stat.st_size}:{stat.st_mtime_ns}"
