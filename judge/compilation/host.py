"""The host TU -> a shared library with solve(), compiled by g++ against the judge's runtime shim.

The host object compiles while NVRTC runs; the library is linked once NVRTC has named the
kernels, from the host object, the runtime shim's object (compiled once per shim version and
reused) and a small generated source holding the kernel table's names.
"""
from __future__ import annotations

import os
import secrets
import re
import subprocess
from pathlib import Path

from judge.compilation.process import CompilerProcess
from judge.compilation.toolchain import RUNTIME_INCLUDE_DIRS, RUNTIME_SOURCE, Toolchain, runtime_digest
from judge.entry import ENTRY_SYMBOL
from judge.source.syntax import c_string_literal

ALGORITHM_SYMBOL = "cudajudge_device_algorithm"   # judge/runtime/host_std/cudajudge/device_algorithm_abi.h

HOST_TU_NAME = "host.cu"


def _environment() -> dict[str, str]:
    return {**os.environ, "LC_ALL": "C"}   # plain ASCII quotes in diagnostics


def _common_flags(chain: Toolchain) -> list[str]:
    flags = ["-std=c++17", "-O2", "-fPIC", "-fno-ipa-icf", "-fdiagnostics-color=never",
             "-fno-diagnostics-show-caret", "-fmax-errors=20"]
    if chain.cxx_major >= 11:
        flags.append("-fdiagnostics-column-unit=byte")
    return flags + [f"-I{d}" for d in RUNTIME_INCLUDE_DIRS]


def start_host_compile(text: bytes, workdir: Path, chain: Toolchain) -> CompilerProcess:
    """g++ -c of the host TU. -fno-ipa-icf: two stubs with identical bodies must keep distinct addresses."""
    (workdir / HOST_TU_NAME).write_bytes(text)
    return CompilerProcess([chain.cxx, *_common_flags(chain), "-include", "cuda_runtime.h", "-x", "c++", "-c",
                            HOST_TU_NAME, "-o", "host.o"], cwd=workdir, env=_environment())


class RuntimeObject:
    """The shim's runtime.cpp compiled once per (shim sources, compiler) and kept in the cache."""

    def __init__(self, cache_root: Path, chain: Toolchain):
        folder = cache_root / "runtime"
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"runtime-{runtime_digest()[:16]}-gcc{chain.cxx_version}.o"
        # Unique per builder: threads of one process (validate --jobs) may build it at the same time.
        self._partial = folder / f"{self.path.stem}.{os.getpid()}.{secrets.token_hex(6)}.partial.o"
        self.job = None if self.path.exists() else CompilerProcess(
            [chain.cxx, *_common_flags(chain), "-fvisibility=hidden", "-c", str(RUNTIME_SOURCE), "-o",
             str(self._partial)], env=_environment(), writable=(folder,))

    def finish(self, deadline: float) -> str | None:
        """None when the object is ready, else the compiler's complaint (a judge bug)."""
        if self.job is None:
            return None
        done = self.job.wait(deadline)
        if done.returncode != 0:
            self._partial.unlink(missing_ok=True)
            return done.stderr or "timed out"
        os.replace(self._partial, self.path)
        return None


def kernel_table_source(names: list[str], lowered: list[str], judge_owned: list[tuple[str, str, str]] = ()) -> str:
    """The kernel table's names and lowered names (the host TU holds their addresses), and the judge's
    functor kernels: (mangled symbol in the host object, shown name, lowered name), addresses included."""
    def array(symbol: str, values: list[str]) -> str:
        entries = "".join(f"    {c_string_literal(v)},\n" for v in values)
        return f'extern "C" const char* const {symbol}[] = {{\n{entries}    nullptr\n}};\n'
    stubs = "".join(f'extern "C" void cudajudge_judge_kernel_{i}() __asm__("{symbol}");\n'
                    for i, (symbol, _, _) in enumerate(judge_owned))
    addresses = "".join(f"    reinterpret_cast<const void*>(&cudajudge_judge_kernel_{i}),\n" for i in range(len(judge_owned)))
    return (array("cudajudge_kernel_names", names) + array("cudajudge_kernel_lowered", lowered) +
            f'extern "C" const int cudajudge_kernel_count = {len(names)};\n' + stubs +
            f'extern "C" const void* const cudajudge_judge_kernel_addresses[] = {{\n{addresses}    nullptr\n}};\n' +
            array("cudajudge_judge_kernel_names", [name for _, name, _ in judge_owned]) +
            array("cudajudge_judge_kernel_lowered", [low for _, _, low in judge_owned]) +
            f'extern "C" const int cudajudge_judge_kernel_count = {len(judge_owned)};\n')


def start_link(workdir: Path, runtime_object: Path, table: str, library: Path, chain: Toolchain) -> CompilerProcess:
    (workdir / "kernels.cpp").write_text(table)
    return CompilerProcess([chain.cxx, "-shared", "-fPIC", "-o", str(library), "host.o", "kernels.cpp",
                            str(runtime_object), "-ldl", "-Wl,--no-undefined"], cwd=workdir, env=_environment())


def exports_entry(library: Path) -> bool:
    out = subprocess.run(["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True, timeout=30)
    return bool(re.search(rf"^\S+\s+T\s+{ENTRY_SYMBOL}$", out.stdout, re.M))


def calls_device_algorithms(host_object: Path) -> bool:
    """Whether the host object calls a device-wide algorithm (its kernels are then loaded before solve())."""
    out = subprocess.run(["nm", "--undefined-only", "-P", str(host_object)], capture_output=True, text=True, timeout=30)
    return any(line.split()[0] == ALGORITHM_SYMBOL for line in out.stdout.splitlines() if line.strip())
