"""One submission built for either backend: the entry the judge calls."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from judge.problems.model import Problem
from judge.result import CompileInfo


def build_for(problem: Problem, source: str | bytes, backend: str, filename: str, arch: str | None):
    """(compile info, library path or None, the backend's artifacts): the GPU build (NVRTC and g++), or
    the CPU build's plain and observed libraries, compiled at once; the same source checks for both."""
    if backend == "gpu":
        from judge.compilation import build
        built = build(problem, source, arch=arch, filename=filename)
        return built.compile, built.library, built.artifacts()
    from judge.compilation.cpu_build import build_cpu
    from judge.source.prepare import SourceRejected, prepare

    try:   # the same source policy and signature check as the GPU build
        prepared = prepare(problem, source, filename)
    except SourceRejected as rejected:
        return CompileInfo(ok=False, diagnostics=rejected.diagnostics), None, {}
    text = source.decode("utf-8") if isinstance(source, bytes) else source
    with ThreadPoolExecutor(max_workers=2) as pool:   # the plain build and the observed one (small tests), at once
        plain, observed = (pool.submit(build_cpu, text, filename=filename, entry=prepared.entry, observed=o)
                           for o in (False, True))
        info, library = plain.result()
        observed_info, observed_library = observed.result()
    if info.ok and prepared.held_back:
        return CompileInfo(ok=False, diagnostics=prepared.held_back, seconds=info.seconds), None, {}
    if info.ok and prepared.functor_calls:   # the functors the GPU build could not instantiate either
        from judge.compilation.judge_kernels import judge_kernels

        refused = judge_kernels(library, prepared.functor_calls, prepared.file)[1]
        if refused:
            return CompileInfo(ok=False, diagnostics=refused, seconds=info.seconds), None, {}
    if info.seconds is not None and observed_info.seconds is not None:
        info = info.model_copy(update={"seconds": max(info.seconds, observed_info.seconds)})
    if info.ok and prepared.notes:
        info = info.model_copy(update={"diagnostics": prepared.notes + info.diagnostics})
    return info, library, {"observed": str(observed_library)} if observed_library is not None else {}
