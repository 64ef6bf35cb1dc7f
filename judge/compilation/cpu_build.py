"""CPU builds: a submission compiled by g++ as one translation unit against the CUDA-on-CPU runtime.

g++ compiles the CPU translation unit (judge.source.cpu_rewrites) with the runtime header
force-included from a precompiled header; `<cuda_runtime.h>` and friends resolve to the runtime's
own small headers, and the prebuilt runtime archive (judge.compilation.cpu_runtime) is linked in.
The result is a shared library exporting the judge's entry point into `solve` and the
`cudajudge_cpu_*` ABI (judge/runtime/cpu/cudajudge_cpu_abi.h).

Builds, failed ones included, are kept in the build cache (judge.compilation.cache) by (source,
file name, runtime, build pipeline, flags); a build cut short by a limit is not.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from judge.cache_paths import cpu_build_root
from judge.compilation.cache import BuildCache
from judge.compilation.cpu_runtime import CPU_RUNTIME_DIR, CXX, INCLUDE_FLAGS, CpuRuntime, built_runtime, runtime_flags, \
    submission_flags
from judge.compilation.process import COMPILER_TIME_S, CompilerProcess, Finished, limit_message
from judge.compilation.result import LIBRARY_NAME, BuildResult
from judge.digest import digest
from judge.result import CompileInfo, Diagnostic
from judge.source.cpu_rewrites import CpuSource, cpu_source
from judge.source.diagnostics import SourceFile, TuMap, parse_gcc_log, parse_link_log
from judge.source.headers import HOST_STD_DIR

COMPILE_TIMEOUT_S = COMPILER_TIME_S

# The CPU build's own logic: a change to it must not reuse builds made by its old version.
_SOURCE_DIR = Path(__file__).resolve().parent.parent / "source"
_CPU_PIPELINE_FILES = [Path(__file__).resolve()] + [_SOURCE_DIR / name for name in (
    "cpu_rewrites.py", "launches.py", "syntax.py", "program.py", "diagnostics.py", "inline_ptx.py")]


def build_cpu(source_text: str, *, filename: str = "solution.cu", entry: str = "", asan: bool = False,
              observed: bool = False, timeout_s: float = COMPILE_TIMEOUT_S,
              rewritten: Callable[[], CpuSource] | None = None) -> BuildResult:
    """Compile a submission for the CPU backend; never raises for the submission's faults.

    The result holds the compile outcome (diagnostics in the user's file and lines) and the shared
    library, None when the build failed. `entry` (judge.source.signature.entry_point) is compiled
    after the file's last line. With observed=True every memory access of the library calls the
    memory observer (docs/cpu-backend.md). With asan=True the library is instrumented by
    AddressSanitizer; load it in a process run with cpu_runtime.sanitizer_environment().
    `rewritten` gives the translation unit when the caller made it already (needed only on a miss)."""
    if asan and observed:
        raise ValueError("a CPU build is observed or sanitized, not both")
    started = time.perf_counter()
    runtime = built_runtime(asan)
    flags = submission_flags(asan, observed)
    key = digest(*_CPU_PIPELINE_FILES, source_text, entry, filename, runtime.archive.parent.name, *flags, hex_digits=24)
    cache = BuildCache(cpu_build_root() / "builds")
    hit = cache.load(key, started)
    if hit is not None:
        return hit
    prepared = rewritten() if rewritten is not None else cpu_source(source_text)
    workspace = cache.workspace()
    compiled_name = Path(filename).name or "solution.cu"
    try:
        (workspace / compiled_name).write_text(prepared.text + entry, encoding="utf-8")
        # Compiled and linked apart: a link with -fsanitize=thread would pull in the sanitizer's runtime.
        header = runtime.observed_header if observed else runtime.header
        compile_command = [CXX, *flags, f"-fdebug-prefix-map={workspace}=.", "-include", str(header),
                           *INCLUDE_FLAGS, "-x", "c++", "-c", compiled_name, "-o", "solution.o"]
        link_command = [CXX, *runtime_flags(asan), "-shared", "solution.o", "-Wl,--whole-archive", str(runtime.archive),
                        "-Wl,--no-whole-archive", "-Wl,-Bsymbolic", "-Wl,--no-undefined", "-o", LIBRARY_NAME]
        deadline = time.perf_counter() + timeout_s
        finished = CompilerProcess(compile_command, cwd=workspace).wait(deadline)
        linking = finished.returncode == 0 and finished.limit is None
        if linking:
            finished = CompilerProcess(link_command, cwd=workspace).wait(deadline)
        info = _compile_info(finished, prepared, source_text, filename, compiled_name, workspace, runtime, started,
                             timeout_s, linking)
    except BaseException:
        cache.discard(workspace)
        raise
    result = BuildResult(compile=info, library=workspace / LIBRARY_NAME if info.ok else None)
    if finished.limit is not None:   # perhaps only a busy machine: not worth remembering
        cache.discard(workspace)
        return result.model_copy(update={"library": None})
    return cache.store(key, workspace, result)


def _compile_info(finished: Finished, prepared: CpuSource, source_text: str, filename: str, compiled_name: str,
                  workspace: Path, runtime: CpuRuntime, started: float, timeout_s: float, linking: bool) -> CompileInfo:
    seconds = time.perf_counter() - started
    if finished.limit is not None:
        message = limit_message(finished.limit, timeout_s)
        return CompileInfo(ok=False, log=message, seconds=seconds,
                           diagnostics=[Diagnostic(file=filename, message=message, stage="host")])
    roots = (str(CPU_RUNTIME_DIR / "include"), str(HOST_STD_DIR), str(CPU_RUNTIME_DIR), str(runtime.header.parent),
             str(workspace))
    log = finished.stderr
    for root in roots:
        log = log.replace(root.rstrip("/") + "/", "")
    tu = TuMap(names=(compiled_name, f"./{compiled_name}"), to_user=prepared.user_position, header_roots=roots)
    source = SourceFile(source_text, filename)
    diagnostics = (parse_link_log(finished.stderr, source) if linking else
                   parse_gcc_log(finished.stderr, tu, source, stage="host"))
    ok = finished.returncode == 0
    if not ok and not any(d.severity == "error" for d in diagnostics):
        diagnostics.append(Diagnostic(file=filename, message=(log.strip().splitlines() or ["the build failed"])[-1], stage="host"))
    return CompileInfo(ok=ok, log=log, diagnostics=diagnostics, seconds=seconds)
