"""The CPU runtime: the CUDA-on-CPU library every CPU build links, prebuilt once per machine and
compiler as an archive, with a precompiled header per flag set (plain and observed).

Folder: runtime-KEY, the key hashing the runtime's sources, the compiler and the flags. The plain one
is built at install time into the package (PREBUILT_DIR, by setup.py through prebuild_runtime) and used
from there when its key is this machine's; otherwise, and for the AddressSanitizer build, it is built at
first use into judge.cache_paths.cpu_build_root(). Concurrent first builds wait for one another on a
lock file.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judge.cache_paths import cpu_build_root
from judge.compilation.process import CompilerProcess
from judge.compilation.toolchain import RUNTIME_DIR
from judge.digest import digest
from judge.source.headers import HOST_STD_DIR

CPU_RUNTIME_DIR = RUNTIME_DIR / "cpu"
# Outside runtime/, whose files the key hashes.
PREBUILT_DIR = RUNTIME_DIR.parent / "prebuilt"
CXX = "g++"
# The runtime's own build, once per machine and compiler: what the first judge tells the user to expect
# (measured on 2 idle cores), and the most it may take.
RUNTIME_BUILD_ESTIMATE_S = 25
RUNTIME_BUILD_TIME_S = 600.0

_COMMON_FLAGS = [
    "-std=c++17", "-O2", "-fPIC", "-pthread",
    "-g1",                          # line tables: a fault in a kernel is reported at its source line
    "-fno-builtin-printf",          # kernel printf must reach the runtime's printf, not puts/putchar
    "-U_FORTIFY_SOURCE",            # nor __printf_chk, which Ubuntu's compiler calls instead by default
    "-fstack-clash-protection",     # big frames probe every page, so they hit the fiber's guard page
    "-fno-strict-aliasing",         # CUDA code reinterprets pointers freely (float4 loads, bit casts)
    "-fwrapv",                      # signed overflow wraps, as it does on the GPU
    # The library is linked -Bsymbolic: no function of it is interposed, so the compiler may inline them
    # (a barrier's path through the scheduler was a dozen calls)
    "-fno-semantic-interposition",
]
# In an observed build every load, store and atomic calls the memory observer (judge/runtime/cpu/src/
# access_hooks.cpp): the compiler's ThreadSanitizer instrumentation, with the runtime's own callbacks and no
# sanitizer runtime. Only the submission (and the precompiled header it includes) is instrumented, never
# the runtime; the small tests run on it, the others on the plain build, which the calls would slow down.
OBSERVED_FLAGS = ["-fsanitize=thread", "--param=tsan-instrument-func-entry-exit=0", "--param=tsan-distinguish-volatile=1"]
_SANITIZER_FLAGS = ["-fsanitize=address", "-fsanitize-recover=address", "-fno-omit-frame-pointer", "-g"]
# How a process that loads an AddressSanitizer build must run (see sanitizer_environment).
_SANITIZER_OPTIONS = ("halt_on_error=0:detect_leaks=0:allow_user_segv_handler=1:handle_segv=0:handle_sigbus=0:"
                      "handle_sigfpe=0:handle_sigill=0:handle_abort=0:print_summary=0")

# Where a submission's (and its precompiled header's) includes resolve: the runtime's headers, then
# <cuda/std/...> as the host library.
INCLUDE_FLAGS = ["-I", str(CPU_RUNTIME_DIR / "include"), "-I", str(HOST_STD_DIR)]


class CpuRuntimeBuildError(RuntimeError):
    """The runtime itself failed to build: the judge's fault, never the submission's."""


def sanitizer_environment() -> dict[str, str]:
    """Environment for a process that loads a build made with asan=True: the sanitizer's runtime
    must be loaded first, and it must report and continue (the harness reads the report through
    the ABI) rather than abort, and leave faults to the CUDA runtime's own handler."""
    library = subprocess.run([CXX, "-print-file-name=libasan.so"], capture_output=True, text=True, check=True).stdout.strip()
    return {"LD_PRELOAD": library, "ASAN_OPTIONS": _SANITIZER_OPTIONS}



@dataclass(frozen=True)
class CpuRuntime:
    archive: Path
    header: Path            # force-included; its precompiled form sits next to it
    observed_header: Path   # the same, precompiled with the observer's instrumentation


