"""build(): a submission -> cubin + host library, or a compile error in the user's terms.

NVRTC (device TU) and g++ (host TU) run at the same time under one deadline; the library is
linked once NVRTC has reported the kernels' lowered names. A file whose host code passes a functor
to a device-wide algorithm is built in order instead: NVRTC instantiates the judge's kernels for
the functors the host object names (judge_kernels). Results, failures included, are cached; a build
cut short by the deadline is not.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from judge.compilation.arch import default_arch, valid_arch
from judge.compilation.cache import BuildCache, build_key
from judge.compilation.device import DeviceCompile, DeviceOutcome
from judge.compilation.host import (HOST_TU_NAME, RuntimeObject, calls_device_algorithms, exports_entry, kernel_table_source,
                              start_host_compile, start_link)
from judge.compilation.judge_kernels import JudgeKernel, judge_kernels
from judge.compilation.process import COMPILER_TIME_S, Finished, limit_message
from judge.compilation.result import LIBRARY_NAME, BuildResult, KernelInfo
from judge.compilation.toolchain import RUNTIME_DIR, Toolchain, ToolchainError, toolchain
from judge.problems.model import Problem
from judge.result import CompileInfo, Diagnostic
from judge.source.diagnostics import SourceFile, TuMap, parse_gcc_log, parse_link_log, parse_nvrtc_log, render
from judge.source.prepare import PreparedSource, SourceRejected, prepare

COMPILE_DEADLINE_S = COMPILER_TIME_S
FUNCTOR_KERNELS_INCLUDE = b"\n#include <cudajudge_functor_kernels.cuh>\n"


@dataclass
class _Outcome:
    result: BuildResult
    keep: bool = True       # False: not worth caching (stopped by a cap: perhaps only a busy machine)


def _errors_first(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diagnostics if d.severity != "warning"] + [d for d in diagnostics if d.severity == "warning"]


def _merge(primary: list[Diagnostic], secondary: list[Diagnostic]) -> list[Diagnostic]:
    """primary, then those of secondary on lines primary has no error on."""
    covered = {d.line for d in primary if d.severity == "error"}
    return primary + [d for d in secondary if d.line is None or d.line not in covered or d.severity == "warning"]


class _Build:
    def __init__(self, problem: Problem, data: bytes, filename: str, arch: str, chain: Toolchain,
                 cache: BuildCache, workspace: Path, started: float):
        self.problem, self.data, self.filename, self.arch = problem, data, filename, arch
        self.chain, self.cache, self.workspace, self.started = chain, cache, workspace, started
        self.deadline = started + COMPILE_DEADLINE_S

    def result(self, ok: bool, diagnostics: list[Diagnostic], **fields) -> BuildResult:
        diagnostics = _errors_first(diagnostics)
        info = CompileInfo(ok=ok, log=render(diagnostics), diagnostics=diagnostics,
                           seconds=round(time.perf_counter() - self.started, 3))
        return BuildResult(compile=info, arch=self.arch, **fields)

    def stopped(self, limit: str, file: SourceFile) -> _Outcome:
        """A compiler was stopped by its time or memory cap."""
        message = limit_message(limit, COMPILE_DEADLINE_S)
        return _Outcome(self.result(False, [file.diagnostic(None, None, message, stage="device")]), keep=False)

    def run(self) -> _Outcome:
        try:
            prepared = prepare(self.problem, self.data, self.filename)
        except SourceRejected as rejected:
            return _Outcome(self.result(False, rejected.diagnostics))
        units = prepared.units
        runtime = RuntimeObject(self.cache.root, self.chain)
        host_job = start_host_compile(units.host.text, self.workspace, self.chain)
        host, functor_kernels = None, []
        if prepared.functor_calls:
            host = host_job.wait(self.deadline)
            if host.limit is None and host.returncode == 0:
                functor_kernels, refused = judge_kernels(self.workspace / "host.o", prepared.functor_calls, prepared.file)
                if refused:
                    runtime.finish(self.deadline)
                    return _Outcome(self.result(False, refused))
        device_text = units.device.text + (FUNCTOR_KERNELS_INCLUDE if functor_kernels else b"")
        device = DeviceCompile(device_text, units.pch_headers,
                               [k.expression for k in prepared.kernels] + [k.expression for k in functor_kernels],
                               self.arch, self.filename, self.workspace, self.chain)
        host = host or host_job.wait(self.deadline)
        outcome = device.finish(self.deadline)
        runtime_problem = runtime.finish(self.deadline)
        if runtime_problem is not None:
            raise ToolchainError(f"the judge's runtime shim does not compile: {runtime_problem[-2000:]}")
        limit = host.limit or outcome.limit
        if limit is not None:
            return self.stopped(limit, prepared.file)

        diagnostics = self.compiler_diagnostics(prepared, host, outcome)
        times = {"nvrtc_s": round(outcome.seconds, 3), "host_s": round(host.seconds, 3), "pch": outcome.pch}
        if any(d.severity == "error" for d in diagnostics) or host.returncode != 0 or not outcome.ok:
            return _Outcome(self.result(False, _merge(diagnostics, prepared.syntax_diagnostics), **times))
        if prepared.held_back:
            return _Outcome(self.result(False, prepared.held_back + diagnostics, **times))
        return self.link(prepared, outcome, device.cubin, runtime.path, functor_kernels, prepared.notes + diagnostics,
                         times)

    def compiler_diagnostics(self, prepared: PreparedSource, host: Finished, outcome: DeviceOutcome) -> list[Diagnostic]:
        file = prepared.file
        (self.workspace / "nvrtc.log").write_text(outcome.log)   # raw logs, for the judge's maintainers
        (self.workspace / "host.log").write_text(host.stderr)
        roots = (str(RUNTIME_DIR), str(self.workspace), *(str(d) for d in self.chain.include_dirs))
        host_map = TuMap((HOST_TU_NAME,), prepared.units.host.source_position, roots)
        device_map = TuMap((self.filename,), prepared.units.device.source_position, roots)
        host_found = parse_gcc_log(host.stderr, host_map, file)
        device_lines = prepared.units.device.text.decode("utf-8", errors="replace").splitlines()
        device_found = parse_nvrtc_log(outcome.log, device_map, file, device_lines)
        if outcome.crashed:
            device_found.append(file.diagnostic(None, None, "the device compiler (NVRTC) stopped unexpectedly",
                                                stage="device"))
        elif not outcome.ok and not any(d.severity == "error" for d in device_found):
            device_found += parse_link_log(outcome.log, file, stage="device") or [
                file.diagnostic(None, None, "device compilation failed", stage="device")]
        if host.returncode != 0 and not any(d.severity == "error" for d in host_found):
            host_found.append(file.diagnostic(None, None, "host compilation failed", stage="host"))
        return _merge(host_found, device_found)

    def link(self, prepared: PreparedSource, outcome: DeviceOutcome, cubin: Path, runtime: Path,
             functor_kernels: list[JudgeKernel], warnings: list[Diagnostic], times: dict) -> _Outcome:
        kernels = [KernelInfo(name=k.display, expression=k.expression, lowered=outcome.lowered[k.expression],
                              line=k.line) for k in prepared.kernels]
        first_call = {name: line for name, line in reversed(prepared.functor_calls)}
        judge_owned = [KernelInfo(name=k.shown_as, expression=k.expression, lowered=outcome.lowered[k.expression],
                                  line=first_call.get(k.shown_as, 0)) for k in functor_kernels]
        library = self.workspace / LIBRARY_NAME
        table = kernel_table_source([k.name for k in kernels], [k.lowered for k in kernels],
                                    [(f.symbol, k.name, k.lowered) for f, k in zip(functor_kernels, judge_owned)])
        linked = start_link(self.workspace, runtime, table, library, self.chain).wait(self.deadline)
        times["host_s"] = round(times["host_s"] + linked.seconds, 3)
        if linked.limit is not None:
            return self.stopped(linked.limit, prepared.file)
        if linked.returncode != 0:
            problems = parse_link_log(linked.stderr, prepared.file) or [
                prepared.file.diagnostic(None, None, "linking the host code failed", stage="host")]
            return _Outcome(self.result(False, problems + warnings, **times))
        if not exports_entry(library):
            missing = prepared.file.diagnostic(None, None, f"the built library does not export solve; the problem "
                                               f"expects\n  {self.problem.signature}", stage="signature")
            return _Outcome(self.result(False, [missing] + warnings, **times))
        algorithms = calls_device_algorithms(self.workspace / "host.o")
        (self.workspace / "host.o").unlink(missing_ok=True)
        return _Outcome(self.result(True, warnings, cubin=cubin, library=library, kernels=kernels + judge_owned,
                                    device_algorithms=algorithms, **times))


def build_gpu(problem: Problem, source_text: str | bytes, *, arch: str | None = None, filename: str = "solution.cu",
              cache: BuildCache | None = None) -> BuildResult:
    """Build a submission for the GPU backend; never raises for the submission's faults."""
    started = time.perf_counter()
    filename = re.sub(r"[^\w.+-]", "_", Path(filename).name) or "solution.cu"   # it is quoted into the device TU
    arch = arch or default_arch()
    if not valid_arch(arch):
        raise ValueError(f"{arch!r} is not a GPU architecture such as sm_90")
    chain = toolchain()
    cache = cache or BuildCache()
    data = source_text.encode("utf-8", errors="surrogateescape") if isinstance(source_text, str) else source_text
    key = build_key(data, problem.signature, filename, arch, chain)
    hit = cache.load(key, started)
    if hit is not None:
        return hit
    workspace = cache.workspace()
    try:
        outcome = _Build(problem, data, filename, arch, chain, cache, workspace, started).run()
    except BaseException:
        cache.discard(workspace)
        raise
    if not outcome.keep:
        cache.discard(workspace)
        return outcome.result
    return cache.store(key, workspace, outcome.result)
