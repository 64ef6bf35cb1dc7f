"""build(): one submission built for either backend, the entry the judge calls."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from judge.compilation.builder import build_gpu
from judge.compilation.cache import BuildCache
from judge.compilation.result import BuildResult
from judge.problems.model import Problem
from judge.result import CompileInfo


def build(problem: Problem, source: str | bytes, *, backend: str = "gpu", filename: str = "solution.cu",
          arch: str | None = None, cache: BuildCache | None = None) -> BuildResult:
    """The GPU build (NVRTC and g++), or the CPU build's plain and observed libraries, compiled at once.
    The same source checks run for both; never raises for the submission's faults."""
    if backend == "gpu":
        return build_gpu(problem, source, arch=arch, filename=filename, cache=cache)
    from judge.compilation.cpu_build import build_cpu
    from judge.source.cpu_rewrites import CpuSource, cpu_source
    from judge.source.prepare import SourceRejected, prepare

    try:   # the same source policy and signature check as the GPU build
        prepared = prepare(problem, source, filename)
    except SourceRejected as rejected:
        return BuildResult(compile=CompileInfo(ok=False, diagnostics=rejected.diagnostics))
    text = source.decode("utf-8") if isinstance(source, bytes) else source
    lock, made = threading.Lock(), []

    def rewritten() -> CpuSource:   # made once for both builds, and only if one is not cached
        with lock:
            if not made:
                made.append(cpu_source(text))
            return made[0]

    with ThreadPoolExecutor(max_workers=2) as pool:   # the plain build and the observed one (small tests), at once
        plain, observed = [pool.submit(build_cpu, text, filename=filename, entry=prepared.entry, observed=o,
                                       rewritten=rewritten) for o in (False, True)]
        plain, observed = plain.result(), observed.result()
    info = plain.compile
    if info.ok and prepared.held_back:
        return BuildResult(compile=CompileInfo(ok=False, diagnostics=prepared.held_back, seconds=info.seconds))
    if info.ok and prepared.functor_calls:   # the functors the GPU build could not instantiate either
        from judge.compilation.judge_kernels import judge_kernels

        refused = judge_kernels(plain.library, prepared.functor_calls, prepared.file)[1]
        if refused:
            return BuildResult(compile=CompileInfo(ok=False, diagnostics=refused, seconds=info.seconds))
    if info.seconds is not None and observed.compile.seconds is not None:
        info = info.model_copy(update={"seconds": max(info.seconds, observed.compile.seconds)})
    if info.ok and prepared.notes:
        info = info.model_copy(update={"diagnostics": prepared.notes + info.diagnostics})
    return plain.model_copy(update={"compile": info, "observed_library": observed.library,
                                    "cached": plain.cached and observed.cached})