@lru_cache(maxsize=1)
def compiler_version() -> str:
    try:
        return subprocess.run([CXX, "-dumpfullversion"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        raise CpuRuntimeBuildError(f"the C++ compiler {CXX} is not usable: {exc}") from exc


def _runtime_files() -> list[Path]:
    shared = sorted(RUNTIME_DIR.glob("*.h"))   # the headers both runtimes include (min/max, nvcc's names, types)
    return [*shared, *sorted(p for p in (*CPU_RUNTIME_DIR.rglob("*"), *HOST_STD_DIR.rglob("*")) if p.is_file())]


def runtime_flags(asan: bool) -> list[str]:
    """The runtime's flags."""
    return _COMMON_FLAGS + (_SANITIZER_FLAGS if asan else [])


def submission_flags(asan: bool, observed: bool) -> list[str]:
    """The flags of the submission and of the precompiled header it includes."""
    return runtime_flags(asan) + (OBSERVED_FLAGS if observed else [])


def _runtime_name(asan: bool) -> str:
    # The files by their paths inside the package: a runtime built into a wheel keeps its key where it is installed.
    files = [part for p in _runtime_files() for part in (str(p.relative_to(RUNTIME_DIR)), p.read_bytes())]
    key = digest(*files, compiler_version(), *runtime_flags(asan), "headers: plain, observed", *OBSERVED_FLAGS,
                 hex_digits=24)
    return f"runtime-{key}{'-asan' if asan else ''}"


def _precompiled(header: Path) -> Path:
    """Where GCC looks for a header's precompiled form: beside it."""
    return header.with_name(header.name + ".gch")


def _layout(folder: Path) -> CpuRuntime:
    return CpuRuntime(folder / "libcudajudge_cpu.a", folder / "cudajudge_pch.h", folder / "cudajudge_observed_pch.h")


def _runtime_layout(asan: bool) -> CpuRuntime:
    """The package's prebuilt runtime when it is this machine's (its name is the key) and whole, else the cache's."""
    name = _runtime_name(asan)
    prebuilt = _layout(PREBUILT_DIR / name)
    whole = (prebuilt.archive, _precompiled(prebuilt.header), _precompiled(prebuilt.observed_header))
    if all(p.exists() for p in whole):
        return prebuilt
    return _layout(cpu_build_root() / name)


def runtime_ready() -> bool:
    """Whether this machine's CPU runtime is built; the first CPU judge builds it otherwise."""
    return _runtime_layout(False).archive.exists()


def prepare_runtime() -> float:
    """Build the CPU runtime unless it is built (another process building it is waited for); the seconds
    this took."""
    started = time.perf_counter()
    built_runtime(False)
    return time.perf_counter() - started


def built_runtime(asan: bool) -> CpuRuntime:
    """The runtime for these flags, built first unless it is."""
    return _built(_runtime_layout(asan), asan)


def prebuild_runtime(root: Path = PREBUILT_DIR) -> Path:
    """Build the plain runtime into `root` (at install time, the package's PREBUILT_DIR) unless it is there,
    and remove whatever else is there (runtimes of older sources or another compiler); its folder."""
    folder = root / _runtime_name(False)
    try:
        _built(_layout(folder), False)
        folder.chmod(0o755)   # built as a private folder (as in a user's cache); an installed package serves every user
    finally:   # the build's lock file goes too: nothing but the runtime ships
        for other in root.glob("*"):
            if other.is_dir() and other != folder:
                shutil.rmtree(other)
            elif not other.is_dir():
                other.unlink()
    return folder


def _built(layout: CpuRuntime, asan: bool) -> CpuRuntime:
    if layout.archive.exists():
        return layout
    folder = layout.archive.parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not layout.archive.exists():
            _build_runtime(folder, layout, runtime_flags(asan), observable=not asan)
    return layout


def _build_runtime(folder: Path, runtime: CpuRuntime, flags: list[str], observable: bool) -> None:
    scratch = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=folder.parent))
    try:
        sources = sorted((CPU_RUNTIME_DIR / "src").glob("*.cpp")) + sorted((CPU_RUNTIME_DIR / "src").glob("*.S"))
        objects = [scratch / (s.stem + ".o") for s in sources]
        commands = [[CXX, *flags, "-c", str(s), "-o", str(o)] for s, o in zip(sources, objects)]
        headers = [(runtime.header.name, flags)] + ([(runtime.observed_header.name, flags + OBSERVED_FLAGS)] if observable else [])
        for name, header_flags in headers:
            header = scratch / name
            # Relative to the header's folder (GCC looks there first), so that a runtime built into the package
            # still finds it once the package is installed elsewhere; from the resolved folder, as ".." is.
            header.write_text(f'#include "{os.path.relpath(CPU_RUNTIME_DIR / "cuda_cpu.h", scratch.resolve())}"\n')
            commands.append([CXX, *header_flags, *INCLUDE_FLAGS, "-x", "c++-header", str(header),
                             "-o", str(_precompiled(header))])
        ends = time.perf_counter() + RUNTIME_BUILD_TIME_S
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda c: CompilerProcess(c, cwd=scratch).wait(ends), commands))
        failed = [r for r in results if r.returncode != 0]
        if failed:
            raise CpuRuntimeBuildError("the CPU runtime does not build:\n" + failed[0].stderr[-4000:])
        subprocess.run(["ar", "rcs", str(scratch / runtime.archive.name), *map(str, objects)], check=True, capture_output=True)
        for o in objects:
            o.unlink()
        os.replace(scratch, folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
